#include "spindle/core/cluster_spec.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace spindle {
namespace {

std::optional<int> to_int(std::string_view text, int max) {
  int value = 0;
  if (text.empty() || text.size() > 9) return std::nullopt;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < 0 || value > max) return std::nullopt;
  return value;
}

}  // namespace

std::string TaskId::to_string() const {
  return type + ":" + std::to_string(index);
}

Result<TaskId> parse_task_id(std::string_view text) {
  const auto colon = text.rfind(':');
  const std::string quoted = "\"" + std::string(text) + "\"";
  if (colon == std::string_view::npos || colon == 0) {
    return make_error(quoted + " is not a task; write TYPE:INDEX, e.g. worker:0");
  }
  const auto index = to_int(text.substr(colon + 1), 1'000'000);
  if (!index) return make_error(quoted + " has no valid index; write TYPE:INDEX with INDEX from 0, e.g. worker:0");
  return TaskId{std::string(text.substr(0, colon)), *index};
}

std::string HostPort::to_string() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Result<HostPort> parse_host_port(std::string_view text) {
  const std::string quoted = "\"" + std::string(text) + "\"";
  std::string_view host;
  std::string_view port;
  if (text.starts_with('[')) {
    const auto close = text.find("]:");
    if (close == std::string_view::npos) return make_error(quoted + " is not [IPV6]:PORT");
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return make_error(quoted + " has no port; write HOST:PORT, e.g. h1:2222");
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) {
      return make_error(quoted + " looks like an IPv6 address; write it as [ADDRESS]:PORT");
    }
  }
  // Host names, IPv4 and IPv6 addresses only: addresses arrive from the
  // network and end up in every task's environment.
  const bool valid_host = !host.empty() && host.size() <= 253 && std::all_of(host.begin(), host.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == ':';
  });
  if (!valid_host) return make_error(quoted + " has no valid host name; write HOST:PORT, e.g. h1:2222");
  const auto number = to_int(port, 65535);
  if (!number || *number == 0) return make_error(quoted + " has no valid port; give a port from 1 to 65535");
  return HostPort{std::string(host), static_cast<std::uint16_t>(*number)};
}

Result<std::map<TaskId, HostPort>> parse_address_list(std::string_view text) {
  std::map<TaskId, HostPort> addresses;
  std::size_t start = 0;
  int position = 0;
  while (start < text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view entry = text.substr(start, comma - start);
    start = comma + 1;
    ++position;
    const std::string where = "entry " + std::to_string(position) + " \"" + std::string(entry) + "\"";
    const auto equals = entry.find('=');
    if (equals == std::string_view::npos) {
      return make_error(where + " is not TYPE:INDEX=HOST:PORT; write e.g. worker:0=h1:2222");
    }
    auto task = parse_task_id(entry.substr(0, equals));
    if (!task) return make_error(where + ": " + task.error().message);
    auto address = parse_host_port(entry.substr(equals + 1));
    if (!address) return make_error(where + ": " + address.error().message);
    if (!addresses.emplace(*task, *address).second) {
      return make_error(where + " gives " + task->to_string() + " a second address; give each task one");
    }
  }
  if (addresses.empty()) return make_error("no addresses given; write TYPE:INDEX=HOST:PORT,... e.g. worker:0=h1:2222");
  return addresses;
}

Result<ClusterAddresses> ClusterAddresses::create(const JobSpec& spec, std::map<TaskId, HostPort> addresses) {
  std::vector<std::string> missing;
  for (const auto& task : spec.tasks) {
    for (int index = 0; index < task.instances; ++index) {
      if (!addresses.contains(TaskId{task.type, index})) missing.push_back(task.type + ":" + std::to_string(index));
    }
  }
  for (const auto& [task, address] : addresses) {
    const TaskSpec* type = spec.find_task(task.type);
    if (!type || task.index >= type->instances) {
      return make_error("there is an address for " + task.to_string() + ", which the job does not have; its tasks " +
                        "are " + [&] {
                          std::string all;
                          for (const auto& t : spec.tasks) {
                            if (!all.empty()) all += ", ";
                            all += t.type + " x" + std::to_string(t.instances);
                          }
                          return all;
                        }());
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (std::size_t i = 0; i < missing.size() && i < 8; ++i) list += (i ? ", " : "") + missing[i];
    if (missing.size() > 8) list += " and " + std::to_string(missing.size() - 8) + " more";
    return make_error("no address for " + list + "; every task of the job needs one");
  }
  ClusterAddresses result;
  result.addresses_ = std::move(addresses);
  return result;
}

std::vector<HostPort> ClusterAddresses::of_type(std::string_view type) const {
  std::vector<HostPort> list;
  for (auto it = addresses_.lower_bound(TaskId{std::string(type), 0}); it != addresses_.end() && it->first.type == type;
       ++it) {
    list.push_back(it->second);
  }
  return list;
}

bool in_training_cluster(std::string_view type) {
  return type == task_types::chief || type == task_types::worker || type == task_types::ps;
}

}  // namespace spindle

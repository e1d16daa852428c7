#include "spindle/client/container_logs.h"

#include <algorithm>
#include <list>
#include <nlohmann/json.hpp>

#include "spindle/client/hdfs_log_files.h"
#include "spindle/yarn/aggregated_logs.h"
#include "spindle/yarn/cluster_identity.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::client {
namespace {

// An aggregated log file on HDFS, read in aligned pieces that are kept a
// while: readers go to the end first, then back to the blocks they need.
class HdfsByteSource final : public yarn::ByteSource {
 public:
  HdfsByteSource(yarn::WebHdfs& hdfs, std::string path, std::uint64_t size)
      : hdfs_(hdfs), path_(std::move(path)), size_(size) {}

  std::uint64_t size() const override { return size_; }

  Result<std::string> read(std::uint64_t offset, std::size_t length) override {
    if (offset > size_ || length > size_ - offset) {
      return make_error(path_ + " is " + std::to_string(size_) + " bytes long; a read of " + std::to_string(length) +
                        " bytes at byte " + std::to_string(offset) + " goes past its end: it is damaged");
    }
    std::string out;
    out.reserve(length);
    while (out.size() < length) {
      const auto at = offset + out.size();
      const auto piece_start = at - at % piece_size;
      auto piece = this->piece(piece_start);
      if (!piece) return piece.error();
      const auto from = static_cast<std::size_t>(at - piece_start);
      out.append(piece->get(), from, std::min(length - out.size(), piece->get().size() - from));
      if (piece->get().size() <= from) return make_error(path_ + " ended early at byte " + std::to_string(at));
    }
    return out;
  }

 private:
  static constexpr std::uint64_t piece_size = 4 * 1024 * 1024;
  static constexpr std::size_t pieces_kept = 8;

  Result<std::reference_wrapper<const std::string>> piece(std::uint64_t start) {
    for (auto it = pieces_.begin(); it != pieces_.end(); ++it) {
      if (it->first != start) continue;
      pieces_.splice(pieces_.begin(), pieces_, it);
      return std::cref(pieces_.front().second);
    }
    const auto length = std::min<std::uint64_t>(piece_size, size_ - start);
    auto bytes = hdfs_.read_range(path_, static_cast<std::int64_t>(start), static_cast<std::int64_t>(length));
    if (!bytes) return bytes.error();
    if (bytes->size() < length) {
      return make_error(path_ + " gave " + std::to_string(bytes->size()) + " bytes at byte " + std::to_string(start) +
                        " where " + std::to_string(length) + " were due; it shrank while being read");
    }
    pieces_.emplace_front(start, std::move(*bytes));
    if (pieces_.size() > pieces_kept) pieces_.pop_back();
    return std::cref(pieces_.front().second);
  }

  yarn::WebHdfs& hdfs_;
  std::string path_;
  std::uint64_t size_;
  std::list<std::pair<std::uint64_t, std::string>> pieces_;
};

bool is_final_state(const std::string& state) {
  return state == "FINISHED" || state == "FAILED" || state == "KILLED";
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

}  // namespace

struct ContainerLogs::State {
  yarn::HadoopConfiguration configuration;
  std::string application_id;
  yarn::ResourceManagerRest rest;
  std::optional<yarn::WebHdfs> hdfs;
  std::string hdfs_problem;
  std::string owner;
  std::optional<LogPlace> place;
  std::optional<std::vector<yarn::HdfsFileStatus>> node_files;  // with full paths in `name`
  std::vector<std::string> searched;                            // the directories looked in
  std::map<std::string, std::unique_ptr<HdfsByteSource>> sources;

  Result<void> find_node_files();
  Result<std::vector<LogText>> read_aggregated(const LogContainer& container, const std::vector<std::string>& files);
  Result<std::vector<LogText>> read_from_node(const LogContainer& container, const std::vector<std::string>& files);
};

ContainerLogs::ContainerLogs(std::unique_ptr<State> state) : state_(std::move(state)) {}
ContainerLogs::~ContainerLogs() = default;
ContainerLogs::ContainerLogs(ContainerLogs&&) noexcept = default;
ContainerLogs& ContainerLogs::operator=(ContainerLogs&&) noexcept = default;

Result<ContainerLogs> ContainerLogs::open(const yarn::HadoopConfiguration& configuration,
                                          const std::string& application_id) {
  auto state = std::unique_ptr<State>(
      new State{configuration, application_id, yarn::ResourceManagerRest::from_configuration(configuration)});
  if (auto hdfs = yarn::WebHdfs::from_configuration(configuration)) {
    state->hdfs.emplace(std::move(*hdfs));
  } else {
    state->hdfs_problem = hdfs.error().message;
  }
  if (auto user = yarn::cluster_user(configuration)) state->owner = *user;
  return ContainerLogs(std::move(state));
}

Result<LogPlace> ContainerLogs::place() {
  auto answer = state_->rest.application(state_->application_id);
  if (!answer) {
    // A ResourceManager that forgot the application: its logs may still be kept.
    if (answer.error().kind == Error::Kind::not_found && yarn::log_aggregation_enabled(state_->configuration)) {
      state_->place = LogPlace::aggregated;
      return *state_->place;
    }
    return answer.error();
  }
  const auto& app = (*answer)["app"];
  if (!app.is_object()) {
    return make_error("the ResourceManager's report of " + state_->application_id + " holds no application");
  }
  if (app.contains("user") && app["user"].is_string()) state_->owner = app["user"].get<std::string>();
  const std::string state = app.value("state", "");
  const std::string aggregation = app.value("logAggregationStatus", "");
  if (!is_final_state(state)) {
    state_->place = LogPlace::node_managers;
  } else if (aggregation == "DISABLED" ||
             (aggregation.empty() && !yarn::log_aggregation_enabled(state_->configuration))) {
    state_->place = LogPlace::not_kept;
  } else if (aggregation == "NOT_START" || aggregation == "RUNNING") {
    state_->place = LogPlace::aggregating;
  } else {
    state_->place = LogPlace::aggregated;
  }
  return *state_->place;
}

std::string ContainerLogs::place_sentence(LogPlace place) const {
  const auto& id = state_->application_id;
  switch (place) {
    case LogPlace::aggregating:
      return "the NodeManagers are still collecting the logs of " + id +
             " into the cluster's file system; try again in a moment, or add --follow to wait for them";
    case LogPlace::not_kept:
      return "this cluster keeps no logs after a job ends (yarn.log-aggregation-enable is off), so the logs of " + id +
             " went with its containers; ask the cluster's administrators to turn log aggregation on";
    case LogPlace::node_managers:
    case LogPlace::aggregated: break;
  }
  return {};
}

Result<std::vector<LogContainer>> ContainerLogs::master_containers() {
  auto answer = state_->rest.attempts(state_->application_id);
  if (!answer) return answer.error();
  std::vector<LogContainer> masters;
  const auto attempts = answer->value("appAttempts", nlohmann::json::object()).value("appAttempt", nlohmann::json());
  if (!attempts.is_array()) return masters;
  for (const auto& attempt : attempts) {
    if (!attempt.is_object()) continue;
    LogContainer master;
    master.task = "master attempt " + std::to_string(attempt.value("id", 0));
    master.container = attempt.value("containerId", "");
    master.node = attempt.value("nodeId", "");
    master.node_http_address = attempt.value("nodeHttpAddress", "");
    if (!master.container.empty()) masters.push_back(std::move(master));
  }
  return masters;
}

Result<std::vector<LogText>> ContainerLogs::read(const LogContainer& container, const std::vector<std::string>& files) {
  // Collecting logs ends by itself; asked again until it has.
  if (!state_->place || *state_->place == LogPlace::aggregating) {
    if (auto known = place(); !known) return known.error();
  }
  switch (*state_->place) {
    case LogPlace::node_managers: {
      auto from_node = state_->read_from_node(container, files);
      if (from_node || from_node.error().kind != Error::Kind::not_found) return from_node;
      // The application may have ended since: its logs are then collected.
      auto now = place();
      if (!now || *now == LogPlace::node_managers) return from_node;
      return read(container, files);
    }
    case LogPlace::aggregated: return state_->read_aggregated(container, files);
    case LogPlace::aggregating: {
      // Until they hand the files over, the NodeManagers still have them.
      if (auto from_node = state_->read_from_node(container, files)) return from_node;
      return make_error(place_sentence(*state_->place));
    }
    case LogPlace::not_kept: return make_error(place_sentence(*state_->place));
  }
  return make_error("no place holds the logs of " + state_->application_id);
}

Result<std::vector<LogText>> ContainerLogs::State::read_from_node(const LogContainer& container,
                                                                  const std::vector<std::string>& files) {
  if (container.node_http_address.empty()) {
    return make_error(container.task + " (" + container.container +
                      ") has no known node to ask for its logs; it may not have started yet");
  }
  std::vector<std::string> names = files;
  if (names.empty()) {
    auto listed = rest.container_log_files(container.node_http_address, container.container);
    if (!listed) return listed.error();
    names = std::move(*listed);
    std::sort(names.begin(), names.end());
  }
  std::vector<LogText> logs;
  for (const auto& name : names) {
    auto text = rest.container_log(container.node_http_address, container.container, name);
    if (!text) {
      Error error = text.error();
      error.message = container.task + " " + name + ": " + error.message;
      return error;
    }
    logs.push_back({name, std::move(*text), false});
  }
  return logs;
}

Result<void> ContainerLogs::State::find_node_files() {
  if (node_files) return {};
  if (!hdfs) return make_error("cannot read the aggregated logs of " + application_id + ": " + hdfs_problem);
  std::vector<yarn::HdfsFileStatus> found;
  for (const auto& directory : yarn::aggregated_log_directories(configuration, owner, application_id)) {
    const auto path = hdfs_path(directory.path);
    searched.push_back(path);
    auto exists = hdfs->exists(path);
    if (!exists)
      return make_error("cannot look for the aggregated logs of " + application_id + ": " + exists.error().message);
    if (!*exists) continue;
    auto listed = hdfs->list(path);
    if (!listed) return make_error("cannot list the aggregated logs in " + path + ": " + listed.error().message);
    for (auto& file : *listed) {
      if (file.directory || file.name.ends_with(".tmp") || file.name.ends_with("-checksum")) continue;
      file.name = path + "/" + file.name;
      found.push_back(std::move(file));
    }
  }
  node_files = std::move(found);
  return {};
}

Result<std::vector<LogText>> ContainerLogs::State::read_aggregated(const LogContainer& container,
                                                                   const std::vector<std::string>& files) {
  if (auto found = find_node_files(); !found) return found.error();
  if (node_files->empty()) {
    return make_error("no aggregated logs of " + application_id + " are kept in " + joined(searched) +
                      "; the NodeManagers may have failed to collect them (see their logs), or they were removed");
  }
  std::string node_file_name = container.node;
  std::replace(node_file_name.begin(), node_file_name.end(), ':', '_');
  yarn::AggregatedLogFilter filter;
  filter.containers = {container.container};
  filter.files = {files.begin(), files.end()};
  std::vector<LogText> logs;
  for (const auto& file : *node_files) {
    const auto base = file.name.substr(file.name.rfind('/') + 1);
    if (!node_file_name.empty() && !base.starts_with(node_file_name)) continue;
    auto& source = sources[file.name];
    if (!source) source = std::make_unique<HdfsByteSource>(*hdfs, file.name, static_cast<std::uint64_t>(file.length));
    auto read = yarn::read_aggregated_logs(*source, file.name, application_id, filter);
    if (!read) return read.error();
    for (auto& log : *read) logs.push_back({log.file, std::move(log.contents), true});
  }
  if (logs.empty() && files.empty()) {
    return make_error(container.task + " (" + container.container + ") left no logs in the aggregated logs of " +
                      application_id + (node_file_name.empty() ? "" : " from node " + container.node) +
                      "; it may never have started");
  }
  return logs;
}

}  // namespace spindle::client

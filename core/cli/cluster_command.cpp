#include "cli/cluster_command.h"

#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/exit_codes.h"
#include "spindle/client/json_shapes.h"
#include "spindle/yarn/application_client.h"

namespace spindle::cli {
namespace {

using json = nlohmann::ordered_json;
using client::node_json;
using client::queue_json;
using client::resources_json;
using yarn::ApplicationClient;

struct ClusterOptions {
  bool json = false;
};

std::string resources_text(const yarn::Resources& resources) {
  std::string text = std::to_string(resources.memory_mib) + " MiB, " + std::to_string(resources.vcores) + " vcores";
  for (const auto& [name, value] : resources.others) text += ", " + std::to_string(value) + " " + name;
  return text;
}

void print_json(const json& value) {
  std::cout << value.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

// Leaf queues by path, e.g. root.default, as users name them when submitting.
void collect_leaves(const yarn::QueueInfo& queue, const std::string& parent, std::vector<std::string>& leaves) {
  const std::string path = queue.path.empty() ? (parent.empty() ? queue.name : parent + "." + queue.name) : queue.path;
  if (queue.children.empty()) leaves.push_back(queue.name);
  for (const auto& child : queue.children) collect_leaves(child, path, leaves);
}

void print_queue_tree(const yarn::QueueInfo& queue, int depth) {
  std::ostringstream line;
  line << std::string(static_cast<std::size_t>(depth) * 2, ' ') << std::left << std::setw(20 - depth * 2) << queue.name
       << std::right << std::setw(8) << queue.state << std::setw(8) << std::fixed << std::setprecision(0)
       << queue.capacity * 100 << " %" << std::setw(7) << queue.maximum_capacity * 100 << " %" << std::setw(8)
       << std::setprecision(1) << queue.current_capacity * 100 << " %";
  std::string labels;
  for (const auto& label : queue.accessible_labels) labels += (labels.empty() ? "  labels: " : ",") + label;
  std::cout << line.str() << labels << '\n';
  for (const auto& child : queue.children) print_queue_tree(child, depth + 1);
}

int fail(const Error& error) {
  std::cerr << error.message << '\n';
  return exit_cluster_unreachable;
}

std::optional<ApplicationClient> connect(int& exit_code) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    exit_code = exit_bad_input;
    return std::nullopt;
  }
  return ApplicationClient(ApplicationClient::options_for(*configuration));
}

int run_info(ApplicationClient& client, const ClusterOptions& options) {
  auto metrics = client.cluster_metrics();
  if (!metrics) return fail(metrics.error());
  auto nodes = client.nodes();
  if (!nodes) return fail(nodes.error());
  auto root = client.queue("root", true);
  if (!root) return fail(root.error());
  auto labels = client.node_labels();
  if (!labels) return fail(labels.error());
  yarn::Resources total;
  yarn::Resources used;
  for (const auto& node : *nodes) {
    total.memory_mib += node.capability.memory_mib;
    total.vcores += node.capability.vcores;
    used.memory_mib += node.used.memory_mib;
    used.vcores += node.used.vcores;
    for (const auto& [name, value] : node.capability.others) total.others[name] += value;
    for (const auto& [name, value] : node.used.others) used.others[name] += value;
  }
  std::vector<std::string> leaves;
  collect_leaves(*root, "", leaves);
  if (options.json) {
    json label_list = json::array();
    for (const auto& label : *labels) label_list.push_back({{"name", label.name}, {"exclusive", label.exclusive}});
    print_json({{"node_managers",
                 {{"total", metrics->node_managers},
                  {"active", metrics->active},
                  {"lost", metrics->lost},
                  {"unhealthy", metrics->unhealthy},
                  {"decommissioned", metrics->decommissioned},
                  {"rebooted", metrics->rebooted}}},
                {"capacity", resources_json(total)},
                {"used", resources_json(used)},
                {"queues", leaves},
                {"node_labels", label_list}});
    return exit_done;
  }
  std::string label_text;
  for (const auto& label : *labels) {
    label_text += (label_text.empty() ? "" : ", ") + label.name + (label.exclusive ? " (exclusive)" : "");
  }
  std::string queue_text;
  for (const auto& leaf : leaves) queue_text += (queue_text.empty() ? "" : ", ") + leaf;
  std::cout << "NodeManagers  " << metrics->node_managers << " (" << metrics->active << " active, " << metrics->lost
            << " lost, " << metrics->unhealthy << " unhealthy, " << metrics->decommissioned << " decommissioned)\n"
            << "Capacity      " << resources_text(total) << '\n'
            << "In use        " << resources_text(used) << '\n'
            << "Queues        " << queue_text << '\n'
            << "Node labels   " << (label_text.empty() ? "none" : label_text) << '\n';
  return exit_done;
}

int run_nodes(ApplicationClient& client, const ClusterOptions& options) {
  auto nodes = client.nodes();
  if (!nodes) return fail(nodes.error());
  if (options.json) {
    json list = json::array();
    for (const auto& node : *nodes) list.push_back(node_json(node));
    print_json(list);
    return exit_done;
  }
  std::cout << std::left << std::setw(28) << "NODE" << std::setw(11) << "STATE" << std::setw(10) << "LABELS"
            << std::right << std::setw(10) << "CONTAINERS" << std::setw(20) << "MEMORY MiB" << std::setw(12) << "VCORES"
            << std::setw(8) << "GPUS" << '\n';
  for (const auto& node : *nodes) {
    std::string labels;
    for (const auto& label : node.labels) labels += (labels.empty() ? "" : ",") + label;
    auto gpus = [](const yarn::Resources& r) {
      auto found = r.others.find("yarn.io/gpu");
      return found == r.others.end() ? std::int64_t{0} : found->second;
    };
    std::cout << std::left << std::setw(28) << node.id << std::setw(11) << node.state << std::setw(10)
              << (labels.empty() ? "-" : labels) << std::right << std::setw(10) << node.containers << std::setw(20)
              << (std::to_string(node.used.memory_mib) + "/" + std::to_string(node.capability.memory_mib))
              << std::setw(12) << (std::to_string(node.used.vcores) + "/" + std::to_string(node.capability.vcores))
              << std::setw(8) << (std::to_string(gpus(node.used)) + "/" + std::to_string(gpus(node.capability)))
              << '\n';
  }
  return exit_done;
}

int run_queues(ApplicationClient& client, const ClusterOptions& options) {
  auto root = client.queue("root", true);
  if (!root) return fail(root.error());
  if (options.json) {
    print_json(queue_json(*root));
    return exit_done;
  }
  std::cout << std::left << std::setw(20) << "QUEUE" << std::right << std::setw(8) << "STATE" << std::setw(10)
            << "CAPACITY" << std::setw(9) << "MAXIMUM" << std::setw(10) << "USED" << '\n';
  print_queue_tree(*root, 0);
  return exit_done;
}

int run_labels(ApplicationClient& client, const ClusterOptions& options) {
  auto labels = client.node_labels();
  if (!labels) return fail(labels.error());
  auto nodes = client.nodes();
  if (!nodes) return fail(nodes.error());
  if (options.json) {
    json list = json::array();
    for (const auto& label : *labels) {
      json holders = json::array();
      for (const auto& node : *nodes) {
        if (std::find(node.labels.begin(), node.labels.end(), label.name) != node.labels.end())
          holders.push_back(node.id);
      }
      list.push_back({{"name", label.name}, {"exclusive", label.exclusive}, {"nodes", holders}});
    }
    print_json(list);
    return exit_done;
  }
  if (labels->empty()) std::cout << "The cluster has no node labels.\n";
  for (const auto& label : *labels) {
    std::string holders;
    for (const auto& node : *nodes) {
      if (std::find(node.labels.begin(), node.labels.end(), label.name) != node.labels.end()) {
        holders += (holders.empty() ? "" : ", ") + node.id;
      }
    }
    std::cout << label.name << (label.exclusive ? " (exclusive)" : " (shared)") << ": "
              << (holders.empty() ? "no node" : holders) << '\n';
  }
  return exit_done;
}

}  // namespace

void add_cluster_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ClusterOptions>();
  CLI::App* cluster = app.add_subcommand("cluster", "Ask the ResourceManager of $HADOOP_CONF_DIR about the cluster");
  cluster->require_subcommand(1);
  cluster->add_flag("--json", options->json, "Print JSON");
  using Runner = int (*)(ApplicationClient&, const ClusterOptions&);
  const std::pair<const char*, std::pair<const char*, Runner>> commands[] = {
      {"info", {"Node managers, capacity, queues and labels at a glance", run_info}},
      {"nodes", {"Every NodeManager with its state, labels and resources", run_nodes}},
      {"queues", {"The scheduler's queue tree", run_queues}},
      {"labels", {"Node labels and the nodes that carry them", run_labels}},
  };
  for (const auto& [name, entry] : commands) {
    CLI::App* command = cluster->add_subcommand(name, entry.first);
    command->add_flag("--json", options->json, "Print JSON");
    command->callback([options, &exit_code, run = entry.second] {
      auto client = connect(exit_code);
      if (client) exit_code = run(*client, *options);
    });
  }
}

}  // namespace spindle::cli

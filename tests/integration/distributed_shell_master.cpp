// A test application master built on Spindle's YARN clients, in the manner of
// Hadoop's distributed shell: each argument "LABEL|GPUS|COMMAND" asks for one
// container (LABEL "-" for none), runs COMMAND in it through its
// NodeManager, and reports every exit status in the final diagnostics. A
// COMMAND starting with "!" is stopped through its NodeManager once it runs.

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <map>
#include <thread>

#include "spindle/yarn/application_master_client.h"
#include "spindle/yarn/node_manager_client.h"

namespace {

using namespace spindle::yarn;

struct Task {
  std::string label;
  int gpus = 0;
  std::string command;
  std::string container;
  std::string node;
  std::optional<int> exit_status;
  bool stop_when_running = false;
  std::string stop_note;
};

int fail(const std::string& message) {
  std::cerr << "distributed shell master: " << message << '\n';
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Task> tasks;
  for (int i = 1; i < argc; ++i) {
    const std::string spec = argv[i];
    const auto first = spec.find('|');
    const auto second = spec.find('|', first + 1);
    if (first == std::string::npos || second == std::string::npos) return fail("bad task " + spec);
    Task task;
    task.label = spec.substr(0, first) == "-" ? "" : spec.substr(0, first);
    task.gpus = std::stoi(spec.substr(first + 1, second - first - 1));
    task.command = spec.substr(second + 1);
    if (task.command.starts_with('!')) {
      task.stop_when_running = true;
      task.command.erase(0, 1);
    }
    tasks.push_back(task);
  }
  auto configuration = HadoopConfiguration::from_environment();
  if (!configuration) return fail(configuration.error().message);
  auto master = ApplicationMasterClient::from_container(*configuration);
  if (!master) return fail(master.error().message);
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  auto registration = (*master)->register_master(host, 0, "");
  if (!registration) return fail(registration.error().message);
  std::cout << "registered in queue " << registration->queue << std::endl;

  std::vector<ContainerAsk> asks;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    ContainerAsk ask;
    ask.allocation_request_id = static_cast<std::int64_t>(i);
    ask.priority = static_cast<int>(i) + 1;
    ask.resources = Resources{128, 1, {}};
    if (tasks[i].gpus > 0) ask.resources.others["yarn.io/gpu"] = tasks[i].gpus;
    ask.node_label = tasks[i].label;
    ask.count = 1;
    asks.push_back(ask);
  }
  std::map<std::string, std::size_t> task_of_container;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  std::size_t finished = 0;
  bool first = true;
  while (finished < tasks.size() && std::chrono::steady_clock::now() < deadline) {
    std::vector<std::string> release;
    auto allocation = (*master)->allocate(first ? asks : std::vector<ContainerAsk>{}, {}, 0.5f);
    first = false;
    if (!allocation) return fail(allocation.error().message);
    for (const auto& container : allocation->allocated) {
      const auto index = static_cast<std::size_t>(container.allocation_request_id);
      if (index >= tasks.size() || !tasks[index].container.empty()) {
        release.push_back(container.id);
        continue;
      }
      auto token = (*master)->node_manager_token(container.node);
      if (!token) return fail("no NodeManager token for " + container.node);
      NodeManagerClient node(container.node, *token);
      LaunchContext context;
      context.commands = {tasks[index].command + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"};
      if (auto started = node.start(container, context); !started) return fail(started.error().message);
      tasks[index].container = container.id;
      tasks[index].node = container.node;
      task_of_container[container.id] = index;
      std::cout << "task " << index << " started in " << container.id << " on " << container.node << std::endl;
    }
    for (auto& task : tasks) {
      if (!task.stop_when_running || task.container.empty() || !task.stop_note.empty()) continue;
      NodeManagerClient node(task.node, *(*master)->node_manager_token(task.node));
      auto state = node.status(task.container);
      if (!state) return fail(state.error().message);
      if (state->state != "RUNNING") continue;
      if (auto stopped = node.stop(task.container); !stopped) return fail(stopped.error().message);
      task.stop_note = "stopped while " + state->state;
    }
    for (const auto& completed : allocation->completed) {
      auto found = task_of_container.find(completed.id);
      if (found == task_of_container.end() || tasks[found->second].exit_status) continue;
      tasks[found->second].exit_status = completed.exit_status;
      ++finished;
    }
    if (!release.empty()) (void)(*master)->allocate({}, release, 0.5f);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }

  std::string diagnostics;
  bool all_zero = finished == tasks.size();
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    diagnostics += "task " + std::to_string(i) + " on " + (tasks[i].node.empty() ? "-" : tasks[i].node) + " " +
                   (tasks[i].exit_status ? "exited " + std::to_string(*tasks[i].exit_status) : "did not finish") +
                   (tasks[i].stop_note.empty() ? "" : " (" + tasks[i].stop_note + ")") + "; ";
    all_zero = all_zero && tasks[i].exit_status == 0;
  }
  std::cout << diagnostics << std::endl;
  if (auto done = (*master)->finish(all_zero ? FinalStatus::succeeded : FinalStatus::failed, diagnostics, ""); !done) {
    return fail(done.error().message);
  }
  return 0;
}

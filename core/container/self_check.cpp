#include "container/self_check.h"

#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "spindle/core/host_names.h"
#include "spindle/core/job_api_client.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/program_output.h"
#include "spindle/core/task_process.h"
#include "spindle/core/version.h"

namespace spindle::container {
namespace {

constexpr auto longest_check = std::chrono::seconds(120);
const TaskId checked_task{"worker", 0};

void say(const std::string& line) {
  std::cout << "spindle-container self-check: " << line << std::endl;
}

JobSpec check_job() {
  JobSpec spec;
  spec.name = "self-check";
  TaskSpec worker;
  worker.type = "worker";
  worker.instances = 1;
  spec.tasks.push_back(worker);
  return spec;
}

// Registration goes straight to the rendezvous: there is no YARN container
// to check it against.
class CheckBackend final : public JobApiBackend {
 public:
  explicit CheckBackend(Rendezvous& rendezvous) : rendezvous_(rendezvous) {}

  Result<void> register_task(const TaskId& task, const HostPort& address, const std::string& container,
                             const Reattachment&) override {
    say(task.to_string() + " registered from " + address.to_string() + " (" + container + ")");
    return rendezvous_.register_task(task, address, container);
  }
  Result<void> heartbeat(const TaskId&, const TaskHeartbeat&) override { return {}; }
  Result<void> result(const TaskId& task, const TaskResult& result) override {
    std::lock_guard lock(mutex_);
    say(task.to_string() + " " + result.description);
    result_ = result;
    ended_.notify_all();
    return {};
  }
  JobStatus status(const TaskSelection&) override { return {}; }
  EventLog& events() override { return events_; }

  std::optional<TaskResult> wait_for_result(std::chrono::seconds most) {
    std::unique_lock lock(mutex_);
    ended_.wait_for(lock, most, [this] { return result_.has_value(); });
    return result_;
  }

 private:
  Rendezvous& rendezvous_;
  EventLog events_;
  std::mutex mutex_;
  std::condition_variable ended_;
  std::optional<TaskResult> result_;
};

}  // namespace

int run_self_check_master(const SelfCheckOptions& options) {
  auto addresses = resolve_host(options.listen_host, 0);
  if (!addresses) {
    std::cerr << "spindle-container self-check: " << addresses.error().message << "\n";
    return 1;
  }
  const std::string numeric = addresses->front().numeric();
  say(options.listen_host + " resolves to " + numeric);
  Rendezvous rendezvous(check_job());
  CheckBackend backend(rendezvous);
  JobApiOptions api;
  api.bind_address = numeric;
  api.secret = options.secret;
  auto server = JobApiServer::start(rendezvous, api, &backend);
  if (!server) {
    std::cerr << "spindle-container self-check: " << server.error().message << "\n";
    return 1;
  }
  say("job API at " + options.listen_host + ":" + std::to_string((*server)->port()));
  const auto result = backend.wait_for_result(longest_check);
  (*server)->stop();
  if (!result) {
    std::cerr << "spindle-container self-check: no task reported within " << longest_check.count() << " s\n";
    return 1;
  }
  return result->exit_code == 0 ? 0 : 1;
}

int run_self_check_task(const SelfCheckOptions& options) {
  auto fail = [](const std::string& why) {
    std::cerr << "spindle-container self-check: " << why << "\n";
    return 1;
  };
  auto api = parse_host_port(options.api_address);
  if (!api) return fail(api.error().message);
  std::string own_host = options.own_host;
  if (own_host.empty()) {
    char name[256] = {};
    ::gethostname(name, sizeof(name) - 1);
    own_host = name;
  }
  auto reservation = PortReservation::reserve();
  if (!reservation) return fail(reservation.error().message);
  const HostPort address{own_host, reservation->port()};
  JobApiClient client(api->host, api->port, options.secret, std::chrono::seconds(10));
  const auto give_up = std::chrono::steady_clock::now() + longest_check;
  while (true) {
    auto registered = client.register_task(checked_task, address, "self-check");
    if (registered) break;
    if (std::chrono::steady_clock::now() > give_up) return fail(registered.error().message);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  say("registered at " + address.to_string() + " with the job API at " + api->to_string());
  auto cluster = client.cluster_after(0, std::chrono::seconds(30));
  if (!cluster) return fail(cluster.error().message);
  if (!*cluster) return fail("the job API published no cluster within 30 s");
  say("cluster spec version " + std::to_string((*cluster)->version) + ": " + (*cluster)->cluster_json);
  TaskResult result;
  result.container = "self-check";
  auto ran = program_output("/proc/self/exe", {"--version"}, std::chrono::seconds(30));
  if (ran) *ran = ran->substr(0, ran->find('\n'));
  result.exit_code = ran ? 0 : 1;
  result.description = ran ? "ran a program, which printed \"" + *ran + "\"" : ran.error().message;
  if (auto reported = client.report_result(checked_task, result); !reported) return fail(reported.error().message);
  say(result.description);
  return result.exit_code;
}

}  // namespace spindle::container

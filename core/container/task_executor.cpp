#include "container/task_executor.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <iostream>
#include <thread>

#include "container/container_context.h"
#include "container/hdfs_access.h"
#include "container/job_file.h"
#include "container/master_link.h"
#include "container/output_mirror.h"
#include "container/python_env_setup.h"
#include "container/python_hook.h"
#include "container/token_file.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/environment.h"
#include "spindle/core/job_api_client.h"
#include "spindle/core/job_certificate.h"
#include "spindle/core/shell_quote.h"
#include "spindle/core/task_process.h"
#include "spindle/core/task_writes.h"
#include "spindle/core/tls_front.h"
#include "spindle/yarn/credentials.h"
#include "spindle/yarn/token_service.h"

namespace spindle::container {
namespace {

constexpr auto heartbeat_interval = std::chrono::seconds(5);
constexpr std::size_t stderr_tail_bytes = 2048;
constexpr const char* cluster_file = "spindle-cluster.json";

void log(const std::string& line) {
  std::cerr << "spindle executor: " << line << std::endl;
}

// The executor's own environment (PATH, HOME, HADOOP_CONF_DIR and what else
// YARN set), overlaid with the task's.
std::map<std::string, std::string> command_environment(const Environment& task) {
  Environment merged = inherited_environment();
  for (const auto& [name, value] : task) merged[name] = value;
  return merged;
}

// Our own TensorBoard, as opposed to a command the spec gives the task.
bool runs_our_tensorboard(const JobSpec& spec, const TaskId& task) {
  return task.type == task_types::tensorboard && spec.find_task(task.type)->command.empty();
}

// `loopback_only`: TensorBoard listens on 127.0.0.1 alone, behind the executor's TLS.
// `output`: the job's output as this task reads it (its own directory when the output is in HDFS).
std::string command_of(const JobSpec& spec, const TaskId& task, const std::string& output, std::uint16_t port,
                       bool loopback_only) {
  const TaskSpec* type = spec.find_task(task.type);
  if (!type->command.empty()) return type->command;
  if (task.type == task_types::tensorboard) {
    // The real TensorBoard over the job's output, on the task's reserved port.
    return "exec tensorboard --logdir " + shell_quote(output) + " --port " + std::to_string(port) +
           (loopback_only ? " --host 127.0.0.1" : " --bind_all");
  }
  return "";
}

// On an encrypted cluster (the job's API speaks TLS) our TensorBoard serves
// the loopback only, and the task's advertised port serves TLS in front of
// it with a certificate made here, whose pin the master passes on to the
// proxy through the heartbeats.
struct TensorBoardBehindTls {
  PortReservation loopback;
  std::unique_ptr<TlsFront> front;
  std::string certificate_sha256;
};

Result<TensorBoardBehindTls> serve_tensorboard_behind_tls(const ContainerContext& context, const TaskId& task,
                                                          std::uint16_t public_port) {
  auto loopback = PortReservation::reserve();
  if (!loopback) return loopback.error();
  auto certificate = make_task_certificate(context.application_id, task.to_string());
  if (!certificate) return certificate.error();
  auto front = TlsFront::start(public_port, loopback->port(), certificate->certificate_pem, certificate->key_pem);
  if (!front) return front.error();
  return TensorBoardBehindTls{std::move(*loopback), std::move(*front), certificate->sha256};
}

// Written where the command can read it: the newest cluster, for tasks that
// follow restarts of their peers.
void write_cluster_file(const PublishedCluster& cluster) {
  const std::string temporary = std::string(cluster_file) + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << "{\"version\":" << cluster.version << ",\"cluster\":" << cluster.cluster_json << "}\n";
  }
  std::rename(temporary.c_str(), cluster_file);
}

std::string stderr_file() {
  const char* directories = std::getenv("LOG_DIRS");
  if (!directories || !*directories) return "";
  const std::string first(directories, std::strcspn(directories, ","));
  return first + "/stderr";
}

}  // namespace

int run_task_executor(const ExecutorOptions& options) {
  // Before anything that could be interrupted: a stop from YARN must reach the command.
  auto forwarder = SignalForwarder::install();
  if (!forwarder) {
    log(forwarder.error().message);
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);
  auto context = read_container_context();
  auto spec = context ? read_job_spec(*context) : Result<JobSpec>(context.error());
  auto task = parse_task_id(options.task);
  auto api = parse_host_port(options.api_address);
  if (!context || !spec || !task || !api) {
    log(!context ? context.error().message
        : !spec  ? spec.error().message
        : !task  ? task.error().message
                 : api.error().message);
    return 2;
  }
  if (!spec->find_task(task->type) || task->index >= spec->find_task(task->type)->instances) {
    log(task->to_string() + " is not a task of this job");
    return 2;
  }
  auto reservation = PortReservation::reserve();
  if (!reservation) {
    log(reservation.error().message);
    return 2;
  }
  const HostPort address{context->host, reservation->port()};
  // The RM token in the container's token file, which the master may have replaced since.
  auto token_file = std::make_shared<TokenFile>(context->token_file);
  auto resource_manager_token = [token_file, started = context->delegation_tokens]() {
    return container::resource_manager_token(*token_file, started);
  };
  MasterLink link(*api, context->secret, context->api_pin, context->application_id, context->user,
                  std::move(resource_manager_token));
  // What a later application master attempt is told when this task reattaches.
  Reattachment standing;
  standing.present = true;
  standing.restarts = std::clamp(options.restarts, 0, options.attempt);
  standing.lost = options.attempt - standing.restarts;

  // The application master may still be starting its API when the first
  // executor comes up on a fast node: retry for a while.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (true) {
    auto registered = link.client().register_task(*task, address, context->container_id);
    if (registered) break;
    if (registered.error().kind == Error::Kind::refused || std::chrono::steady_clock::now() > give_up) {
      log(registered.error().message);
      return 2;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  log(task->to_string() + " registered at " + address.to_string() + "; waiting for the cluster");

  std::optional<PublishedCluster> cluster;
  while (!cluster) {
    for (int signal : (*forwarder)->take()) {
      log("stopped by signal " + std::to_string(signal) + " before the cluster was complete");
      return 128 + signal;
    }
    auto answer = link.client().cluster_after(0, std::chrono::seconds(5));
    if (!answer) {
      log(answer.error().message);
      link.follow(*task, address, context->container_id, standing);
      std::this_thread::sleep_for(std::chrono::seconds(1));
      continue;
    }
    link.answered();
    cluster = std::move(*answer);
  }
  if (!cluster->ending.empty()) {
    log("the job ended before " + task->to_string() + "'s command started (" + cluster->ending + ")");
    return 0;
  }
  auto addresses = ClusterAddresses::create(*spec, cluster->addresses);
  if (!addresses) {
    log("the cluster from the application master is incomplete: " + addresses.error().message);
    return 2;
  }
  write_cluster_file(*cluster);
  log("cluster spec version " + std::to_string(cluster->version) + " received");

  // The master may be between attempts: keep trying, following it, for as
  // long as a new attempt takes to start and be reached.
  std::atomic<std::uint64_t> seen_version = cluster->version;
  auto report = [&](const TaskResult& result) {
    standing.cluster_version = seen_version;
    standing.command_ended = true;
    const auto report_until = std::chrono::steady_clock::now() + std::chrono::minutes(3);
    while (true) {
      auto reported = link.client().report_result(*task, result);
      if (reported) break;
      log(reported.error().message);
      if (link.application_ended() || std::chrono::steady_clock::now() > report_until) break;
      link.follow(*task, address, context->container_id, standing);
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return result.exit_code;
  };
  auto could_not_start = [&](const std::string& problem) {
    log(problem);
    TaskResult result;
    result.container = context->container_id;
    result.exit_code = 127;
    result.description = "could not start: " + problem;
    return report(result);
  };

  std::optional<TensorBoardBehindTls> behind_tls;
  if (runs_our_tensorboard(*spec, *task) && !context->api_pin.empty()) {
    auto served = serve_tensorboard_behind_tls(*context, *task, reservation->port());
    if (!served) return could_not_start("cannot serve TensorBoard behind TLS: " + served.error().message);
    behind_tls = std::move(*served);
    log("TensorBoard is served behind TLS on port " + std::to_string(reservation->port()) + ", certificate sha256 " +
        behind_tls->certificate_sha256);
  }
  // An output in HDFS: the task writes a directory of its own node, which
  // starts as what HDFS holds and is kept in HDFS from then on.
  TaskContext task_context{context->application_id, *task, options.attempt};
  if (is_hdfs_location(spec->input)) {
    std::error_code ec;
    task_context.input_directory = (std::filesystem::current_path(ec) / task_context.input_directory).string();
  }
  // What the command used so far (nothing before it starts), and the pin a TensorBoard behind
  // TLS is reached by.
  // Where the command writes the job's output, once it runs: what it wrote is looked at every
  // heartbeat only when the master looks for stalls.
  std::filesystem::path watched_output;
  const auto send_heartbeat = [&](const ProcessUsage& usage) -> Result<void> {
    TaskHeartbeat heartbeat;
    heartbeat.container = context->container_id;
    heartbeat.rss_bytes = usage.resident_bytes;
    heartbeat.cpu_seconds = usage.cpu_seconds;
    heartbeat.processes = usage.processes;
    if (spec->stall_timeout.count() > 0) {
      const auto writes = task_writes(watched_output);
      heartbeat.log_bytes = writes.log_bytes;
      heartbeat.output_fingerprint = writes.output_fingerprint;
    }
    heartbeat.cluster_version = seen_version;
    if (behind_tls) heartbeat.certificate_sha256 = behind_tls->certificate_sha256;
    auto sent = link.client().heartbeat(*task, heartbeat);
    if (!sent) return sent.error();
    link.answered();
    return {};
  };
  std::unique_ptr<OutputMirror> mirror;
  if (is_hdfs_location(spec->output)) {
    std::error_code ec;
    task_context.output_directory = (std::filesystem::current_path(ec) / task_context.output_directory).string();
    auto hdfs = container_hdfs(*context);
    if (!hdfs) return could_not_start("cannot reach the job's output " + spec->output + ": " + hdfs.error().message);
    OutputMirror::Options mirrored;
    mirrored.local = task_context.output_directory;
    mirrored.remote = hdfs_path_of(spec->output);
    mirrored.writer = task->type + "-" + std::to_string(task->index);
    mirrored.log = log;
    // Copying a big checkpoint in takes a while; heartbeats go on meanwhile, or the master would
    // take the task for lost.
    auto starting = std::async(std::launch::async, [&] { return OutputMirror::start(std::move(*hdfs), mirrored); });
    while (starting.wait_for(heartbeat_interval) != std::future_status::ready) {
      if (auto sent = send_heartbeat({}); !sent) log(sent.error().message);
    }
    auto started = starting.get();
    if (!started) return could_not_start("the job's output " + spec->output + ": " + started.error().message);
    mirror = std::move(*started);
    const auto restored = mirror->totals();
    log("output " + spec->output + " is kept from " + task_context.output_directory + "; " +
        std::to_string(restored.files_in) + " files (" + std::to_string(restored.bytes_in) +
        " bytes) were copied in first");
  }
  const std::string output = is_hdfs_location(spec->output) ? task_context.output_directory : spec->output;
  watched_output = output;
  TaskProcessOptions process;
  process.command = behind_tls ? command_of(*spec, *task, output, behind_tls->loopback.port(), true)
                               : command_of(*spec, *task, output, reservation->port(), false);
  if (const int processes = spec->find_task(task->type)->processes; processes > 1) {
    // This binary starts and watches the copies, each with its own rank.
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) {
      return could_not_start("cannot start " + std::to_string(processes) +
                             " processes: this program's own path (/proc/self/exe) is unreadable: " + ec.message());
    }
    process.command = "exec " + shell_quote(self.string()) + " fan-out " + std::to_string(processes) + " " +
                      shell_quote(process.command);
  }
  process.environment = command_environment(task_environment(*spec, *addresses, task_context));
  // The port the cluster spec gives this task, for a command that serves on it itself (a TensorBoard
  // of the job's own command line). Behind our TLS front the port is the front's, and not the command's.
  if (!behind_tls) process.environment["SPINDLE_PORT"] = std::to_string(reservation->port());
  if (!spec->python_env.empty()) {
    std::error_code ec;
    if (auto used =
            use_python_env(spec->python_env, std::filesystem::current_path(ec), context->host, process.environment);
        !used) {
      return could_not_start(used.error().message);
    }
  }
  {
    std::error_code ec;
    // Not a reason to stop: only a job that names hdfs:// in its own code needs it, and it will say so.
    if (auto hooked = install_python_hook(std::filesystem::current_path(ec) / "spindle-python", process.environment);
        !hooked) {
      log("hdfs:// in TensorFlow is not available to this task: " + hooked.error().message);
    }
  }
  auto running = TaskProcess::start(process);
  if (!running) {
    log(running.error().message);
    return 2;
  }
  (*forwarder)->forward_to(running->process_group());
  for (int signal : (*forwarder)->take()) (void)running->signal(signal);

  // Follows newer cluster versions (a peer restarted elsewhere) on its own
  // connection, to wherever the master is now.
  std::thread([&link, secret = context->secret, pin = context->api_pin, &seen_version] {
    std::uint64_t generation = link.generation();
    auto watcher = job_api_client(link.api(), secret, pin);
    while (true) {
      if (link.generation() != generation) {
        generation = link.generation();
        watcher = job_api_client(link.api(), secret, pin);
      }
      auto answer = watcher->cluster_after(seen_version, std::chrono::seconds(30));
      if (!answer) {
        std::this_thread::sleep_for(std::chrono::seconds(2));
        continue;
      }
      if (!*answer) continue;
      if (!(*answer)->ending.empty()) {
        // Stopped through the same path as YARN's SIGTERM, but with the time
        // to copy the output that the NodeManager's SIGKILL would not leave.
        log("the job is ending (" + (*answer)->ending + "); stopping the command so that its output is copied");
        ::kill(::getpid(), SIGTERM);
        return;
      }
      write_cluster_file(**answer);
      seen_version = (*answer)->version;
      log("cluster spec version " + std::to_string((*answer)->version) + " received");
    }
  }).detach();

  // A job whose master renews its tokens: each new set goes into this
  // container's token file, where the task's HDFS clients (the bridge, the
  // output mirror) take it from without a restart.
  if (const char* refresh = std::getenv(container_contract::token_refresh_variable); refresh && *refresh) {
    std::thread([&link, secret = context->secret, pin = context->api_pin, token_file = context->token_file] {
      std::uint64_t generation = link.generation();
      std::uint64_t held = 0;
      auto watcher = job_api_client(link.api(), secret, pin);
      while (true) {
        if (link.generation() != generation) {
          generation = link.generation();
          watcher = job_api_client(link.api(), secret, pin);
        }
        auto answer = watcher->tokens_after(held, std::chrono::seconds(30));
        if (!answer) {
          std::this_thread::sleep_for(std::chrono::seconds(2));
          continue;
        }
        if (!*answer) continue;
        auto credentials = yarn::Credentials::parse((*answer)->second, "the job API's tokens");
        if (!credentials) {
          log(credentials.error().message);
          std::this_thread::sleep_for(std::chrono::seconds(2));
          continue;
        }
        if (auto replaced = TokenFile::replace_tokens(token_file, credentials->tokens); !replaced) {
          log("new tokens not kept: " + replaced.error().message);
          std::this_thread::sleep_for(std::chrono::seconds(2));
          continue;
        }
        held = (*answer)->first;
        log("new delegation tokens (generation " + std::to_string(held) + ") in the container's token file");
      }
    }).detach();
  }

  const auto note_signals = [&] {
    for (int signal : (*forwarder)->take()) {
      log("forwarded signal " + std::to_string(signal) + " to the command");
      // Stopped: what YARN deletes of the container's directory next is no deletion of the task's.
      if (mirror) mirror->keep_remote_files();
    }
  };
  // Behind TLS the first heartbeat carries the pin the proxy waits for.
  auto next_heartbeat =
      std::chrono::steady_clock::now() + (behind_tls ? std::chrono::seconds(0) : std::chrono::seconds(1));
  std::optional<ExitStatus> status;
  while (!(status = running->poll())) {
    const auto wait = std::max<std::chrono::milliseconds>(
        std::chrono::milliseconds(0),
        std::chrono::duration_cast<std::chrono::milliseconds>(next_heartbeat - std::chrono::steady_clock::now()));
    pollfd watched[] = {{running->completion_fd(), POLLIN, 0}, {(*forwarder)->fd(), POLLIN, 0}};
    ::poll(watched, 2, static_cast<int>(wait.count()));
    note_signals();
    if (std::chrono::steady_clock::now() >= next_heartbeat) {
      if (auto sent = send_heartbeat(running->usage()); !sent) {
        log(sent.error().message);
        standing.cluster_version = seen_version;
        if (link.follow(*task, address, context->container_id, standing))
          next_heartbeat = std::chrono::steady_clock::now();
      }
      next_heartbeat = std::chrono::steady_clock::now() + heartbeat_interval;
    }
  }
  note_signals();
  (*forwarder)->forward_to(0);
  TaskResult result;
  result.container = context->container_id;
  result.exit_code = status->shell_code();
  result.description = status->describe();
  if (!status->success()) result.stderr_tail = tail_of_file(stderr_file(), stderr_tail_bytes);
  // Its exit is reported once everything it wrote is in HDFS.
  if (mirror) {
    auto copied = mirror->finish();
    const auto totals = mirror->totals();
    log("output: " + std::to_string(totals.files_out) + " files (" + std::to_string(totals.bytes_out) +
        " bytes) copied to HDFS, " + std::to_string(totals.removed) + " removed there");
    if (!copied) {
      log(copied.error().message);
      result.description += ", but " + copied.error().message;
      if (result.exit_code == 0) result.exit_code = 1;
    }
  }
  log(task->to_string() + " " + result.description);
  return report(result);
}

}  // namespace spindle::container

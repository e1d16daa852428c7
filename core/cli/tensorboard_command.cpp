#include "cli/tensorboard_command.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <map>
#include <memory>
#include <mutex>

#include "cli/exit_codes.h"
#include "spindle/client/job_connection.h"
#include "spindle/client/job_records.h"
#include "spindle/core/cluster_spec.h"
#include "spindle/tbproxy/proxy_server.h"

namespace spindle::cli {
namespace {

using tbproxy::UpstreamLookup;
using tbproxy::UpstreamState;
using tbproxy::UpstreamUnavailable;

struct TensorBoardOptions {
  std::string application;
  std::uint16_t port = 0;
  std::string bind = "127.0.0.1";
};

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The job's TensorBoard as its application master reports it.
UpstreamLookup find_tensorboard(client::JobConnection& job) {
  const auto& id = job.application_id();
  auto report = job.report();
  if (!report) {
    return UpstreamUnavailable{UpstreamState::unreachable,
                               "The ResourceManager did not say where " + id + " runs: " + report.error().message};
  }
  if (report->finished()) {
    return UpstreamUnavailable{UpstreamState::ended, "The job " + id + " has ended (" + lower(report->final_status) +
                                                         "), and its TensorBoard with it."};
  }
  const auto status = job.live_status();
  if (!status) {
    return UpstreamUnavailable{UpstreamState::starting,
                               "The job " + id + " is " + lower(report->state) + " and its TensorBoard is not up yet."};
  }
  if (status->state != "running") {
    return UpstreamUnavailable{UpstreamState::ended,
                               "The job " + id + " has " + status->state + ", and its TensorBoard with it."};
  }
  for (const auto& task : status->tasks) {
    if (task.task != "tensorboard:0") continue;
    if (task.phase == "failed" || task.phase == "stopped" || task.phase == "succeeded") {
      return UpstreamUnavailable{UpstreamState::unreachable, "TensorBoard of " + id + " has " + task.phase + "."};
    }
    if (task.address.empty()) {
      return UpstreamUnavailable{UpstreamState::starting, "TensorBoard of " + id + " is " + task.phase + "."};
    }
    auto address = parse_host_port(task.address);
    if (!address) return UpstreamUnavailable{UpstreamState::unreachable, address.error().message};
    return tbproxy::UpstreamAddress{address->host, address->port};
  }
  return UpstreamUnavailable{UpstreamState::unknown,
                             "The job " + id + " has no TensorBoard; add a tensorboard task to its spec."};
}

// Only the jobs this machine submitted, whose records it holds, are served:
// the proxy never reaches anything the user could not reach with spindle.
tbproxy::UpstreamResolver submitted_jobs_tensorboards(yarn::HadoopConfiguration configuration) {
  struct Jobs {
    std::mutex mutex;
    yarn::HadoopConfiguration configuration;
    std::map<std::string, client::JobConnection> connections;
  };
  auto jobs = std::make_shared<Jobs>();
  jobs->configuration = std::move(configuration);
  return [jobs](const std::string& application_id) -> UpstreamLookup {
    if (!client::JobRecords().load(application_id)) {
      return UpstreamUnavailable{UpstreamState::unknown,
                                 "No job " + application_id + " was submitted from this machine."};
    }
    std::lock_guard lock(jobs->mutex);
    auto found = jobs->connections.find(application_id);
    if (found == jobs->connections.end()) {
      auto opened = client::JobConnection::open(jobs->configuration, application_id);
      if (!opened) return UpstreamUnavailable{UpstreamState::unreachable, opened.error().message};
      found = jobs->connections.emplace(application_id, std::move(*opened)).first;
    }
    return find_tensorboard(found->second);
  };
}

std::string url_host(const std::string& bind) {
  if (bind == "0.0.0.0" || bind == "::") {
    char name[256] = {};
    if (gethostname(name, sizeof(name) - 1) == 0 && name[0]) return name;
  }
  return bind.find(':') != std::string::npos ? "[" + bind + "]" : bind;
}

int run_tensorboard(const TensorBoardOptions& options) {
  auto id = yarn::ApplicationId::parse(options.application);
  if (!id) {
    std::cerr << id.error().message << '\n';
    return exit_bad_input;
  }
  const auto application = id->to_string();
  if (auto record = client::JobRecords().load(application); !record) {
    std::cerr << record.error().message << '\n';
    return exit_bad_input;
  }
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    return exit_bad_input;
  }
  tbproxy::ProxyOptions proxy;
  proxy.bind_address = options.bind;
  proxy.port = options.port;
  proxy.threads = 2;
  if (!tbproxy::is_loopback_address(options.bind)) {
    auto token = tbproxy::make_access_token();
    if (!token) {
      std::cerr << token.error().message << '\n';
      return exit_bad_input;
    }
    proxy.access_token = std::move(*token);
  }
  // Blocked before the proxy's threads start, so only sigwait below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  auto server = tbproxy::ProxyServer::start(proxy, submitted_jobs_tensorboards(std::move(*configuration)));
  if (!server) {
    std::cerr << server.error().message << '\n';
    return exit_bad_input;
  }
  std::string url =
      "http://" + url_host(options.bind) + ":" + std::to_string((*server)->port()) + "/tb/" + application + "/";
  if (!proxy.access_token.empty()) url += "?token=" + proxy.access_token;
  std::cout << url << '\n';
  std::cout << "TensorBoard of " << application << " is served there until Ctrl-C." << std::endl;
  int received = 0;
  sigwait(&stop_signals, &received);
  (*server)->stop();
  return exit_done;
}

}  // namespace

void add_tensorboard_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<TensorBoardOptions>();
  CLI::App* command = app.add_subcommand("tensorboard", "Serve a job's TensorBoard on this machine");
  command->add_option("application", options->application, "Application id")->required();
  command->add_option("--port", options->port, "Port to listen on (default: any free one)");
  command->add_option("--bind", options->bind,
                      "Address to listen on (default 127.0.0.1); any other needs the token the URL carries");
  command->callback([options, &exit_code] { exit_code = run_tensorboard(*options); });
}

}  // namespace spindle::cli

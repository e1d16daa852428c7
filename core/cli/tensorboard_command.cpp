#include "cli/tensorboard_command.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli/exit_codes.h"
#include "spindle/client/history_store.h"
#include "spindle/client/job_connection.h"
#include "spindle/client/job_records.h"
#include "spindle/client/tensorboard_lookup.h"
#include "spindle/tbproxy/proxy_server.h"

namespace spindle::cli {
namespace {

struct TensorBoardOptions {
  std::string application;
  std::uint16_t port = 0;
  std::string bind = "127.0.0.1";
};

std::string url_host(const std::string& bind) {
  if (bind == "0.0.0.0" || bind == "::") {
    char name[256] = {};
    if (gethostname(name, sizeof(name) - 1) == 0 && name[0]) return name;
  }
  return bind.find(':') != std::string::npos ? "[" + bind + "]" : bind;
}

// Whether the job's spec, as the history kept it at submit, asks for a
// TensorBoard; unknown (nullopt) when the history holds no spec of it.
std::optional<bool> spec_has_tensorboard(const std::string& application_id) {
  auto history = client::HistoryStore::open();
  if (!history) return std::nullopt;
  auto entry = history->job(application_id);
  if (!entry || !*entry) return std::nullopt;
  return (*entry)->has_task_type("tensorboard");
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
  if (spec_has_tensorboard(application) == false) {
    std::cerr << "the job " << application
              << " has no TensorBoard: its spec has no tensorboard task; add one under tasks (for example "
                 "\"tensorboard: {memory: 1 GiB, vcores: 1}\") and submit the job again\n";
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
  auto server = tbproxy::ProxyServer::start(
      proxy, client::submitted_jobs_tensorboards([configuration = std::move(*configuration)]() {
        return Result<yarn::HadoopConfiguration>(configuration);
      }));
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

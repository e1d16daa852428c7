#include "cli/serve_command.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/exit_codes.h"
#include "spindle/serve/dashboard.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::cli {
namespace {

struct ServeOptions {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 0;
  bool token_from_environment = false;
};

// Every browser holds a long poll open, so the soft limit of open files
// (often 1,024) is raised to the hard one.
void allow_many_connections() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &files);
  }
}

int run_serve(const ServeOptions& options) {
  allow_many_connections();
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    return exit_bad_input;
  }
  serve::DashboardOptions dashboard;
  dashboard.bind_address = options.bind;
  dashboard.port = options.port;
  if (options.token_from_environment) {
    const char* token = std::getenv("SPINDLE_SERVE_TOKEN");
    if (!token || std::string_view(token).size() < 32) {
      std::cerr << "--token-from-env needs SPINDLE_SERVE_TOKEN set to a token of at least 32 characters\n";
      return exit_bad_input;
    }
    dashboard.access_token = token;
  }
  // Blocked before the server's threads start, so only sigwait below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  auto access = serve::yarn_cluster_access(
      [configuration = std::move(*configuration)]() { return Result<yarn::HadoopConfiguration>(configuration); });
  auto server = serve::Dashboard::start(dashboard, access);
  if (!server) {
    std::cerr << server.error().message << '\n';
    return exit_bad_input;
  }
  const auto host = options.bind.find(':') != std::string::npos ? "[" + options.bind + "]" : options.bind;
  const auto port = std::to_string((*server)->port());
  std::cout << "http://" << host << ":" << port << "/?token=" << (*server)->access_token() << '\n';
  std::cout << "The Spindle dashboard is served there until Ctrl-C. From another machine: ssh -L " << port
            << ":127.0.0.1:" << port << " this-host, then open the same address there." << std::endl;
  int received = 0;
  sigwait(&stop_signals, &received);
  (*server)->stop();
  return exit_done;
}

}  // namespace

void add_serve_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* command = app.add_subcommand(
      "serve", "The dashboard in a browser, and its JSON API, for the cluster of HADOOP_CONF_DIR (prints its URL)");
  command->add_option("--port", options->port, "Port to listen on (default: any free one)");
  command->add_option("--bind", options->bind, "Address to listen on: a loopback address (default 127.0.0.1)");
  command->add_flag("--token-from-env", options->token_from_environment,
                    "Take the access token from SPINDLE_SERVE_TOKEN instead of making one");
  command->callback([options, &exit_code] { exit_code = run_serve(*options); });
}

}  // namespace spindle::cli

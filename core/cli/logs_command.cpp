#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/exit_codes.h"
#include "cli/job_commands.h"
#include "cli/job_follow.h"
#include "spindle/client/job_connection.h"
#include "spindle/yarn/resource_manager_rest.h"

namespace spindle::cli {
namespace {

struct LogsOptions {
  std::string application;
  std::string task;
  bool follow = false;
};

int run_logs(const LogsOptions& options) {
  int failed = exit_done;
  auto opened = open_job(options.application, failed);
  if (!opened) return failed;
  auto& job = opened->job;
  if (auto report = job.report(); !report) {
    std::cerr << report.error().message << '\n';
    return exit_cluster_unreachable;
  }
  auto rest = yarn::ResourceManagerRest::from_configuration(opened->configuration);
  std::map<std::string, std::size_t> printed;  // bytes of each file already shown
  while (true) {
    const auto status = job.last_status();
    if (!status) {
      std::cerr << "no task of " << options.application
                << " is known here: the job's application master is not running and this machine kept no status "
                   "of it\n";
      return exit_bad_input;
    }
    bool found = false;
    for (const auto& task : status->tasks) {
      if (!options.task.empty() && task.task != options.task) continue;
      found = true;
      if (task.container.empty() || task.node_http_address.empty()) continue;
      for (const char* file : {"stdout", "stderr"}) {
        auto text = rest.container_log(task.node_http_address, task.container, file);
        if (!text) continue;
        const auto key = task.container + "/" + file;
        auto& shown = printed[key];
        if (text->size() <= shown) continue;
        if (!options.follow || shown == 0) std::cout << "==> " << task.task << " " << file << " <==\n";
        std::cout << text->substr(shown);
        shown = text->size();
      }
    }
    if (!found) {
      std::cerr << "\"" << options.task << "\" is not a task of " << options.application
                << "; tasks are named type:index, e.g. worker:0\n";
      return exit_bad_input;
    }
    std::cout.flush();
    if (!options.follow) return exit_done;
    auto report = job.report();
    if (report && report->finished()) return exit_done;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

}  // namespace

void add_logs_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<LogsOptions>();
  CLI::App* command = app.add_subcommand("logs", "A task's stdout and stderr (every task's without TASK)");
  command->add_option("application", options->application, "Application id")->required();
  command->add_option("task", options->task, "Task, e.g. worker:0");
  command->add_flag("-f,--follow", options->follow, "Keep printing until the job ends");
  command->callback([options, &exit_code] { exit_code = run_logs(*options); });
}

}  // namespace spindle::cli

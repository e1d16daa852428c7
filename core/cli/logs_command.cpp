#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <thread>

#include "cli/exit_codes.h"
#include "cli/job_commands.h"
#include "cli/job_follow.h"
#include "spindle/client/container_logs.h"
#include "spindle/client/job_connection.h"

namespace spindle::cli {
namespace {

struct LogsOptions {
  std::string application;
  std::string task;
  std::vector<std::string> files;
  bool all_files = false;
  bool follow = false;
};

// The containers a task ran in, earlier ones (restarts) first.
std::vector<client::LogContainer> containers_of(const TaskStatus& task) {
  std::vector<client::LogContainer> containers;
  int attempt = 0;
  for (const auto& earlier : task.earlier_attempts) {
    containers.push_back(
        {task.task + " (attempt " + std::to_string(attempt++) + ")", earlier.container, earlier.node, ""});
  }
  if (!task.container.empty()) {
    containers.push_back(
        {task.earlier_attempts.empty() ? task.task : task.task + " (attempt " + std::to_string(attempt) + ")",
         task.container, task.node, task.node_http_address});
  }
  return containers;
}

class LogPrinter {
 public:
  explicit LogPrinter(const LogsOptions& options) : options_(options) {}

  // One pass over the containers: what is new in each file is printed.
  // Answers false when something could not be read, which the last pass
  // says on stderr (passes before it, while following, just try again).
  bool print(client::ContainerLogs& logs, const std::vector<client::LogContainer>& containers, bool last_pass) {
    bool complete = true;
    const bool bare = containers.size() == 1 && options_.files.size() == 1 && !options_.follow;
    for (const auto& container : containers) {
      std::vector<std::string> files = options_.files;
      if (files.empty() && !options_.all_files) files = {"stdout", "stderr"};
      auto read = logs.read(container, files);
      if (!read) {
        if (last_pass) {
          std::string which;
          for (const auto& file : files) which += (which.empty() ? " " : ", ") + file;
          std::cerr << container.task << (which.empty() ? " logs" : which) << ": " << read.error().message << '\n';
        }
        complete = false;
        continue;
      }
      for (const auto& wanted : files) {
        bool found = false;
        for (const auto& log : *read) found |= log.file == wanted;
        if (found) continue;
        complete = false;
        if (!last_pass) continue;
        std::cerr << container.task << " (" << container.container << ") has no " << wanted
                  << " log; it may never have started (--all-files shows what YARN kept, such as prelaunch.err)\n";
      }
      for (const auto& log : *read) {
        auto& shown = shown_[container.container + "/" + log.file];
        if (log.contents.empty() && last_pass && shown == 0) {
          std::cerr << container.task << " wrote nothing to " << log.file << '\n';
          continue;
        }
        if (log.contents.size() <= shown) continue;
        if (bare) {
          std::cout << log.contents;  // the file's bytes exactly, for redirection
        } else {
          if (shown == 0) std::cout << "==> " << container.task << " " << log.file << " <==\n";
          std::cout << std::string_view(log.contents).substr(shown);
          // Followed files go on where they stopped; others get a line of their own.
          if (!options_.follow && log.contents.back() != '\n') std::cout << '\n';
        }
        shown = log.contents.size();
      }
    }
    std::cout.flush();
    return complete;
  }

 private:
  const LogsOptions& options_;
  std::map<std::string, std::size_t> shown_;  // bytes of each file already printed
};

int run_logs(const LogsOptions& options) {
  int failed = exit_done;
  auto opened = open_job(options.application, failed);
  if (!opened) return failed;
  auto& job = opened->job;
  auto logs = client::ContainerLogs::open(opened->configuration, job.application_id());
  if (!logs) {
    std::cerr << logs.error().message << '\n';
    return exit_cluster_unreachable;
  }
  if (auto report = job.report(); !report && report.error().kind != Error::Kind::not_found) {
    std::cerr << report.error().message << '\n';
    return exit_code_for_cluster_error(report.error());
  }
  LogPrinter printer(options);
  while (true) {
    auto place = logs->place();
    if (!place) {
      std::cerr << place.error().message << '\n';
      return exit_code_for_cluster_error(place.error());
    }
    // Following, the whole files are only certain once they were collected.
    if (*place == client::LogPlace::aggregating && options.follow) {
      std::this_thread::sleep_for(std::chrono::seconds(2));
      continue;
    }
    if (*place == client::LogPlace::not_kept) {
      std::cerr << logs->place_sentence(*place) << '\n';
      return exit_cluster_unreachable;
    }
    std::vector<client::LogContainer> containers;
    if (options.task == "master") {
      auto masters = logs->master_containers();
      if (!masters) {
        std::cerr << "the application master's containers are not known: " << masters.error().message << '\n';
        return exit_code_for_cluster_error(masters.error());
      }
      containers = std::move(*masters);
    } else {
      const auto status = job.last_status();
      if (!status) {
        std::cerr << "no task of " << options.application
                  << " is known here: the job's application master is not running and this machine kept no status "
                     "of it; \"master\" still shows the application master's own logs\n";
        return exit_bad_input;
      }
      bool found = false;
      for (const auto& task : status->tasks) {
        if (!options.task.empty() && task.task != options.task) continue;
        found = true;
        for (auto& container : containers_of(task)) containers.push_back(std::move(container));
      }
      if (!found) {
        std::cerr << "\"" << options.task << "\" is not a task of " << options.application
                  << "; tasks are named type:index, e.g. worker:0, or master for the application master\n";
        return exit_bad_input;
      }
    }
    if (containers.empty() && options.follow && *place == client::LogPlace::node_managers) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      continue;
    }
    if (containers.empty()) {
      std::cerr << "no container of " << options.application << (options.task.empty() ? "" : " ran " + options.task)
                << ", so there are no logs to show\n";
      return exit_bad_input;
    }
    const bool ended = *place == client::LogPlace::aggregated;
    const bool complete = printer.print(*logs, containers, ended || !options.follow);
    if (!options.follow || ended) return complete ? exit_done : exit_cluster_unreachable;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

}  // namespace

void add_logs_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<LogsOptions>();
  CLI::App* command = app.add_subcommand(
      "logs",
      "A task's stdout and stderr (every task's without TASK), from its node while the job runs and from the "
      "aggregated logs after");
  command->add_option("application", options->application, "Application id")->required();
  command->add_option("task", options->task, "Task, e.g. worker:0, or master for the application master");
  command->add_option("--file", options->files, "Only this log file (stdout, stderr, prelaunch.err, ...); repeatable");
  command->add_flag("--all-files", options->all_files,
                    "Every file YARN kept, such as prelaunch.err and launch_container.sh");
  command->add_flag("-f,--follow", options->follow, "Keep printing until the job ends and its logs are collected");
  command->callback([options, &exit_code] { exit_code = run_logs(*options); });
}

}  // namespace spindle::cli

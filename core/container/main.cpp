// spindle-container: what Spindle runs inside YARN containers. One binary,
// staged with every job: `master` is the application master, `task` the
// task executor in each task's container.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "container/application_master.h"
#include "container/task_executor.h"

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

int usage() {
  std::cerr << "usage: spindle-container master\n"
               "       spindle-container task --task TYPE:INDEX --api HOST:PORT [--attempt N] [--restarts N]\n"
               "It runs inside containers YARN starts for a job `spindle submit` submitted.\n";
  return 2;
}

int run(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string mode = argv[1];
  if (mode == "master" && argc == 2) {
    spindle::container::MasterOptions options;
    options.staged_files_json = environment("SPINDLE_RESOURCES");
    options.staging_location = environment("SPINDLE_STAGING");
    return spindle::container::run_application_master(options);
  }
  if (mode != "task") return usage();
  spindle::container::ExecutorOptions options;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--task") {
      options.task = value;
    } else if (flag == "--api") {
      options.api_address = value;
    } else if (flag == "--attempt") {
      options.attempt = std::atoi(value.c_str());
    } else if (flag == "--restarts") {
      options.restarts = std::atoi(value.c_str());
    } else {
      return usage();
    }
  }
  if (options.task.empty() || options.api_address.empty() || argc % 2 != 0) return usage();
  return spindle::container::run_task_executor(options);
}

}  // namespace

int main(int argc, char** argv) {
  const int code = run(argc, argv);
  // Threads that follow the job's API may still be waiting on it; their
  // answers no longer matter, so end without unwinding them.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  ::_exit(code);
}

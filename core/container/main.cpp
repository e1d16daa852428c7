// spindle-container: what Spindle runs inside YARN containers. One binary,
// staged with every job: `master` is the application master, `task` the
// task executor in each task's container.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "container/application_master.h"
#include "container/hdfs_bridge_command.h"
#include "container/probe_master.h"
#include "container/process_fan_out.h"
#include "container/self_check.h"
#include "container/sweep_controller.h"
#include "container/task_executor.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/version.h"

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

int usage() {
  std::cerr << "usage: spindle-container master\n"
               "       spindle-container sweep\n"
               "       spindle-container task --task TYPE:INDEX --api HOST:PORT [--attempt N] [--restarts N]\n"
               "       spindle-container self-check master --listen HOST --secret TEXT\n"
               "       spindle-container self-check task --api HOST:PORT --secret TEXT [--host NAME]\n"
               "       spindle-container fan-out PROCESSES COMMAND\n"
               "       spindle-container hdfs-bridge --control-fd FD\n"
               "       spindle-container --version\n"
               "It runs inside containers YARN starts for a job `spindle submit` submitted;\n"
               "self-check proves it works on a node without YARN.\n";
  return 2;
}

int self_check(int argc, char** argv) {
  if (argc < 3 || argc % 2 != 1) return usage();
  const std::string role = argv[2];
  spindle::container::SelfCheckOptions options;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--listen" && role == "master") {
      options.listen_host = value;
    } else if (flag == "--api" && role == "task") {
      options.api_address = value;
    } else if (flag == "--host" && role == "task") {
      options.own_host = value;
    } else if (flag == "--secret") {
      options.secret = value;
    } else {
      return usage();
    }
  }
  if (options.secret.empty()) return usage();
  if (role == "master" && !options.listen_host.empty()) return spindle::container::run_self_check_master(options);
  if (role == "task" && !options.api_address.empty()) return spindle::container::run_self_check_task(options);
  return usage();
}

int run(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string mode = argv[1];
  if (mode == "--version" && argc == 2) {
    std::cout << spindle::container_contract::version_banner_prefix << spindle::version << "\n";
    return 0;
  }
  if (mode == "self-check") return self_check(argc, argv);
  if (mode == "fan-out" && argc == 4) return spindle::container::run_fan_out(std::atoi(argv[2]), argv[3]);
  // YARN names the job's user in USER. Hadoop's client code would otherwise
  // ask the C library's user database, which a static program cannot load.
  if (const char* user = std::getenv("USER"); user && *user && environment("HADOOP_USER_NAME").empty()) {
    ::setenv("HADOOP_USER_NAME", user, 1);
  }
  if (mode == "hdfs-bridge" && argc == 4 && std::string(argv[2]) == "--control-fd") {
    return spindle::container::run_hdfs_bridge(std::atoi(argv[3]));
  }
  if (mode == spindle::container_contract::probe_mode && argc == 2) return spindle::container::run_probe_master();
  if (mode == spindle::container_contract::sweep_mode && argc == 2) return spindle::container::run_sweep_controller();
  if (mode == spindle::container_contract::master_mode && argc == 2) {
    spindle::container::MasterOptions options;
    options.staged_files_json = environment(spindle::container_contract::resources_variable);
    options.staging_location = environment(spindle::container_contract::staging_variable);
    return spindle::container::run_application_master(options);
  }
  if (mode != spindle::container_contract::task_mode) return usage();
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

#include "container/process_fan_out.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <thread>
#include <vector>

#include "spindle/core/environment.h"
#include "spindle/core/task_process.h"

namespace spindle::container {
namespace {

constexpr auto stop_grace = std::chrono::seconds(10);

// Forks one copy; the environment strings are built before the fork.
pid_t start_copy(const std::string& command, const Environment& env) {
  std::vector<std::string> entries;
  for (const auto& [name, value] : env) entries.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& entry : entries) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGINT, SIG_DFL);
    char shell[] = "/bin/sh";
    char flag[] = "-c";
    std::vector<char> text(command.begin(), command.end());
    text.push_back('\0');
    char* argv[] = {shell, flag, text.data(), nullptr};
    ::execve(shell, argv, envp.data());
    std::perror("spindle: cannot run /bin/sh");
    ::_exit(127);
  }
  return pid;
}

void handle_nothing(int) {}

}  // namespace

int run_fan_out(int processes, const std::string& command) {
  if (processes < 1 || processes > 64 || command.empty()) {
    std::fprintf(stderr, "spindle: fan-out needs 1 to 64 processes and a command, not %d and \"%s\"\n", processes,
                 command.c_str());
    return 2;
  }
  // A signal to the task reaches every copy through the process group; this
  // process stays to collect them.
  struct sigaction ignore {};
  ignore.sa_handler = handle_nothing;
  ::sigaction(SIGTERM, &ignore, nullptr);
  ::sigaction(SIGINT, &ignore, nullptr);

  const Environment container = inherited_environment();
  std::vector<pid_t> copies;
  for (int local_rank = 0; local_rank < processes; ++local_rank) {
    const pid_t pid = start_copy(command, process_environment(container, local_rank, processes));
    if (pid < 0) {
      std::perror("spindle: cannot start a process");
      for (pid_t started : copies) ::kill(started, SIGKILL);
      return 2;
    }
    copies.push_back(pid);
  }

  std::optional<ExitStatus> first_failure;
  int running = processes;
  std::optional<std::chrono::steady_clock::time_point> kill_at;
  while (running > 0) {
    int status = 0;
    const pid_t ended = ::waitpid(-1, &status, kill_at ? WNOHANG : 0);
    if (ended < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (ended == 0) {
      if (std::chrono::steady_clock::now() >= *kill_at) {
        for (pid_t pid : copies) {
          if (pid > 0) ::kill(pid, SIGKILL);
        }
        kill_at = std::chrono::steady_clock::time_point::max();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    int local_rank = -1;
    for (int i = 0; i < processes; ++i) {
      if (copies[static_cast<std::size_t>(i)] == ended) local_rank = i;
    }
    if (local_rank < 0) continue;
    copies[static_cast<std::size_t>(local_rank)] = 0;
    --running;
    const ExitStatus exit = ExitStatus::from_wait_status(status);
    if (exit.success() || first_failure) continue;
    first_failure = exit;
    std::fprintf(stderr, "spindle: local rank %d of %d %s; stopping the other %d\n", local_rank, processes,
                 exit.describe().c_str(), running);
    std::fflush(stderr);
    for (pid_t pid : copies) {
      if (pid > 0) ::kill(pid, SIGTERM);
    }
    kill_at = std::chrono::steady_clock::now() + stop_grace;
  }
  return first_failure ? first_failure->shell_code() : 0;
}

}  // namespace spindle::container

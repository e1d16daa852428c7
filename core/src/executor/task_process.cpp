#include "spindle/core/task_process.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "executor/guardian.h"

namespace spindle {
namespace {

std::string error_text(int error) {
  return std::strerror(error);
}

bool has_nul(std::string_view text) {
  return text.find('\0') != std::string_view::npos;
}

int clamp_ms(std::chrono::milliseconds duration) {
  return static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(duration.count(), 0, 24 * 3600 * 1000));
}

Result<void> check(const TaskProcessOptions& options) {
  if (has_nul(options.command)) return make_error("The task's command holds a NUL character, which no shell accepts.");
  for (const auto& [name, value] : options.environment) {
    if (name.empty() || name.find('=') != std::string::npos || has_nul(name)) {
      return make_error("The environment variable name '" + name +
                        "' is not valid: names must be non-empty and hold neither '=' nor NUL.");
    }
    if (has_nul(value)) return make_error("The value of environment variable " + name + " holds a NUL character.");
  }
  if (has_nul(options.working_directory.native())) {
    return make_error("The task's working directory holds a NUL character.");
  }
  return {};
}

pid_t wait_for_pid(pid_t pid, int* status) {
  pid_t result;
  do {
    result = ::waitpid(pid, status, 0);
  } while (result < 0 && errno == EINTR);
  return result;
}

}  // namespace

Result<TaskProcess> TaskProcess::start(const TaskProcessOptions& options) {
  if (auto checked = check(options); !checked) return checked.error();

  // Everything the guardian needs is built here: after fork() in a threaded
  // process the child may not allocate.
  std::string shell = "/bin/sh";
  std::string dash_c = "-c";
  std::string command = options.command;
  char* argv[] = {shell.data(), dash_c.data(), command.data(), nullptr};
  std::vector<std::string> variables;
  variables.reserve(options.environment.size());
  for (const auto& [name, value] : options.environment) variables.push_back(name + "=" + value);
  std::vector<char*> envp;
  envp.reserve(variables.size() + 1);
  for (std::string& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  const std::string directory = options.working_directory.string();
  const guardian::Plan plan{argv, envp.data(), directory.empty() ? nullptr : directory.c_str(),
                            clamp_ms(options.leftover_grace), clamp_ms(options.orphaned_grace)};

  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0) {
    return make_error("Could not create the socket to watch the task's process: " + error_text(errno) + ".");
  }
  // Blocked across fork() so that no handler of the executor (a
  // SignalForwarder's, say) ever runs in the guardian; it keeps them blocked.
  sigset_t all;
  sigset_t previous;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  const pid_t guardian_pid = ::fork();
  if (guardian_pid == 0) guardian::run(plan, sockets[1]);
  const int fork_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ::close(sockets[1]);
  if (guardian_pid < 0) {
    ::close(sockets[0]);
    return make_error("Could not start a process for the task: " + error_text(fork_error) + ".");
  }
  // Also done by the guardian; this way the guardian is out of the
  // executor's group before start() returns, whichever runs first.
  ::setpgid(guardian_pid, guardian_pid);

  guardian::Message message{};
  ssize_t n;
  do {
    n = ::recv(sockets[0], &message, sizeof message, 0);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof message) && message.kind == guardian::Kind::started) {
    return TaskProcess(guardian_pid, message.value, sockets[0]);
  }

  ::close(sockets[0]);
  int guardian_status = 0;
  const bool reaped = wait_for_pid(guardian_pid, &guardian_status) == guardian_pid;
  if (n != static_cast<ssize_t>(sizeof message) || message.kind != guardian::Kind::failed) {
    const std::string how = reaped ? ExitStatus::from_wait_status(guardian_status).describe() : "ended";
    return make_error("The process that starts the task " + how + " before the command started.");
  }
  const std::string reason = error_text(message.error);
  switch (static_cast<guardian::Step>(message.value)) {
    case guardian::Step::working_directory:
      return make_error("Could not change to the task's working directory " + directory + ": " + reason + ".");
    case guardian::Step::fork: return make_error("Could not start the task's shell: " + reason + ".");
    case guardian::Step::watch_children: break;
  }
  return make_error("Could not watch the task's processes: " + reason + ".");
}

TaskProcess::TaskProcess(TaskProcess&& other) noexcept
    : guardian_(std::exchange(other.guardian_, -1)),
      group_(std::exchange(other.group_, -1)),
      fd_(std::exchange(other.fd_, -1)),
      status_(std::exchange(other.status_, std::nullopt)) {}

TaskProcess& TaskProcess::operator=(TaskProcess&& other) noexcept {
  if (this != &other) {
    release();
    guardian_ = std::exchange(other.guardian_, -1);
    group_ = std::exchange(other.group_, -1);
    fd_ = std::exchange(other.fd_, -1);
    status_ = std::exchange(other.status_, std::nullopt);
  }
  return *this;
}

TaskProcess::~TaskProcess() {
  release();
}

void TaskProcess::release() {
  if (fd_ < 0) return;
  if (!poll()) {
    const guardian::Message message{guardian::Kind::kill_now, 0, 0};
    ::send(fd_, &message, sizeof message, MSG_NOSIGNAL);
    ::kill(-group_, SIGKILL);
    wait();
  }
}

void TaskProcess::finish(ExitStatus status) {
  status_ = status;
  ::close(fd_);
  fd_ = -1;
  guardian_ = -1;
}

std::optional<ExitStatus> TaskProcess::poll() {
  if (status_ || fd_ < 0) return status_;
  guardian::Message message{};
  const ssize_t n = ::recv(fd_, &message, sizeof message, MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return std::nullopt;

  // The guardian exits right after its report, so this wait is short. It
  // fails harmlessly when the executor set SIGCHLD to SIG_IGN, where the
  // kernel reaps children itself.
  int guardian_status = 0;
  const bool reaped = wait_for_pid(guardian_, &guardian_status) == guardian_;
  if (n == static_cast<ssize_t>(sizeof message) && message.kind == guardian::Kind::exited) {
    finish(ExitStatus::from_wait_status(message.value));
  } else {
    // The guardian was killed from outside before it could report: the
    // shell died with it (its death signal), its group must not outlive it.
    ::kill(-group_, SIGKILL);
    finish(reaped ? ExitStatus::from_wait_status(guardian_status) : ExitStatus{0, SIGKILL});
  }
  return status_;
}

ExitStatus TaskProcess::wait() {
  for (;;) {
    if (auto status = poll()) return *status;
    if (fd_ < 0) return ExitStatus{};
    pollfd watch{fd_, POLLIN, 0};
    ::poll(&watch, 1, -1);
  }
}

std::optional<ExitStatus> TaskProcess::wait_for(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto status = poll()) return status;
    if (fd_ < 0) return std::nullopt;
    const auto remaining =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (remaining <= 0) return std::nullopt;
    pollfd watch{fd_, POLLIN, 0};
    ::poll(&watch, 1, static_cast<int>(std::min<decltype(remaining)>(remaining, 3'600'000)));
  }
}

Result<void> TaskProcess::signal(int signal_number) {
  if (status_ || group_ <= 0) return {};
  // The guardian keeps the group's id from being reused until poll() has
  // seen its report, so this cannot reach an unrelated group.
  if (::kill(-group_, signal_number) == 0 || errno == ESRCH) return {};
  return make_error("Could not send signal " + std::to_string(signal_number) +
                    " to the task's processes: " + error_text(errno) + ".");
}

ExitStatus TaskProcess::stop(std::chrono::milliseconds grace) {
  if (auto status = poll()) return *status;
  (void)signal(SIGTERM);
  (void)signal(SIGCONT);  // a stopped process acts on SIGTERM only once continued
  if (auto status = wait_for(grace)) return *status;
  (void)signal(SIGKILL);
  return wait();
}

}  // namespace spindle

#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spindle/core/result.h"

namespace spindle {

// A TCP port held for the task, bound on 0.0.0.0 with SO_REUSEADDR and never
// listening. While it is held the kernel hands the port to no bind(port 0)
// and no outgoing connection, yet the user's server (TensorFlow's gRPC,
// TensorBoard, PyTorch's TCPStore: all set SO_REUSEADDR) can still bind and
// listen on it, because Linux lets a second SO_REUSEADDR socket bind a port
// on which no socket listens. A server without SO_REUSEADDR gets EADDRINUSE,
// so the reservation only suits servers that set it. A port already bound
// by any socket, another reservation included, is refused. Hold it for the
// whole life of the user's command: releasing it before the server binds is
// the race it exists to prevent.
class PortReservation {
 public:
  // 0: any free port from the kernel's ephemeral range.
  static Result<PortReservation> reserve(std::uint16_t port = 0);

  PortReservation(PortReservation&& other) noexcept;
  PortReservation& operator=(PortReservation&& other) noexcept;
  PortReservation(const PortReservation&) = delete;
  PortReservation& operator=(const PortReservation&) = delete;
  ~PortReservation();

  std::uint16_t port() const { return port_; }

 private:
  PortReservation(int fd, std::uint16_t port) : fd_(fd), port_(port) {}
  int fd_ = -1;
  std::uint16_t port_ = 0;
};

// How a process ended: exactly one of the two is meaningful.
struct ExitStatus {
  int code = 0;    // the exit code, when it exited
  int signal = 0;  // the signal that killed it, else 0

  bool success() const { return signal == 0 && code == 0; }
  // As a shell reports it in $?: the code, or 128 + the signal.
  int shell_code() const { return signal != 0 ? 128 + signal : code; }
  // "exited with 3", "killed by SIGKILL"
  std::string describe() const;
  // From a wait status as waitpid() returns it.
  static ExitStatus from_wait_status(int wait_status);
};

// Resources of the live processes of a task's process group, from /proc.
// Resident memory is summed per process, so pages two processes share
// (forked workers) count twice, as in YARN's own process-tree accounting.
struct ProcessUsage {
  std::uint64_t resident_bytes = 0;
  // User and system time of the live processes, plus what they have
  // collected from children they waited for, so the figure does not drop
  // when a short-lived step of a shell script ends.
  double cpu_seconds = 0;
  int processes = 0;
};

struct TaskProcessOptions {
  std::string command;                             // run as /bin/sh -c COMMAND
  std::map<std::string, std::string> environment;  // the command's whole environment
  std::filesystem::path working_directory;         // empty: the executor's own
  // Once the command has ended, whatever it left running gets SIGTERM, then
  // SIGKILL after this long.
  std::chrono::milliseconds leftover_grace{2000};
  // When the executor dies (or the TaskProcess is destroyed uncleanly), the
  // command's processes get SIGTERM, then SIGKILL after this long.
  std::chrono::milliseconds orphaned_grace{1000};
};

// A user command running in its own process group under a guardian process.
//
// start() forks a guardian, which leaves the executor's process group (so
// the NodeManager's signals to the container's group do not reach it), makes
// itself a child subreaper and starts `/bin/sh -c COMMAND` as the leader of a
// new process group. stdin, stdout and stderr are inherited; no other
// descriptor is. The guardian:
//   - when the command ends, sends SIGTERM to whatever the command left
//     running, in its group or escaped from it (setsid, double forks), and
//     SIGKILL after leftover_grace; only then reports the exit status, so when
//     poll() or wait() returns a status nothing the command started remains;
//   - when the executor dies, even by SIGKILL, does the same to everything,
//     the command included, with orphaned_grace.
// start() may be called from any thread: the guardian learns of the
// executor's death from the end of a socket, not from PR_SET_PDEATHSIG.
//
// Not thread-safe: use one TaskProcess from one thread at a time.
class TaskProcess {
 public:
  static Result<TaskProcess> start(const TaskProcessOptions& options);

  TaskProcess(TaskProcess&& other) noexcept;
  TaskProcess& operator=(TaskProcess&& other) noexcept;
  TaskProcess(const TaskProcess&) = delete;
  TaskProcess& operator=(const TaskProcess&) = delete;
  // When still running: SIGKILL to everything the command started, without
  // grace, and waits for the guardian (briefly).
  ~TaskProcess();

  // The shell's pid, which is also the id of the command's process group.
  pid_t pid() const { return group_; }
  pid_t process_group() const { return group_; }

  // The status once the command and everything it started have ended; never
  // blocks.
  std::optional<ExitStatus> poll();
  ExitStatus wait();
  std::optional<ExitStatus> wait_for(std::chrono::milliseconds timeout);
  // Becomes readable when poll() would return a status; for an event loop's
  // poll()/epoll. Owned by the TaskProcess; never read from it directly.
  // -1 once poll() has returned the status.
  int completion_fd() const { return fd_; }

  // Sends the signal to the command's whole process group. Succeeds without
  // doing anything once the command has ended.
  Result<void> signal(int signal_number);
  // SIGTERM to the group, up to `grace` for it to end, then SIGKILL; returns
  // how the command ended.
  ExitStatus stop(std::chrono::milliseconds grace);

  // Summed over the live processes of the command's group and those that
  // left it and were orphaned (reparented to the guardian); zero once ended.
  ProcessUsage usage() const;

 private:
  TaskProcess(pid_t guardian, pid_t group, int fd) : guardian_(guardian), group_(group), fd_(fd) {}
  void finish(ExitStatus status);
  void release();

  pid_t guardian_ = -1;
  pid_t group_ = -1;
  int fd_ = -1;
  std::optional<ExitStatus> status_;
};

// Forwards the signals the executor receives to the running command's
// process group, from the signal handler itself, and records them for the
// executor's main loop. Handlers are process-wide, so at most one forwarder
// exists at a time; install it from main before starting threads that might
// fork, and keep it until the command has ended.
//
// The executor's main loop:
//   auto forwarder = SignalForwarder::install();          // before start()
//   auto task = TaskProcess::start(options);
//   (*forwarder)->forward_to(task->process_group());
//   // a signal that came between install() and forward_to() was recorded
//   // but not forwarded: take() returns it, so act on it (e.g. task->stop)
//   while (!task->poll()) {
//     pollfd fds[] = {{task->completion_fd(), POLLIN, 0}, {(*forwarder)->fd(), POLLIN, 0}};
//     ::poll(fds, 2, heartbeat_interval_ms);
//     for (int sig : (*forwarder)->take()) { ... e.g. on SIGTERM, task->stop(grace) ... }
//     ... heartbeat with task->usage() ...
//   }
//   (*forwarder)->forward_to(0);  // the group id may be reused from now on
class SignalForwarder {
 public:
  // SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2: what YARN, a terminal
  // and users send to a task.
  static std::vector<int> default_signals();

  static Result<std::unique_ptr<SignalForwarder>> install(const std::vector<int>& signals = default_signals());
  // Puts back the dispositions install() replaced.
  ~SignalForwarder();
  SignalForwarder(const SignalForwarder&) = delete;
  SignalForwarder& operator=(const SignalForwarder&) = delete;

  // Process group to forward to; 0 forwards nothing (signals are still
  // recorded).
  void forward_to(pid_t process_group);
  // Readable when a signal was recorded and take() has not returned it yet.
  int fd() const { return read_fd_; }
  // The signals received since the last call, oldest first.
  std::vector<int> take();

 private:
  SignalForwarder(int read_fd, std::vector<int> signals) : read_fd_(read_fd), signals_(std::move(signals)) {}
  int read_fd_ = -1;
  std::vector<int> signals_;
};

// The last bytes of a file, at most max_bytes, beginning after a line break
// when the part read holds one, else at a UTF-8 character boundary. Empty
// when the file cannot be read. For putting the end of a task's stderr into
// diagnostics.
std::string tail_of_file(const std::filesystem::path& path, std::size_t max_bytes);

}  // namespace spindle

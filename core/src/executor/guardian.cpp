#include "executor/guardian.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "executor/proc_scan.h"
#include "spindle/core/clock.h"

// Why a guardian at all: the command must run in a process group of its own
// (so that it and everything it starts can be signalled together, and so
// that a terminal's or the NodeManager's signals to the executor's group are
// forwarded deliberately instead of hitting it directly), yet nothing it
// starts may outlive the executor, which YARN may end with SIGKILL. A process
// that outlives the executor is needed to clean up after it, and it must not
// sit in the container's process group, which gets that SIGKILL too.
//
// Why the guardian notices the executor's death by the end of a socket, not
// PR_SET_PDEATHSIG: the death signal follows the thread that forked, not the
// process, so starting a task from a worker thread that later exits would
// kill a healthy task; it also needs a getppid() check for the executor dying
// before prctl(). Every descriptor of the executor's end closes only when the
// executor's process is gone, whichever thread started the task, and a dead
// executor is seen at once because its end is closed already. The end is
// close-on-exec, and every other guardian closes what it inherited, so no
// other process keeps it open.
//
// Why the guardian is not in the command's group: it can then SIGKILL that
// group and stay alive to reap what is left and report the exit status; and
// signals the executor forwards to the group never reach it. It keeps the
// shell unreaped (waitid WNOWAIT) until the group is empty, so the group's
// id, the shell's pid, cannot be reused while the executor may still signal
// it.
//
// Why a child subreaper: a process that leaves the group (setsid, a
// daemonizing double fork) is reparented to the guardian instead of init
// once its parent ends, so the guardian can still find and end it.

namespace spindle::guardian {
namespace {

void send_message(int socket, Kind kind, std::int32_t value, std::int32_t error) {
  const Message message{kind, value, error};
  while (::send(socket, &message, sizeof message, MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

[[noreturn]] void fail(int socket, Step step, int error) {
  send_message(socket, Kind::failed, static_cast<std::int32_t>(step), error);
  ::_exit(1);
}

void close_range_or_loop(unsigned first, unsigned last) {
  if (first > last) return;
  if (::close_range(first, last, 0) == 0) return;
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur - 1 < last) {
    last = static_cast<unsigned>(limit.rlim_cur - 1);
  }
  for (unsigned fd = first; fd <= last; ++fd) ::close(static_cast<int>(fd));
}

// The executor's descriptors stay with the executor: listening sockets, the
// port reservation and the other tasks' sockets would otherwise stay open
// for as long as the command runs.
void close_descriptors_except(int keep) {
  if (keep < 3) {
    close_range_or_loop(3, ~0U);
    return;
  }
  close_range_or_loop(3, static_cast<unsigned>(keep) - 1);
  close_range_or_loop(static_cast<unsigned>(keep) + 1, ~0U);
}

[[noreturn]] void exec_shell(const Plan& plan, pid_t guardian) {
  ::setpgid(0, 0);
  // Should the guardian itself be killed from outside, at least the shell
  // does not stay behind; the getppid() check covers a guardian gone before
  // prctl() took effect.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != guardian) ::_exit(127);
  // exec resets handled signals but keeps ignored ones and the mask; the
  // executor may ignore SIGPIPE or SIGINT, and the guardian blocks all.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ::sigemptyset(&default_action.sa_mask);
  for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
    if (signal_number != SIGKILL && signal_number != SIGSTOP) ::sigaction(signal_number, &default_action, nullptr);
  }
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execve(plan.argv[0], plan.argv, plan.envp);
  ::_exit(127);
}

void drain(int signal_fd) {
  signalfd_siginfo info{};
  while (::read(signal_fd, &info, sizeof info) > 0) {
  }
}

// Waits up to timeout_ms for a child to change state.
void wait_for_children(int signal_fd, int timeout_ms) {
  if (timeout_ms > 0) {
    pollfd watch{signal_fd, POLLIN, 0};
    ::poll(&watch, 1, timeout_ms);
  }
  drain(signal_fd);
}

bool shell_ended(pid_t shell) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(shell), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD;
  return info.si_pid == shell;
}

// Orphans reparented to the guardian while the command runs.
void reap_others(pid_t shell) {
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return;
    if (info.si_pid == 0 || info.si_pid == shell) return;
    ::waitpid(info.si_pid, nullptr, WNOHANG);
  }
}

enum class Ending { command_ended, orphaned, abandoned };

Ending watch(int socket, int signal_fd, pid_t shell) {
  for (;;) {
    reap_others(shell);
    if (shell_ended(shell)) return Ending::command_ended;
    pollfd fds[2] = {{socket, POLLIN, 0}, {signal_fd, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) continue;
    drain(signal_fd);
    if (fds[0].revents == 0) continue;
    Message message{};
    const ssize_t n = ::recv(socket, &message, sizeof message, MSG_DONTWAIT);
    if (n == 0) return Ending::orphaned;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return Ending::orphaned;
    if (n == static_cast<ssize_t>(sizeof message) && message.kind == Kind::kill_now) return Ending::abandoned;
  }
}

// What the command started: its process group, and the guardian's children
// outside it (processes that left the group and were orphaned).
class Sweep {
 public:
  Sweep(pid_t self, pid_t group, pid_t shell) : self_(self), group_(group), shell_(shell) {}

  // Sends signal_number (0: none) to the escaped children, SIGTERM only once
  // to each, reaps the dead ones but the shell; true when anything is alive.
  bool run(int signal_number) {
    signal_number_ = signal_number;
    any_alive_ = false;
    proc::for_each_process(&Sweep::visit, this);
    return any_alive_;
  }

  void signal_group(int signal_number) const { ::kill(-group_, signal_number); }

 private:
  static bool visit(const proc::ProcStat& process, void* context) {
    static_cast<Sweep*>(context)->consider(process);
    return true;
  }

  void consider(const proc::ProcStat& process) {
    if (process.pid == self_) return;
    const bool child = process.ppid == self_;
    if (!child && process.pgrp != group_) return;
    if (!process.alive()) {
      if (child && process.pid != shell_) ::waitpid(process.pid, nullptr, WNOHANG);
      return;
    }
    any_alive_ = true;
    // The group is signalled as a whole; a child's pid cannot be reused
    // before the guardian reaps it, so signalling it by pid is safe.
    if (!child || process.pgrp == group_ || signal_number_ == 0) return;
    if (signal_number_ == SIGTERM) {
      for (int i = 0; i < terminated_count_; ++i) {
        if (terminated_[i] == process.pid) return;
      }
      if (terminated_count_ == kMaxTerminated) return;  // SIGKILL will find it
      terminated_[terminated_count_++] = process.pid;
      ::kill(process.pid, SIGTERM);
      ::kill(process.pid, SIGCONT);
      return;
    }
    ::kill(process.pid, signal_number_);
  }

  static constexpr int kMaxTerminated = 256;
  pid_t self_;
  pid_t group_;
  pid_t shell_;
  int signal_number_ = 0;
  bool any_alive_ = false;
  pid_t terminated_[kMaxTerminated] = {};
  int terminated_count_ = 0;
};

// Sweeps until two sweeps in a row find nothing alive, or the deadline. One
// is not enough: a process read while its parent still lives is skipped, and
// when that parent dies before being read, only the next sweep sees the
// process, reparented to the guardian.
bool settle(Sweep& sweep, int signal_number, std::int64_t deadline, int signal_fd, int interval_ms) {
  int quiet = 0;
  for (;;) {
    if (signal_number == SIGKILL) sweep.signal_group(SIGKILL);  // also what was forked since
    quiet = sweep.run(signal_number) ? 0 : quiet + 1;
    if (quiet >= 2) return true;
    const std::int64_t remaining = deadline - steady_clock_ms();
    if (remaining <= 0) return false;
    wait_for_children(signal_fd, quiet > 0 ? 0 : static_cast<int>(remaining < interval_ms ? remaining : interval_ms));
  }
}

void end_everything(Sweep& sweep, int signal_fd, int grace_ms) {
  if (grace_ms > 0) {
    sweep.signal_group(SIGTERM);
    sweep.signal_group(SIGCONT);  // a stopped process acts on SIGTERM only once continued
    if (settle(sweep, SIGTERM, steady_clock_ms() + grace_ms, signal_fd, 50)) return;
  }
  // Bounded so that a process stuck in uninterruptible sleep cannot hold the
  // guardian forever; the report then still comes.
  settle(sweep, SIGKILL, steady_clock_ms() + 60'000, signal_fd, 20);
}

}  // namespace

void run(const Plan& plan, int socket) {
  // Out of the executor's group, which the NodeManager signals as a whole.
  ::setpgid(0, 0);
  close_descriptors_except(socket);
  // All signals stay blocked, as the executor blocked them around fork(): no
  // handler of the executor may run here, and the guardian must outlive any
  // SIGTERM, SIGINT or SIGHUP to be able to clean up. SIGCHLD is read from a
  // signalfd instead.
  sigset_t all;
  ::sigfillset(&all);
  ::sigprocmask(SIG_SETMASK, &all, nullptr);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  // An executor that ignores SIGCHLD (or set SA_NOCLDWAIT) would have the
  // kernel reap the shell before the guardian could hold on to it.
  struct sigaction default_child {};
  default_child.sa_handler = SIG_DFL;
  ::sigemptyset(&default_child.sa_mask);
  ::sigaction(SIGCHLD, &default_child, nullptr);
  sigset_t child_signals;
  ::sigemptyset(&child_signals);
  ::sigaddset(&child_signals, SIGCHLD);
  const int signal_fd = ::signalfd(-1, &child_signals, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signal_fd < 0) fail(socket, Step::watch_children, errno);
  if (plan.working_directory != nullptr && ::chdir(plan.working_directory) != 0) {
    fail(socket, Step::working_directory, errno);
  }

  const pid_t self = ::getpid();
  // _Fork() runs no pthread_atfork handlers: a library's handler could wait
  // for a lock that a thread of the executor held when the guardian was
  // forked, and that thread does not exist here.
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  const pid_t shell = ::_Fork();
#else
  const pid_t shell = ::fork();
#endif
  if (shell == 0) exec_shell(plan, self);
  if (shell < 0) fail(socket, Step::fork, errno);
  // Also done by the shell; whichever comes first, the group exists before
  // the executor hears of it.
  ::setpgid(shell, shell);
  send_message(socket, Kind::started, shell, 0);

  const Ending ending = watch(socket, signal_fd, shell);
  Sweep sweep(self, shell, shell);
  switch (ending) {
    case Ending::command_ended: end_everything(sweep, signal_fd, plan.leftover_grace_ms); break;
    case Ending::orphaned: end_everything(sweep, signal_fd, plan.orphaned_grace_ms); break;
    case Ending::abandoned: end_everything(sweep, signal_fd, 0); break;
  }
  int status = 0;
  while (::waitpid(shell, &status, 0) < 0 && errno == EINTR) {
  }
  send_message(socket, Kind::exited, status, 0);
  ::_exit(0);
}

}  // namespace spindle::guardian

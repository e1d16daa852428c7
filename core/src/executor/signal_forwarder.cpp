#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "spindle/core/task_process.h"

namespace spindle {
namespace {

// Read by the handler, so lock-free atomics only.
std::atomic<pid_t> forward_group{0};
std::atomic<int> record_fd{-1};
std::atomic<bool> installed{false};
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

// What install() replaced, put back by the destructor; touched only outside
// the handler.
struct sigaction previous_actions[NSIG];

extern "C" void forward_signal(int signal_number) {
  const int saved_errno = errno;
  const pid_t group = forward_group.load(std::memory_order_relaxed);
  if (group > 0) ::kill(-group, signal_number);
  const int fd = record_fd.load(std::memory_order_relaxed);
  if (fd >= 0) {
    // A full pipe drops the record; the signal was still forwarded.
    const auto byte = static_cast<unsigned char>(signal_number);
    [[maybe_unused]] const ssize_t written = ::write(fd, &byte, 1);
  }
  errno = saved_errno;
}

}  // namespace

std::vector<int> SignalForwarder::default_signals() {
  return {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
}

Result<std::unique_ptr<SignalForwarder>> SignalForwarder::install(const std::vector<int>& signals) {
  for (int signal_number : signals) {
    if (signal_number <= 0 || signal_number >= NSIG || signal_number > 255 || signal_number == SIGKILL ||
        signal_number == SIGSTOP) {
      return make_error("Signal " + std::to_string(signal_number) + " cannot be forwarded.");
    }
  }
  if (installed.exchange(true)) return make_error("A signal forwarder is installed already; only one can be.");
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    const int error = errno;
    installed = false;
    return make_error(std::string("Could not create the pipe that records signals: ") + std::strerror(error) + ".");
  }
  record_fd = fds[1];

  struct sigaction action {};
  action.sa_handler = &forward_signal;
  action.sa_flags = SA_RESTART;
  // One handler at a time per thread, so records are not interleaved oddly.
  ::sigemptyset(&action.sa_mask);
  for (int signal_number : signals) ::sigaddset(&action.sa_mask, signal_number);
  std::vector<int> done;
  for (int signal_number : signals) {
    if (::sigaction(signal_number, &action, &previous_actions[signal_number]) != 0) {
      const int error = errno;
      for (int undo : done) ::sigaction(undo, &previous_actions[undo], nullptr);
      record_fd = -1;
      ::close(fds[0]);
      ::close(fds[1]);
      installed = false;
      return make_error("Could not handle signal " + std::to_string(signal_number) + ": " + std::strerror(error) + ".");
    }
    done.push_back(signal_number);
  }
  return std::unique_ptr<SignalForwarder>(new SignalForwarder(fds[0], std::move(done)));
}

SignalForwarder::~SignalForwarder() {
  for (int signal_number : signals_) ::sigaction(signal_number, &previous_actions[signal_number], nullptr);
  forward_group = 0;
  const int write_fd = record_fd.exchange(-1);
  if (write_fd >= 0) ::close(write_fd);
  ::close(read_fd_);
  installed = false;
}

void SignalForwarder::forward_to(pid_t process_group) {
  forward_group = process_group > 0 ? process_group : 0;
}

std::vector<int> SignalForwarder::take() {
  std::vector<int> received;
  unsigned char buffer[256];
  for (;;) {
    const ssize_t n = ::read(read_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    received.insert(received.end(), buffer, buffer + n);
  }
  return received;
}

}  // namespace spindle

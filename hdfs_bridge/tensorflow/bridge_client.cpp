#include "bridge_client.h"

#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "spindle/hdfs_bridge/frame_io.h"

extern char** environ;

namespace spindle::hdfs_bridge {
namespace {

// A request that moves data may take as long as HDFS takes; the bridge's own
// HTTP clients give up on a silent server much sooner.
constexpr auto patience = std::chrono::minutes(10);

bool executable(const std::string& path) {
  return !path.empty() && ::access(path.c_str(), X_OK) == 0;
}

std::string on_path(const char* name) {
  const char* path = std::getenv("PATH");
  std::string directories = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= directories.size()) {
    const auto colon = std::min(directories.find(':', start), directories.size());
    const std::string directory = directories.substr(start, colon - start);
    const std::string candidate = (directory.empty() ? std::string(".") : directory) + "/" + name;
    if (executable(candidate)) return candidate;
    start = colon + 1;
  }
  return {};
}

Reply unavailable(std::string message) {
  Reply reply;
  reply.outcome = Outcome::unavailable;
  reply.message = std::move(message);
  return reply;
}

}  // namespace

std::string bridge_program() {
  if (const char* configured = std::getenv("SPINDLE_HDFS_BRIDGE"); configured && *configured) return configured;
  return on_path("spindle");
}

// Constant-initialized: no guard, nothing to run before or after main.
constinit BridgeClient the_client;

BridgeClient& BridgeClient::instance() {
  return the_client;
}

std::string BridgeClient::ended_sentence(const std::string& otherwise) {
  std::string how;
  int status = 0;
  // It has ended or is ending: its exit status is a moment away at most.
  for (int waited = 0; bridge_pid_ > 0 && owner_pid_ == ::getpid() && waited < 20; ++waited) {
    const pid_t reaped = ::waitpid(bridge_pid_, &status, WNOHANG);
    if (reaped == bridge_pid_) {
      how = WIFEXITED(status)     ? "exited with status " + std::to_string(WEXITSTATUS(status))
            : WIFSIGNALED(status) ? "was killed by signal " + std::to_string(WTERMSIG(status))
                                  : "ended";
      bridge_pid_ = -1;
      break;
    }
    if (reaped < 0) break;
    ::usleep(50'000);
  }
  if (how.empty()) return otherwise;
  return "the HDFS bridge ended without answering (it " + how + "; what it wrote to standard error before says why)";
}

void BridgeClient::forget_bridge() {
  // In a forked child these are the parent's: closing our copies leaves the parent's bridge alone.
  for (int i = 0; i < idle_count_; ++i) ::close(idle_[i]);
  idle_count_ = 0;
  if (control_ >= 0) ::close(control_);
  control_ = -1;
  if (bridge_pid_ > 0 && owner_pid_ == ::getpid()) {
    // It ends by itself once its control socket closes; reaping it keeps no zombie.
    ::waitpid(bridge_pid_, nullptr, WNOHANG);
  }
  bridge_pid_ = -1;
  owner_pid_ = -1;
}

bool BridgeClient::start(std::string& error) {
  const std::string program = bridge_program();
  if (program.empty()) {
    error =
        "hdfs:// needs Spindle's HDFS bridge, and neither SPINDLE_HDFS_BRIDGE names it nor is `spindle` on the "
        "PATH; install Spindle or set SPINDLE_HDFS_BRIDGE to its spindle or spindle-container program";
    return false;
  }
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    error = std::string("cannot make a socket pair for the HDFS bridge: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 onto 3 clears close-on-exec there, so the bridge keeps exactly that end.
  posix_spawn_file_actions_adddup2(&actions, pair[1], 3);
  std::string argument0 = program;
  std::string argument1 = "hdfs-bridge";
  std::string argument2 = "--control-fd";
  std::string argument3 = "3";
  char* arguments[] = {argument0.data(), argument1.data(), argument2.data(), argument3.data(), nullptr};
  pid_t pid = -1;
  const int failed = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, arguments, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pair[1]);
  if (failed != 0) {
    ::close(pair[0]);
    error = "cannot start the HDFS bridge " + program + ": " + std::strerror(failed);
    return false;
  }
  control_ = pair[0];
  bridge_pid_ = pid;
  owner_pid_ = ::getpid();
  return true;
}

int BridgeClient::connection(std::string& error) {
  PluginLock lock(mutex_);
  if (owner_pid_ != ::getpid()) forget_bridge();
  if (idle_count_ > 0) return idle_[--idle_count_];
  if (control_ < 0 && !start(error)) return -1;
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    error = std::string("cannot make a connection to the HDFS bridge: ") + std::strerror(errno);
    return -1;
  }
  const bool sent = send_descriptor(control_, pair[1], error);
  ::close(pair[1]);
  if (!sent) {
    ::close(pair[0]);
    error = ended_sentence(error);
    forget_bridge();
    return -1;
  }
  return pair[0];
}

void BridgeClient::give_back(int fd) {
  PluginLock lock(mutex_);
  if (owner_pid_ == ::getpid() && control_ >= 0 && idle_count_ < max_idle) {
    idle_[idle_count_++] = fd;
  } else {
    ::close(fd);
  }
}

Reply BridgeClient::call(const Request& request) {
  const std::string frame = encode(request);
  std::string error;
  // A bridge that ended (killed, or its node's out-of-memory killer) is started again once.
  for (int attempt = 1; attempt <= 2; ++attempt) {
    const int fd = connection(error);
    if (fd < 0) continue;
    std::string body;
    ReadOutcome outcome = ReadOutcome::failed;
    if (write_all(fd, frame, error)) outcome = read_frame(fd, body, patience, error);
    if (outcome == ReadOutcome::frame) {
      DecodeError decode_error;
      auto reply = decode_reply(body, decode_error);
      if (reply) {
        give_back(fd);
        return std::move(*reply);
      }
      error = "the HDFS bridge answered a frame that cannot be read: " + decode_error.message;
    } else {
      // Closed, reset or broken: most likely the bridge has ended, and then its exit status says more.
      PluginLock lock(mutex_);
      error = ended_sentence(outcome == ReadOutcome::closed
                                 ? "the HDFS bridge closed a connection without answering (what it wrote to "
                                   "standard error says why)"
                                 : error);
    }
    ::close(fd);
    PluginLock lock(mutex_);
    forget_bridge();
    // A request the bridge may have begun is not sent again: its effect is unknown.
    if (request.operation == Operation::write || request.operation == Operation::rename ||
        request.operation == Operation::remove) {
      break;
    }
  }
  return unavailable(error);
}

}  // namespace spindle::hdfs_bridge

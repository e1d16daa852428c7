#include "client/container_binary.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "spindle/core/version.h"

namespace spindle::client {

Result<std::string> container_binary_version(const std::filesystem::path& path) {
  int pipe_ends[2];
  if (::pipe2(pipe_ends, O_CLOEXEC) != 0) return make_error("cannot make a pipe to run " + path.string());
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    return make_error("cannot start " + path.string());
  }
  if (child == 0) {
    ::dup2(pipe_ends[1], STDOUT_FILENO);
    const std::string program = path.string();
    char* arguments[] = {const_cast<char*>(program.c_str()), const_cast<char*>("--version"), nullptr};
    ::execv(program.c_str(), arguments);
    ::_exit(127);
  }
  ::close(pipe_ends[1]);
  // A binary that hangs must not hang submit.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::string output;
  bool timed_out = false;
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd readable{pipe_ends[0], POLLIN, 0};
    if (::poll(&readable, 1, static_cast<int>(left.count())) <= 0) continue;
    char buffer[256];
    const ssize_t got = ::read(pipe_ends[0], buffer, sizeof(buffer));
    if (got <= 0) break;
    output.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_ends[0]);
  if (timed_out) ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (timed_out) return make_error(path.string() + " --version did not answer within 10 s");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return make_error(path.string() + " --version failed (wait status " + std::to_string(status) +
                      "); it is not a working spindle-container for this machine");
  }
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  return output;
}

Result<void> check_container_binary(const std::filesystem::path& path) {
  auto printed = container_binary_version(path);
  if (!printed) return printed.error();
  const std::string wanted = std::string("spindle-container ") + version;
  if (*printed != wanted) {
    return make_error("the container binary " + path.string() + " says \"" + *printed + "\", but this is spindle " +
                      version + "; stage the spindle-container built with it (SPINDLE_CONTAINER_BINARY names it)");
  }
  return {};
}

}  // namespace spindle::client

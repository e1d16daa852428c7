#include "spindle/core/program_output.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace spindle {

Result<std::string> program_output(const std::string& program, const std::vector<std::string>& arguments,
                                   std::chrono::milliseconds limit) {
  const std::string command = program + (arguments.empty() ? "" : " " + arguments.front());
  int pipe_ends[2];
  if (::pipe2(pipe_ends, O_CLOEXEC) != 0) return make_error("cannot make a pipe to run " + command);
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    return make_error("cannot start " + command);
  }
  if (child == 0) {
    ::dup2(pipe_ends[1], STDOUT_FILENO);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(pipe_ends[1]);
  const auto deadline = std::chrono::steady_clock::now() + limit;
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
  if (timed_out) return make_error(command + " did not answer within " + std::to_string(limit.count() / 1000) + " s");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return make_error(command + " failed (wait status " + std::to_string(status) + ")");
  }
  return output;
}

}  // namespace spindle

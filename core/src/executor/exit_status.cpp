#include <string.h>
#include <sys/wait.h>

#include <string>

#include "spindle/core/task_process.h"

namespace spindle {

ExitStatus ExitStatus::from_wait_status(int wait_status) {
  if (WIFEXITED(wait_status)) return ExitStatus{WEXITSTATUS(wait_status), 0};
  if (WIFSIGNALED(wait_status)) return ExitStatus{0, WTERMSIG(wait_status)};
  return ExitStatus{};
}

std::string ExitStatus::describe() const {
  if (signal == 0) return "exited with " + std::to_string(code);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  if (const char* name = ::sigabbrev_np(signal)) return std::string("killed by SIG") + name;
#endif
  return "killed by signal " + std::to_string(signal);
}

}  // namespace spindle

#pragma once

#include <cstdint>

// The process between the executor and the user's command. It runs in a
// child forked from a possibly threaded executor and never execs, so all of
// it is async-signal-safe: no allocation, no locks, no stdio.
namespace spindle::guardian {

// Records on the SOCK_SEQPACKET pair between executor and guardian; one
// send() is one record, so neither side ever sees half of one.
enum class Kind : std::int32_t {
  started = 1,   // value: the shell's pid, which leads the command's group
  failed = 2,    // value: the Step that failed, error: its errno
  exited = 3,    // value: the shell's wait status, sent once nothing is left
  kill_now = 4,  // from the executor: end everything without grace
};

enum class Step : std::int32_t {
  working_directory = 1,
  fork = 2,
  watch_children = 3,
};

struct Message {
  Kind kind;
  std::int32_t value;
  std::int32_t error;
};

// Prepared before fork(), since the guardian allocates nothing.
struct Plan {
  char* const* argv;
  char* const* envp;
  const char* working_directory;  // null: stay where the executor is
  int leftover_grace_ms;
  int orphaned_grace_ms;
};

// Runs in the forked child; `socket` is its end of the pair.
[[noreturn]] void run(const Plan& plan, int socket);

}  // namespace spindle::guardian

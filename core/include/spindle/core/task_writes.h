#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace spindle {

// What a task has written so far, as its executor sees it. The application
// master compares one heartbeat's with the last to tell a task that makes
// progress from a stalled one (docs/architecture.md, "Stalled tasks").
struct TaskWrites {
  // Bytes in the files the executor's stdout and stderr go to, which its
  // command inherits (the container's log files); 0 for pipes and terminals.
  std::uint64_t log_bytes = 0;
  // Changes when a file under the output directory is created, removed,
  // grows or is written again (size and modification time): TensorFlow's
  // event files hold the task's scalars, and checkpoints land there too.
  // Zero for a directory that is missing or empty.
  std::uint64_t output_fingerprint = 0;
};

// At most `most_entries` entries of the directory are looked at, so that a
// huge output costs a bounded walk every heartbeat; symbolic links are not
// followed.
TaskWrites task_writes(const std::filesystem::path& output_directory, std::size_t most_entries = 10000);

}  // namespace spindle

#include "spindle/core/task_writes.h"

#include <sys/stat.h>
#include <unistd.h>

#include <string_view>
#include <system_error>

namespace spindle {
namespace {

std::uint64_t regular_file_size(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return 0;
  return static_cast<std::uint64_t>(info.st_size);
}

// FNV-1a, continued from `hash`.
std::uint64_t mix(std::uint64_t hash, std::string_view bytes) {
  for (unsigned char byte : bytes) {
    hash ^= byte;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::uint64_t mix(std::uint64_t hash, std::uint64_t value) {
  return mix(hash, std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
}

}  // namespace

TaskWrites task_writes(const std::filesystem::path& output_directory, std::size_t most_entries) {
  TaskWrites writes;
  writes.log_bytes = regular_file_size(STDOUT_FILENO) + regular_file_size(STDERR_FILENO);
  if (output_directory.empty()) return writes;
  std::error_code error;
  std::filesystem::recursive_directory_iterator entry(output_directory, error);
  std::size_t seen = 0;
  for (; !error && entry != std::filesystem::recursive_directory_iterator() && seen < most_entries;
       entry.increment(error), ++seen) {
    struct stat info {};
    if (::lstat(entry->path().c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    // Each file's own hash, summed: the walk's order does not matter.
    std::uint64_t file = mix(0xcbf29ce484222325ULL, entry->path().native());
    file = mix(file, static_cast<std::uint64_t>(info.st_size));
    file = mix(file, static_cast<std::uint64_t>(info.st_mtim.tv_sec) * 1000000000ULL +
                         static_cast<std::uint64_t>(info.st_mtim.tv_nsec));
    writes.output_fingerprint += file;
  }
  return writes;
}

}  // namespace spindle

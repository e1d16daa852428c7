#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "spindle/core/task_process.h"

namespace spindle {

std::string tail_of_file(const std::filesystem::path& path, std::size_t max_bytes) {
  if (max_bytes == 0) return {};
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat info {};
  // Only regular files: reading a FIFO or a device could block or never end.
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return {};
  }
  const auto size = static_cast<std::uint64_t>(info.st_size);
  // One byte more than wanted, to see whether the tail begins a line.
  const std::uint64_t start = size > max_bytes ? size - max_bytes - 1 : 0;
  std::string data(static_cast<std::size_t>(size - start), '\0');
  std::size_t have = 0;
  while (have < data.size()) {
    const ssize_t n = ::pread(fd, data.data() + have, data.size() - have, static_cast<off_t>(start + have));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  data.resize(have);
  if (start == 0) return data;
  if (data.empty()) return data;

  // data[0] lies before the tail, so skip at least it.
  std::size_t from = 1;
  if (data[0] != '\n') {
    const std::size_t line_break = data.find('\n', 1);
    if (line_break != std::string::npos && line_break + 1 < data.size()) {
      from = line_break + 1;
    } else {
      // No whole line fits: begin at a character, not inside one.
      while (from < data.size() && from < 4 && (static_cast<unsigned char>(data[from]) & 0xC0) == 0x80) ++from;
    }
  }
  return data.substr(from);
}

}  // namespace spindle

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "spindle/core/tfevents.h"

namespace spindle {
namespace fs = std::filesystem;

Result<std::vector<LogFileEntry>> LocalLogFileSystem::list_files(const std::string& directory) {
  std::vector<LogFileEntry> files;
  std::error_code ec;
  if (!fs::exists(directory, ec)) return files;
  if (!fs::is_directory(directory, ec)) return make_error(directory + " is not a directory");
  // Links to directories are not followed, so a link cycle cannot trap the walk.
  fs::recursive_directory_iterator entry(directory, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && entry != fs::recursive_directory_iterator(); entry.increment(ec)) {
    std::error_code entry_ec;
    if (!entry->is_regular_file(entry_ec)) continue;
    const auto size = entry->file_size(entry_ec);
    // A file removed between listing and looking is simply not there.
    if (entry_ec) continue;
    files.push_back(LogFileEntry{entry->path().lexically_relative(directory).generic_string(), size});
  }
  if (ec) return make_error("cannot list " + directory + ": " + ec.message());
  return files;
}

Result<std::size_t> LocalLogFileSystem::read(const std::string& path, std::uint64_t offset, std::span<char> into) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error("cannot open " + path + ": " + std::strerror(errno));
  std::size_t have = 0;
  while (have < into.size()) {
    const ssize_t n = ::pread(fd, into.data() + have, into.size() - have, static_cast<off_t>(offset + have));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return make_error("cannot read " + path + " at byte " + std::to_string(offset + have) + ": " +
                        std::strerror(error));
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return have;
}

}  // namespace spindle

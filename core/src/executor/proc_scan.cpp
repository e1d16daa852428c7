#include "executor/proc_scan.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace spindle::proc {
namespace {

// "/proc/<pid>/stat" without snprintf, which is not async-signal-safe.
void stat_path(pid_t pid, char (&path)[40]) {
  char digits[16];
  int count = 0;
  auto value = static_cast<unsigned long>(pid);
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0 && count < 16);
  int at = 0;
  for (const char* c = "/proc/"; *c != '\0'; ++c) path[at++] = *c;
  while (count > 0) path[at++] = digits[--count];
  for (const char* c = "/stat"; *c != '\0'; ++c) path[at++] = *c;
  path[at] = '\0';
}

bool parse_number(const char*& at, const char* end, std::int64_t& value) {
  while (at < end && *at == ' ') ++at;
  bool negative = false;
  if (at < end && *at == '-') {
    negative = true;
    ++at;
  }
  if (at >= end || *at < '0' || *at > '9') return false;
  std::int64_t parsed = 0;
  while (at < end && *at >= '0' && *at <= '9') parsed = parsed * 10 + (*at++ - '0');
  value = negative ? -parsed : parsed;
  return true;
}

std::uint64_t non_negative(std::int64_t value) {
  return value < 0 ? 0 : static_cast<std::uint64_t>(value);
}

}  // namespace

bool read_stat(pid_t pid, ProcStat& out) {
  char path[40];
  stat_path(pid, path);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char text[1024];
  std::size_t size = 0;
  while (size < sizeof text) {
    const ssize_t n = ::read(fd, text + size, sizeof text - size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    size += static_cast<std::size_t>(n);
  }
  ::close(fd);

  // The command name in parentheses may hold spaces and parentheses itself;
  // the fields after the last ')' never hold one.
  const char* end = text + size;
  const char* close_paren = nullptr;
  for (const char* c = text; c < end; ++c) {
    if (*c == ')') close_paren = c;
  }
  if (close_paren == nullptr || close_paren + 2 >= end) return false;
  const char* at = close_paren + 2;
  out.pid = pid;
  out.state = *at++;
  // Fields 4 (ppid) to 24 (rss) of proc(5).
  std::int64_t fields[21];
  for (std::int64_t& field : fields) {
    if (!parse_number(at, end, field)) return false;
  }
  out.ppid = static_cast<pid_t>(fields[0]);
  out.pgrp = static_cast<pid_t>(fields[1]);
  out.utime = non_negative(fields[10]);
  out.stime = non_negative(fields[11]);
  out.cutime = non_negative(fields[12]);
  out.cstime = non_negative(fields[13]);
  out.rss_pages = non_negative(fields[20]);
  return true;
}

bool for_each_process(Visitor visit, void* context) {
  const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return false;
  alignas(struct dirent64) char buffer[8192];
  bool more = true;
  while (more) {
    const ssize_t n = ::getdents64(dir, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t offset = 0; offset < n && more;) {
      const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + offset);
      offset += entry->d_reclen;
      long pid = 0;
      const char* c = entry->d_name;
      for (; *c >= '0' && *c <= '9'; ++c) pid = pid * 10 + (*c - '0');
      if (*c != '\0' || pid <= 0) continue;
      ProcStat process;
      if (read_stat(static_cast<pid_t>(pid), process)) more = visit(process, context);
    }
  }
  ::close(dir);
  return true;
}

}  // namespace spindle::proc

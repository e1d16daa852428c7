#pragma once

#include <sys/types.h>

#include <cstdint>

// Reads processes from /proc without allocating or taking locks, so that the
// guardian, a child forked from a threaded executor, may use it too.
namespace spindle::proc {

struct ProcStat {
  pid_t pid = 0;
  char state = '?';  // R, S, D, Z, T, ...
  pid_t ppid = 0;
  pid_t pgrp = 0;
  // Clock ticks (sysconf(_SC_CLK_TCK)).
  std::uint64_t utime = 0;
  std::uint64_t stime = 0;
  std::uint64_t cutime = 0;
  std::uint64_t cstime = 0;
  std::uint64_t rss_pages = 0;

  // A zombie has ended; only its parent's wait is missing.
  bool alive() const { return state != 'Z' && state != 'X' && state != 'x'; }
};

// False when the process is gone or its stat cannot be parsed.
bool read_stat(pid_t pid, ProcStat& out);

// Calls visit for every process in /proc, until visit returns false. False
// when /proc cannot be read.
using Visitor = bool (*)(const ProcStat& process, void* context);
bool for_each_process(Visitor visit, void* context);

}  // namespace spindle::proc

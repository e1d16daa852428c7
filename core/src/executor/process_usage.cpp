#include <unistd.h>

#include "executor/proc_scan.h"
#include "spindle/core/task_process.h"

namespace spindle {
namespace {

struct Totals {
  pid_t group;
  pid_t guardian;
  std::uint64_t pages = 0;
  std::uint64_t ticks = 0;
  int processes = 0;
};

bool add(const proc::ProcStat& process, void* context) {
  auto& totals = *static_cast<Totals*>(context);
  // The group, and what escaped it and was orphaned to the guardian (which
  // is not itself counted: it is a copy of the executor).
  const bool escaped = process.ppid == totals.guardian && process.pgrp != totals.guardian;
  if (!process.alive() || (process.pgrp != totals.group && !escaped)) return true;
  totals.pages += process.rss_pages;
  totals.ticks += process.utime + process.stime + process.cutime + process.cstime;
  ++totals.processes;
  return true;
}

}  // namespace

ProcessUsage TaskProcess::usage() const {
  if (status_ || group_ <= 0) return {};
  Totals totals{group_, guardian_};
  proc::for_each_process(&add, &totals);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  ProcessUsage usage;
  usage.resident_bytes = totals.pages * static_cast<std::uint64_t>(page_size > 0 ? page_size : 4096);
  usage.cpu_seconds =
      static_cast<double>(totals.ticks) / static_cast<double>(ticks_per_second > 0 ? ticks_per_second : 100);
  usage.processes = totals.processes;
  return usage;
}

}  // namespace spindle

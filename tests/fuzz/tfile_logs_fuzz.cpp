// Aggregated log files in the TFile format as a NodeManager could have left
// them: cut short, damaged, or not logs at all. Each must be read or refused
// with a sentence; nothing else.
#include <cstddef>
#include <cstdint>
#include <string>

#include "spindle/yarn/aggregated_logs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace spindle::yarn;
  MemoryByteSource file(std::string(reinterpret_cast<const char*>(data), size));
  AggregatedLogFilter everything;
  auto logs = read_tfile_logs(file, "fuzzed", everything);
  if (logs) {
    for (const auto& log : *logs) {
      if (log.contents.size() != log.length) __builtin_trap();
    }
  } else if (logs.error().message.empty()) {
    __builtin_trap();
  }
  AggregatedLogFilter listing;
  listing.contents = false;
  (void)read_tfile_logs(file, "fuzzed", listing);
  return 0;
}

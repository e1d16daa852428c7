// Aggregated log files in YARN's indexed format, and their Java-serialized
// index on its own: read or refused with a sentence, never a crash, a hang or
// an allocation the input does not pay for.
#include <cstddef>
#include <cstdint>
#include <string>

#include "logs/java_serialization.h"
#include "spindle/yarn/aggregated_logs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace spindle::yarn;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.starts_with("\xac\xed")) {
    auto stream = logs::JavaObjectStream::parse(bytes, 0, "fuzzed");
    if (!stream && stream.error().message.empty()) __builtin_trap();
    return 0;
  }
  // The seeds' applications: a file keeps its mark unless the mutation reached it.
  for (const char* application : {"application_1795467013710_0001", "application_1795467013356_0001"}) {
    MemoryByteSource file(bytes);
    auto logs = read_indexed_logs(file, "fuzzed", application, {});
    if (logs) {
      for (const auto& log : *logs) {
        if (log.contents.size() != log.length) __builtin_trap();
      }
    } else if (logs.error().message.empty()) {
      __builtin_trap();
    }
  }
  return 0;
}

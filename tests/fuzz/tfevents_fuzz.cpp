// Any bytes as an event file: scalars or errors, never a crash. Reading the
// file while it grows gives what reading it whole gives. The records are
// also read again with their checksums made right, so that mutations inside
// events reach the event decoder instead of stopping at a checksum.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/record_framing.h"
#include "spindle/core/tfevents.h"

namespace {

using spindle::EventFileReader;
using spindle::LogFileEntry;
using spindle::Result;
using spindle::ScalarPoint;

class MemoryFile final : public spindle::LogFileSystem {
 public:
  std::string bytes;

  Result<std::vector<LogFileEntry>> list_files(const std::string&) override {
    return std::vector<LogFileEntry>{{"events.out.tfevents.0", bytes.size()}};
  }
  Result<std::size_t> read(const std::string&, std::uint64_t offset, std::span<char> into) override {
    if (offset > bytes.size()) return spindle::make_error("read past the end of the file");
    const std::size_t size = std::min<std::size_t>(into.size(), bytes.size() - offset);
    std::memcpy(into.data(), bytes.data() + offset, size);
    return size;
  }
};

struct Reading {
  std::vector<ScalarPoint> points;
  std::vector<std::string> errors;
};

// Polls until the reader has nothing more to say, as LogDirectoryReader does.
void drain(EventFileReader& reader, Reading& reading) {
  for (int polls = 0; polls < 100'000; ++polls) {
    const auto before = reader.offset();
    auto polled = reader.poll();
    if (!polled) {
      reading.errors.push_back(polled.error().message);
      if (reader.stopped() || reader.offset() == before) return;
      continue;
    }
    reading.points.insert(reading.points.end(), polled->begin(), polled->end());
    if (!reader.damage_next()) {
      // The file is as it was, so a poll that read to its end leaves nothing for the next.
      auto again = reader.poll();
      if (!again || !again->empty() || reader.damage_next()) std::abort();
      return;
    }
  }
  std::abort();  // every poll that returns something moves on, so this never ends
}

// Bit for bit, since NaN is not equal to itself.
bool same(const std::vector<ScalarPoint>& a, const std::vector<ScalarPoint>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const ScalarPoint& x, const ScalarPoint& y) {
    return x.tag == y.tag && x.step == y.step &&
           std::bit_cast<std::uint64_t>(x.wall_time) == std::bit_cast<std::uint64_t>(y.wall_time) &&
           std::bit_cast<std::uint64_t>(x.value) == std::bit_cast<std::uint64_t>(y.value);
  });
}

void read_whole_and_growing(const std::string& file, std::size_t cut) {
  MemoryFile whole;
  whole.bytes = file;
  EventFileReader at_once(whole, "events.out.tfevents.0");
  Reading expected;
  drain(at_once, expected);

  MemoryFile growing;
  growing.bytes = file.substr(0, cut);
  EventFileReader in_steps(growing, "events.out.tfevents.0");
  Reading got;
  drain(in_steps, got);
  growing.bytes = file;
  drain(in_steps, got);

  if (!same(got.points, expected.points) || got.errors != expected.errors) std::abort();
  if (at_once.offset() > file.size() || at_once.bytes_read() > file.size()) std::abort();
}

// The records of `bytes` framed again with checksums that match.
std::string reframed(std::string_view bytes) {
  using namespace spindle::tfevents;
  std::string out;
  while (bytes.size() >= record_header_size) {
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i)
      length = (length << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
    bytes.remove_prefix(record_header_size);
    length = std::min<std::uint64_t>(length, bytes.size());
    out += frame_record(bytes.substr(0, static_cast<std::size_t>(length)));
    bytes.remove_prefix(static_cast<std::size_t>(length));
    bytes.remove_prefix(std::min<std::size_t>(bytes.size(), record_footer_size));
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string file(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = size == 0 ? 0 : (std::size_t{data[0]} * size) / 256;
  read_whole_and_growing(file, cut);
  const std::string fixed = reframed(file);
  read_whole_and_growing(fixed, std::min(cut, fixed.size()));
  return 0;
}

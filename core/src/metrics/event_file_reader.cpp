#include <algorithm>
#include <cstring>
#include <optional>

#include "metrics/event_scalars.h"
#include "metrics/record_framing.h"
#include "spindle/core/tfevents.h"

namespace spindle {
namespace {

// Reads start small, since most polls find a few records, and grow while a
// poll keeps finding more, up to a size that keeps memory per file modest.
constexpr std::size_t first_read_size = 64 << 10;
constexpr std::size_t largest_read_size = 4 << 20;

struct RecordsTaken {
  std::size_t bytes = 0;  // whole records taken from the front
  bool wait = false;      // a damaged record comes next and waits for a poll of its own
  std::optional<Error> damage;
  bool rest_unreadable = false;  // the damage hides where later records begin
};

// Takes the whole records at the front of `buffered`, which begins at byte
// `offset` of `path`, appending their scalars to `points`. Stops at the
// first damaged record: reports it when no points came before it, so that
// no points are lost with an error, and leaves it for the next poll when
// some did.
RecordsTaken take_records(std::string_view buffered, const std::string& path, std::uint64_t offset,
                          tfevents::ScalarTags& tags, std::vector<ScalarPoint>& points) {
  using tfevents::RecordState;
  RecordsTaken taken;
  while (true) {
    const auto record = tfevents::scan_record(buffered.substr(taken.bytes));
    if (record.state == RecordState::cut_short) return taken;
    const auto where = [&] { return path + ": the record at byte " + std::to_string(offset + taken.bytes); };
    if (record.state != RecordState::whole && !points.empty()) {
      taken.wait = true;
      return taken;
    }
    if (record.state == RecordState::bad_length_checksum || record.state == RecordState::too_long) {
      const std::string why = record.state == RecordState::too_long
                                  ? " claims " + std::to_string(record.length) + " bytes, more than an event holds"
                                  : " has a length whose checksum does not match";
      taken.damage = make_error(where() + why + "; the rest of the file cannot be read");
      taken.rest_unreadable = true;
      return taken;
    }
    if (record.state == RecordState::bad_data_checksum) {
      taken.damage = make_error(where() + " has data whose checksum does not match; it was skipped");
    } else if (auto appended = tfevents::append_event_scalars(record.data, tags, points); !appended) {
      // Decoding it again next poll gives the same error.
      if (!points.empty()) {
        taken.wait = true;
        return taken;
      }
      taken.damage =
          make_error(where() + " is not a TensorFlow event (" + appended.error().message + "); it was skipped");
    }
    taken.bytes += record.size;
    if (taken.damage) return taken;
  }
}

}  // namespace

EventFileReader::EventFileReader(LogFileSystem& files, std::string path)
    : files_(&files), path_(std::move(path)), tags_(std::make_unique<tfevents::ScalarTags>()) {}
EventFileReader::EventFileReader(EventFileReader&&) noexcept = default;
EventFileReader& EventFileReader::operator=(EventFileReader&&) noexcept = default;
EventFileReader::~EventFileReader() = default;

Result<std::vector<ScalarPoint>> EventFileReader::poll() {
  std::vector<ScalarPoint> points;
  damage_next_ = false;
  if (stopped_) return points;

  // buffer[begin, end) holds the bytes from offset_ on; what follows is room to read into.
  std::string& buffer = unconsumed_;
  std::size_t begin = 0;
  std::size_t end = buffer.size();
  std::size_t read_size = first_read_size;
  std::optional<Error> failure;
  while (true) {
    const auto taken =
        take_records(std::string_view(buffer).substr(begin, end - begin), path_, offset_, *tags_, points);
    begin += taken.bytes;
    offset_ += taken.bytes;
    if (taken.damage) {
      failure = taken.damage;
      stopped_ = taken.rest_unreadable;
      break;
    }
    damage_next_ = taken.wait;
    if (taken.wait || read_size == 0) break;

    // Keep the unfinished record at the front, then read after it.
    std::memmove(buffer.data(), buffer.data() + begin, end - begin);
    end -= begin;
    begin = 0;
    if (buffer.size() < end + read_size) buffer.resize(end + read_size);
    auto got = files_->read(path_, offset_ + end, std::span<char>(buffer.data() + end, read_size));
    if (!got) {
      failure = got.take_error();
      break;
    }
    end += std::min(*got, read_size);
    // A short read is the end of the file: take what it completed, then stop.
    read_size = *got < read_size ? 0 : std::min(read_size * 2, largest_read_size);
  }

  buffer.erase(end);
  buffer.erase(0, begin);
  if (buffer.capacity() > first_read_size) buffer.shrink_to_fit();
  if (failure && points.empty()) return *std::move(failure);
  return points;
}

}  // namespace spindle

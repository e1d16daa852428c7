// Aggregated logs in Hadoop's TFile (a BCFile of key/value entries), as
// YARN's AggregatedLogFormat writes them: three reserved keys, then one
// entry per container whose value is a run of (name, decimal length, bytes).

#include <charconv>
#include <map>

#include "logs/block_codec.h"
#include "logs/byte_cursor.h"
#include "spindle/yarn/aggregated_logs.h"

namespace spindle::yarn {
namespace {

using logs::ByteCursor;

constexpr std::string_view bcfile_magic{"\xd1\x11\xd3\x68\x91\xb5\xd7\xb6\x39\xdf\x41\x40\x92\xba\xe1\x50", 16};
// Meta index offset, major and minor version, magic.
constexpr std::size_t trailer_size = 8 + 2 + 2 + 16;

struct BlockRegion {
  std::int64_t offset = 0;
  std::int64_t stored_size = 0;
  std::int64_t raw_size = 0;
};

class TFileReader {
 public:
  TFileReader(ByteSource& file, const std::string& name) : file_(file), name_(name) {}

  Result<std::vector<AggregatedLog>> read(const AggregatedLogFilter& filter);

 private:
  Error damaged(const ByteCursor& at, const std::string& what) const {
    return make_error(name_ + " is damaged or cut short: " + what + " at byte " + std::to_string(at.offset()) +
                      "; it is not a whole aggregated log (TFile)");
  }
  Result<BlockRegion> region(ByteCursor& in) const;
  Result<std::string> block(const BlockRegion& region, const std::string& algorithm, const std::string& what);
  Result<void> read_entries(const std::string& data, std::int64_t block_offset, const AggregatedLogFilter& filter,
                            std::vector<AggregatedLog>& logs) const;
  Result<void> read_container(const std::string& container, const std::string& value, std::int64_t block_offset,
                              const AggregatedLogFilter& filter, std::vector<AggregatedLog>& logs) const;

  ByteSource& file_;
  const std::string& name_;
  std::int64_t index_offset_ = 0;  // where the meta index starts: blocks end before it
};

Result<BlockRegion> TFileReader::region(ByteCursor& in) const {
  BlockRegion region;
  auto offset = in.tfile_vlong();
  auto stored = offset ? in.tfile_vlong() : std::nullopt;
  auto raw = stored ? in.tfile_vlong() : std::nullopt;
  if (!raw) return damaged(in, "a block region ends early");
  region.offset = *offset;
  region.stored_size = *stored;
  region.raw_size = *raw;
  if (region.offset < 0 || region.stored_size < 0 || region.raw_size < 0 ||
      region.offset > index_offset_ - region.stored_size) {
    return damaged(in, "a block region (offset " + std::to_string(region.offset) + ", " +
                           std::to_string(region.stored_size) + " bytes) lies outside the file's data");
  }
  return region;
}

Result<std::string> TFileReader::block(const BlockRegion& region, const std::string& algorithm,
                                       const std::string& what) {
  auto stored = file_.read(static_cast<std::uint64_t>(region.offset), static_cast<std::size_t>(region.stored_size));
  if (!stored) return stored.error();
  return logs::decompress(*stored, algorithm, static_cast<std::uint64_t>(region.raw_size),
                          name_ + " (" + what + " at byte " + std::to_string(region.offset) + ")");
}

Result<std::vector<AggregatedLog>> TFileReader::read(const AggregatedLogFilter& filter) {
  const auto size = file_.size();
  if (size < bcfile_magic.size() + trailer_size) {
    return make_error(name_ + " is " + std::to_string(size) +
                      " bytes long, too short for an aggregated log (TFile): it was cut short or is still being "
                      "written");
  }
  auto tail = file_.read(size - trailer_size, trailer_size);
  if (!tail) return tail.error();
  ByteCursor trailer(*tail, size - trailer_size);
  const auto index_offset = trailer.i64();
  const auto major = trailer.u16();
  (void)trailer.u16();
  if (trailer.bytes(16) != bcfile_magic) {
    return make_error(name_ + " does not end in a TFile's magic bytes (at byte " + std::to_string(size - 16) +
                      "): it is cut short, or not an aggregated log in the TFile format");
  }
  if (major != 1) {
    return make_error(name_ + " is a TFile of version " + std::to_string(major.value_or(0)) +
                      ", which Spindle does not read (it reads version 1)");
  }
  index_offset_ = *index_offset;
  if (index_offset_ < static_cast<std::int64_t>(bcfile_magic.size()) ||
      index_offset_ > static_cast<std::int64_t>(size - trailer_size)) {
    return make_error(name_ + " names its index at byte " + std::to_string(index_offset_) +
                      ", outside the file; it is damaged");
  }
  auto index_bytes = file_.read(static_cast<std::uint64_t>(index_offset_),
                                static_cast<std::size_t>(size - trailer_size - index_offset_));
  if (!index_bytes) return index_bytes.error();
  ByteCursor meta_index(*index_bytes, static_cast<std::uint64_t>(index_offset_));
  auto count = meta_index.tfile_vlong();
  if (!count || *count < 0 || *count > 1024) return damaged(meta_index, "the meta index has no sensible count");
  std::optional<BlockRegion> data_index_region;
  std::string data_index_algorithm;
  for (std::int64_t i = 0; i < *count; ++i) {
    auto entry_name = meta_index.tfile_string();
    auto algorithm = entry_name ? meta_index.tfile_string() : std::nullopt;
    if (!algorithm) return damaged(meta_index, "a meta index entry ends early");
    auto entry_region = region(meta_index);
    if (!entry_region) return entry_region.error();
    if (*entry_name == "data:BCFile.index") {
      data_index_region = *entry_region;
      data_index_algorithm = *algorithm;
    }
  }
  if (!data_index_region) return damaged(meta_index, "the meta index has no BCFile.index entry");
  auto data_index = block(*data_index_region, data_index_algorithm, "data index");
  if (!data_index) return data_index.error();
  ByteCursor index(*data_index, static_cast<std::uint64_t>(data_index_region->offset));
  auto algorithm = index.tfile_string();
  auto blocks = algorithm ? index.tfile_vlong() : std::nullopt;
  if (!blocks || *blocks < 0 || static_cast<std::uint64_t>(*blocks) > size) {
    return damaged(index, "the data index has no sensible block count");
  }
  std::vector<AggregatedLog> logs;
  for (std::int64_t i = 0; i < *blocks; ++i) {
    auto data_region = region(index);
    if (!data_region) return data_region.error();
    auto data = block(*data_region, *algorithm, "data block " + std::to_string(i));
    if (!data) return data.error();
    if (auto read = read_entries(*data, data_region->offset, filter, logs); !read) return read.error();
  }
  return logs;
}

Result<void> TFileReader::read_entries(const std::string& data, std::int64_t block_offset,
                                       const AggregatedLogFilter& filter, std::vector<AggregatedLog>& logs) const {
  ByteCursor in(data, static_cast<std::uint64_t>(block_offset));
  while (!in.at_end()) {
    auto key_length = in.tfile_vlong();
    if (!key_length || *key_length < 0) return damaged(in, "an entry's key length is missing");
    auto key_bytes = in.bytes(static_cast<std::size_t>(*key_length));
    if (!key_bytes) return damaged(in, "an entry's key runs past its block");
    ByteCursor key_cursor(*key_bytes, in.offset());
    auto key = key_cursor.java_utf();
    if (!key) return damaged(in, "an entry's key is not a string");
    // The value comes in chunks: a negative length means more follow.
    std::string value;
    while (true) {
      auto chunk = in.tfile_vlong();
      if (!chunk) return damaged(in, "the value of " + *key + " ends early");
      const auto length = static_cast<std::uint64_t>(*chunk < 0 ? -*chunk : *chunk);
      auto piece = in.bytes(static_cast<std::size_t>(length));
      if (!piece) return damaged(in, "the value of " + *key + " runs past its block");
      value.append(*piece);
      if (*chunk >= 0) break;
    }
    if (*key == "VERSION" || *key == "APPLICATION_ACL" || *key == "APPLICATION_OWNER") continue;
    if (!filter.containers.empty() && !filter.containers.contains(*key)) continue;
    if (auto read = read_container(*key, value, block_offset, filter, logs); !read) return read;
  }
  return {};
}

Result<void> TFileReader::read_container(const std::string& container, const std::string& value,
                                         std::int64_t block_offset, const AggregatedLogFilter& filter,
                                         std::vector<AggregatedLog>& logs) const {
  ByteCursor in(value, static_cast<std::uint64_t>(block_offset));
  while (!in.at_end()) {
    auto file = in.java_utf();
    auto length_text = file ? in.java_utf() : std::nullopt;
    if (!length_text) return damaged(in, "a log header of " + container + " ends early");
    std::uint64_t length = 0;
    const auto* end = length_text->data() + length_text->size();
    if (auto [stop, error] = std::from_chars(length_text->data(), end, length); error != std::errc{} || stop != end) {
      return damaged(in, "the length \"" + *length_text + "\" of " + container + "'s " + *file + " is not a number");
    }
    auto contents = in.bytes(static_cast<std::size_t>(length));
    if (!contents || length > value.size()) {
      return damaged(in, container + "'s " + *file + " holds fewer than its " + std::to_string(length) + " bytes");
    }
    if (!filter.wants(container, *file)) continue;
    AggregatedLog log;
    log.container = container;
    log.file = *file;
    log.length = length;
    if (filter.contents) log.contents = std::string(*contents);
    logs.push_back(std::move(log));
  }
  return {};
}

}  // namespace

Result<std::string> MemoryByteSource::read(std::uint64_t offset, std::size_t length) {
  if (offset > bytes_.size() || length > bytes_.size() - offset) {
    return make_error("a read of " + std::to_string(length) + " bytes at byte " + std::to_string(offset) +
                      " goes past the end (" + std::to_string(bytes_.size()) + " bytes)");
  }
  return bytes_.substr(static_cast<std::size_t>(offset), length);
}

Result<std::vector<AggregatedLog>> read_tfile_logs(ByteSource& file, const std::string& name,
                                                   const AggregatedLogFilter& filter) {
  return TFileReader(file, name).read(filter);
}

}  // namespace spindle::yarn

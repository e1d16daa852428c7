#include "metrics/record_framing.h"

#include "metrics/crc32c.h"

namespace spindle::tfevents {
namespace {

std::uint32_t load_le32(std::string_view bytes) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
  return value;
}

std::uint64_t load_le64(std::string_view bytes) {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
  return value;
}

void append_le(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

ScannedRecord scan_record(std::string_view bytes) {
  ScannedRecord record;
  if (bytes.size() < record_header_size) return record;
  const std::string_view length_bytes = bytes.substr(0, 8);
  if (masked_crc32c(length_bytes) != load_le32(bytes.substr(8, 4))) {
    record.state = RecordState::bad_length_checksum;
    return record;
  }
  record.length = load_le64(length_bytes);
  if (record.length > longest_record) {
    record.state = RecordState::too_long;
    return record;
  }
  const std::size_t size = record_header_size + static_cast<std::size_t>(record.length) + record_footer_size;
  if (bytes.size() < size) return record;
  record.size = size;
  const std::string_view data = bytes.substr(record_header_size, static_cast<std::size_t>(record.length));
  if (masked_crc32c(data) != load_le32(bytes.substr(record_header_size + data.size(), 4))) {
    record.state = RecordState::bad_data_checksum;
    return record;
  }
  record.state = RecordState::whole;
  record.data = data;
  return record;
}

std::string frame_record(std::string_view data) {
  std::string record;
  record.reserve(record_header_size + data.size() + record_footer_size);
  append_le(record, data.size(), 8);
  append_le(record, masked_crc32c(record), 4);
  record.append(data);
  append_le(record, masked_crc32c(data), 4);
  return record;
}

}  // namespace spindle::tfevents

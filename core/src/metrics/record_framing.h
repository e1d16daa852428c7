#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace spindle::tfevents {

// A TFRecord: length (uint64 LE), masked CRC-32C of those 8 bytes, the data,
// masked CRC-32C of the data.
constexpr std::size_t record_header_size = 12;
constexpr std::size_t record_footer_size = 4;
// Far above any summary event (TensorFlow refuses protos over 2 GiB and
// graph definitions come nowhere near this); a larger length means the
// file is not an event file, and waiting for that many bytes would be
// waiting for ever.
constexpr std::uint64_t longest_record = std::uint64_t{256} << 20;

enum class RecordState { whole, cut_short, bad_length_checksum, bad_data_checksum, too_long };

struct ScannedRecord {
  RecordState state = RecordState::cut_short;
  std::uint64_t length = 0;  // the data's length, once the header is whole and sound
  std::string_view data;     // whole records only
  std::size_t size = 0;      // bytes the record takes, once its header is sound and all of it is there
};

// The record that starts `bytes`, which may stop anywhere.
ScannedRecord scan_record(std::string_view bytes);

// One record as TensorFlow writes it.
std::string frame_record(std::string_view data);

}  // namespace spindle::tfevents

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Reading big-endian fields off a piece of a file, as Java's DataOutput and
// Hadoop's TFile write them, while knowing at which byte of the file each
// one starts, so that a damaged file is reported where it broke.
namespace spindle::yarn::logs {

class ByteCursor {
 public:
  // `bytes` starts at `file_offset` of the file (for a decompressed block:
  // the offset of the block, since its bytes have no place of their own).
  ByteCursor(std::string_view bytes, std::uint64_t file_offset) : bytes_(bytes), base_(file_offset) {}

  bool at_end() const { return position_ == bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - position_; }
  std::uint64_t offset() const { return base_ + position_; }

  std::optional<std::uint8_t> u8();
  std::optional<std::uint16_t> u16();
  std::optional<std::int32_t> i32();
  std::optional<std::int64_t> i64();
  std::optional<std::string_view> bytes(std::size_t count);
  // TFile's variable-length integer (org.apache.hadoop.io.file.tfile.Utils),
  // which differs from WritableUtils' in its multi-byte forms.
  std::optional<std::int64_t> tfile_vlong();
  // A TFile string: a vint length, then UTF-8; a length of -1 is null (empty).
  std::optional<std::string> tfile_string();
  // DataOutput.writeUTF: a 16-bit length, then (modified) UTF-8.
  std::optional<std::string> java_utf();

 private:
  std::string_view bytes_;
  std::uint64_t base_;
  std::size_t position_ = 0;
};

}  // namespace spindle::yarn::logs

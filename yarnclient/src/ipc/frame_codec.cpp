#include "ipc/frame_codec.h"

namespace spindle::yarn::ipc {
namespace {

void append_varint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

std::optional<std::uint64_t> take_varint(std::string_view& bytes) {
  std::uint64_t value = 0;
  for (int shift = 0, i = 0; i < 10 && i < static_cast<int>(bytes.size()); ++i, shift += 7) {
    const auto byte = static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
    value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      bytes.remove_prefix(static_cast<std::size_t>(i) + 1);
      return value;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string connection_preamble(bool sasl) {
  std::string preamble = "hrpc";
  preamble.push_back(9);  // IPC version
  preamble.push_back(0);  // service class
  preamble.push_back(sasl ? static_cast<char>(-33) : 0);
  return preamble;
}

void append_delimited(std::string& out, const google::protobuf::MessageLite& message) {
  const std::string bytes = message.SerializeAsString();
  append_varint(out, bytes.size());
  out += bytes;
}

std::string encode_frame(std::initializer_list<const google::protobuf::MessageLite*> messages) {
  std::string body;
  for (const auto* message : messages) append_delimited(body, *message);
  const auto length = static_cast<std::uint32_t>(body.size());
  std::string frame;
  frame.reserve(4 + body.size());
  for (int shift = 24; shift >= 0; shift -= 8) frame.push_back(static_cast<char>((length >> shift) & 0xFF));
  frame += body;
  return frame;
}

Result<std::string_view> take_delimited(std::string_view& bytes) {
  const auto length = take_varint(bytes);
  if (!length) return make_error("a message length in the response is cut off or malformed");
  if (*length > bytes.size()) {
    return make_error("a message in the response claims " + std::to_string(*length) + " bytes but only " +
                      std::to_string(bytes.size()) + " follow");
  }
  const auto message = bytes.substr(0, *length);
  bytes.remove_prefix(*length);
  return message;
}

Result<void> read_delimited(std::string_view& bytes, google::protobuf::MessageLite& message) {
  auto taken = take_delimited(bytes);
  if (!taken) return taken.error();
  if (!message.ParseFromArray(taken->data(), static_cast<int>(taken->size()))) {
    return make_error("a message in the response does not parse as " + message.GetTypeName());
  }
  return {};
}

Result<ResponseFrame> decode_response(std::string_view frame) {
  ResponseFrame response;
  if (auto header = read_delimited(frame, response.header); !header) {
    return make_error("the response header is broken: " + header.error().message);
  }
  response.body.assign(frame);
  return response;
}

Result<std::optional<std::string>> FrameSplitter::next() {
  const std::size_t available = buffer_.size() - offset_;
  if (available < 4) return std::optional<std::string>{};
  const auto* p = reinterpret_cast<const unsigned char*>(buffer_.data() + offset_);
  const std::uint32_t length =
      (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
  // Older servers answer a bad preamble with -1, i.e. 0xFFFFFFFF.
  if (length == 0xFFFFFFFF) {
    return make_error("the server rejected the connection header; it speaks a Hadoop IPC version before 9");
  }
  if (length == 0 || length > max_frame_bytes_) {
    return make_error("the server sent a frame of " + std::to_string(length) +
                      " bytes, which no Hadoop server sends; is this port a Hadoop RPC port?");
  }
  if (available - 4 < length) return std::optional<std::string>{};
  std::string frame = buffer_.substr(offset_ + 4, length);
  offset_ += 4 + length;
  // Drop consumed bytes now and then, not on every frame.
  if (offset_ > 64 * 1024 && offset_ * 2 > buffer_.size()) {
    buffer_.erase(0, offset_);
    offset_ = 0;
  }
  return std::optional<std::string>{std::move(frame)};
}

std::string describe_error(const hadoop::RpcResponseHeader& header) {
  std::string text = header.exception_class_name().empty() ? "an error" : header.exception_class_name();
  if (!header.error_message().empty()) {
    // Java error messages often carry a whole stack trace; its first line says it.
    const auto first_line = header.error_message().substr(0, header.error_message().find('\n'));
    text += ": " + first_line;
  }
  return text;
}

}  // namespace spindle::yarn::ipc

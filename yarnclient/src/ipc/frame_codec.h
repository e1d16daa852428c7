#pragma once

#include <google/protobuf/message_lite.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "hadoop_ipc.pb.h"
#include "spindle/core/result.h"

namespace spindle::yarn::ipc {

namespace hadoop = spindle::wire::hadoop;

// Call ids Hadoop reserves for what is not a call.
inline constexpr std::int32_t auth_failed_call_id = -1;
inline constexpr std::int32_t connection_context_call_id = -3;
inline constexpr std::int32_t ping_call_id = -4;
inline constexpr std::int32_t sasl_call_id = -33;

// Hadoop's own cap on a response (ipc.maximum.response.length).
inline constexpr std::size_t default_max_frame_bytes = 128 * 1024 * 1024;

// "hrpc", version 9, service class 0, then NONE (0) or SASL (-33).
std::string connection_preamble(bool sasl);

// Appends a message preceded by its length as a varint, as protobuf's
// writeDelimitedTo does.
void append_delimited(std::string& out, const google::protobuf::MessageLite& message);

// One frame: a 4-byte big-endian length, then each message varint-delimited.
std::string encode_frame(std::initializer_list<const google::protobuf::MessageLite*> messages);

// A response frame: its header, and what follows the header.
struct ResponseFrame {
  hadoop::RpcResponseHeader header;
  std::string body;

  // The call id as the int32 Hadoop meant (it travels as uint32).
  std::int32_t call_id() const { return static_cast<std::int32_t>(header.call_id()); }
};

// Decodes a frame without its length prefix.
Result<ResponseFrame> decode_response(std::string_view frame);

// Takes the bytes of one varint-delimited message from the front of `bytes`.
Result<std::string_view> take_delimited(std::string_view& bytes);

// Reads one varint-delimited message from the front of `bytes`, consuming it.
Result<void> read_delimited(std::string_view& bytes, google::protobuf::MessageLite& message);

// Cuts a byte stream into frames, whatever sizes the reads come in.
class FrameSplitter {
 public:
  explicit FrameSplitter(std::size_t max_frame_bytes = default_max_frame_bytes) : max_frame_bytes_(max_frame_bytes) {}

  void append(std::string_view bytes) { buffer_.append(bytes); }
  // The next whole frame (without its length), nothing while incomplete, or
  // an error for a length no Hadoop server sends.
  Result<std::optional<std::string>> next();

 private:
  std::size_t max_frame_bytes_;
  std::string buffer_;
  std::size_t offset_ = 0;
};

// "org.apache.hadoop.ipc.StandbyException: ..." style text of an error response.
std::string describe_error(const hadoop::RpcResponseHeader& header);

}  // namespace spindle::yarn::ipc

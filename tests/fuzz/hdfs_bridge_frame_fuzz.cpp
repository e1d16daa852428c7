// Any bytes as the body of a frame between the TensorFlow plugin and its
// HDFS bridge, read both as a request (the bridge's side) and as a reply (the
// plugin's): a value or a reason, never a crash or a room made for more than
// the input holds; what decodes must encode to the same bytes.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "spindle/hdfs_bridge/protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace spindle::hdfs_bridge;
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  DecodeError request_error;
  if (auto request = decode_request(body, request_error)) {
    if (std::string_view(encode(*request)).substr(4) != body) std::abort();
  } else if (request_error.message.empty() || request_error.message.size() > 200) {
    std::abort();
  }
  DecodeError reply_error;
  if (auto reply = decode_reply(body, reply_error)) {
    if (std::string_view(encode(*reply)).substr(4) != body) std::abort();
  } else if (reply_error.message.empty() || reply_error.message.size() > 200) {
    std::abort();
  }
  return 0;
}

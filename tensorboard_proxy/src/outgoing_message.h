#pragma once

#include <boost/asio/buffer.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace spindle::tbproxy {

// One message the proxy sends, piece by piece: its head in one contiguous
// string, then body pieces framed as chunks or passed as they are. Each
// write gathers what is ready, so a small answer leaves in a single send.
class OutgoingMessage {
 public:
  OutgoingMessage(std::string head, bool chunked) : head_(std::move(head)), chunked_(chunked) {}

  // Makes pieces() the head (unless sent before) and `size` bytes of body at
  // `data`; `last` ends the body. The bytes must stay until they are written.
  void frame(const char* data, std::size_t size, bool last);
  const std::vector<boost::asio::const_buffer>& pieces() const { return pieces_; }
  // Drops what a partial write took.
  void consume(std::size_t bytes);
  // Whether the last frame ended the body.
  bool ended() const { return ended_; }

 private:
  std::string head_;
  bool chunked_;
  bool head_framed_ = false;
  bool ended_ = false;
  char chunk_line_[24] = {};
  std::vector<boost::asio::const_buffer> pieces_;
};

}  // namespace spindle::tbproxy

#include "outgoing_message.h"

#include <charconv>
#include <string_view>

namespace spindle::tbproxy {
namespace {

namespace net = boost::asio;

constexpr std::string_view chunk_end = "\r\n";
constexpr std::string_view last_chunk = "0\r\n\r\n";

}  // namespace

void OutgoingMessage::frame(const char* data, std::size_t size, bool last) {
  pieces_.clear();
  if (!head_framed_) {
    pieces_.emplace_back(head_.data(), head_.size());
    head_framed_ = true;
  }
  if (size > 0) {
    if (chunked_) {
      auto end = std::to_chars(chunk_line_, chunk_line_ + sizeof(chunk_line_) - 2, size, 16).ptr;
      *end++ = '\r';
      *end++ = '\n';
      pieces_.emplace_back(chunk_line_, static_cast<std::size_t>(end - chunk_line_));
    }
    pieces_.emplace_back(data, size);
    if (chunked_) pieces_.emplace_back(chunk_end.data(), chunk_end.size());
  }
  if (last && chunked_) pieces_.emplace_back(last_chunk.data(), last_chunk.size());
  ended_ = last;
}

void OutgoingMessage::consume(std::size_t bytes) {
  std::size_t whole = 0;
  while (whole < pieces_.size() && bytes >= pieces_[whole].size()) bytes -= pieces_[whole++].size();
  pieces_.erase(pieces_.begin(), pieces_.begin() + static_cast<std::ptrdiff_t>(whole));
  if (!pieces_.empty() && bytes > 0) pieces_.front() += bytes;
}

}  // namespace spindle::tbproxy

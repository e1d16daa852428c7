#include "spindle/hdfs_bridge/protocol.h"

#include <cstring>

namespace spindle::hdfs_bridge {
namespace {

void put_u32(std::string& out, std::uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>((value >> shift) & 0xff));
}

void put_i64(std::string& out, std::int64_t value) {
  const auto bits = static_cast<std::uint64_t>(value);
  for (int shift = 0; shift < 64; shift += 8) out.push_back(static_cast<char>((bits >> shift) & 0xff));
}

void put_text(std::string& out, std::string_view text) {
  put_u32(out, static_cast<std::uint32_t>(text.size()));
  out.append(text);
}

void put_entry(std::string& out, const Entry& entry) {
  put_text(out, entry.name);
  out.push_back(entry.directory ? 1 : 0);
  put_i64(out, entry.length);
  put_i64(out, entry.modified_ms);
}

std::string framed(std::string body) {
  std::string frame;
  frame.reserve(body.size() + 4);
  put_u32(frame, static_cast<std::uint32_t>(body.size()));
  frame += body;
  return frame;
}

// Reads fields off a body front to back; the first field that does not fit
// names itself in `error` and every later read fails too.
class Reader {
 public:
  Reader(std::string_view body, DecodeError& error) : rest_(body), error_(error) {}

  bool u8(const char* field, std::uint8_t& value) {
    if (!need(field, 1)) return false;
    value = static_cast<std::uint8_t>(rest_[0]);
    rest_.remove_prefix(1);
    return true;
  }
  bool boolean(const char* field, bool& value) {
    std::uint8_t byte = 0;
    if (!u8(field, byte)) return false;
    if (byte > 1) return fail(std::string(field) + " is " + std::to_string(byte) + ", not 0 or 1");
    value = byte == 1;
    return true;
  }
  bool u32(const char* field, std::uint32_t& value) {
    if (!need(field, 4)) return false;
    value = frame_length(rest_.data());
    rest_.remove_prefix(4);
    return true;
  }
  bool i64(const char* field, std::int64_t& value) {
    if (!need(field, 8)) return false;
    std::uint64_t bits = 0;
    for (int i = 7; i >= 0; --i) bits = (bits << 8) | static_cast<unsigned char>(rest_[static_cast<std::size_t>(i)]);
    value = static_cast<std::int64_t>(bits);
    rest_.remove_prefix(8);
    return true;
  }
  bool text(const char* field, std::string& value) {
    std::uint32_t size = 0;
    if (!u32(field, size)) return false;
    if (!need(field, size)) return false;
    value.assign(rest_.substr(0, size));
    rest_.remove_prefix(size);
    return true;
  }
  bool entry(Entry& value) {
    return text("entry name", value.name) && boolean("entry directory", value.directory) &&
           i64("entry length", value.length) && i64("entry modification time", value.modified_ms);
  }
  bool finished() {
    if (rest_.empty()) return true;
    return fail(std::to_string(rest_.size()) + " bytes follow the last field");
  }
  std::size_t left() const { return rest_.size(); }

 private:
  bool need(const char* field, std::size_t bytes) {
    if (rest_.size() >= bytes) return true;
    return fail(std::string("the frame ends inside its ") + field + " (" + std::to_string(bytes) + " bytes needed, " +
                std::to_string(rest_.size()) + " left)");
  }
  bool fail(std::string message) {
    if (error_.message.empty()) error_.message = std::move(message);
    rest_ = {};
    return false;
  }

  std::string_view rest_;
  DecodeError& error_;
};

}  // namespace

std::uint32_t frame_length(const char prefix[4]) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(prefix[i]);
  return value;
}

std::string encode(const Request& request) {
  std::string body;
  body.push_back(static_cast<char>(request.operation));
  put_text(body, request.path);
  put_text(body, request.second_path);
  put_i64(body, request.offset);
  put_i64(body, request.length);
  body.push_back(request.flag ? 1 : 0);
  put_text(body, request.data);
  return framed(std::move(body));
}

std::string encode(const Reply& reply) {
  std::string body;
  body.push_back(static_cast<char>(reply.outcome));
  put_text(body, reply.message);
  body.push_back(reply.flag ? 1 : 0);
  put_entry(body, reply.status);
  put_u32(body, static_cast<std::uint32_t>(reply.entries.size()));
  for (const auto& entry : reply.entries) put_entry(body, entry);
  put_text(body, reply.data);
  return framed(std::move(body));
}

std::optional<Request> decode_request(std::string_view body, DecodeError& error) {
  Reader reader(body, error);
  Request request;
  std::uint8_t operation = 0;
  if (!reader.u8("operation", operation)) return std::nullopt;
  if (operation < static_cast<std::uint8_t>(Operation::hello) ||
      operation > static_cast<std::uint8_t>(Operation::write)) {
    error.message = "operation " + std::to_string(operation) + " is none this bridge knows";
    return std::nullopt;
  }
  request.operation = static_cast<Operation>(operation);
  if (!reader.text("path", request.path) || !reader.text("second path", request.second_path) ||
      !reader.i64("offset", request.offset) || !reader.i64("length", request.length) ||
      !reader.boolean("flag", request.flag) || !reader.text("data", request.data) || !reader.finished()) {
    return std::nullopt;
  }
  if (request.offset < 0 || request.length < 0) {
    error.message =
        "a negative offset or length (" + std::to_string(request.offset) + ", " + std::to_string(request.length) + ")";
    return std::nullopt;
  }
  return request;
}

std::optional<Reply> decode_reply(std::string_view body, DecodeError& error) {
  Reader reader(body, error);
  Reply reply;
  std::uint8_t outcome = 0;
  if (!reader.u8("outcome", outcome)) return std::nullopt;
  if (outcome > static_cast<std::uint8_t>(Outcome::failed)) {
    error.message = "outcome " + std::to_string(outcome) + " is none this plugin knows";
    return std::nullopt;
  }
  reply.outcome = static_cast<Outcome>(outcome);
  std::uint32_t count = 0;
  if (!reader.text("message", reply.message) || !reader.boolean("flag", reply.flag) || !reader.entry(reply.status) ||
      !reader.u32("entry count", count)) {
    return std::nullopt;
  }
  // Each entry takes at least 21 bytes, so a count the frame cannot hold is refused before any room is made.
  if (count > reader.left() / 21) {
    error.message =
        "the frame names " + std::to_string(count) + " entries but holds " + std::to_string(reader.left()) + " bytes";
    return std::nullopt;
  }
  reply.entries.resize(count);
  for (auto& entry : reply.entries) {
    if (!reader.entry(entry)) return std::nullopt;
  }
  if (!reader.text("data", reply.data) || !reader.finished()) return std::nullopt;
  return reply;
}

}  // namespace spindle::hdfs_bridge

#pragma once

// The frames between a process that uses hdfs:// (the TensorFlow file system
// plugin) and the bridge process that reaches HDFS for it
// (docs/architecture.md, "hdfs:// inside the task"). Both ends are ours and
// run on the same node, over a socket pair; the bridge still checks every
// frame, since a broken or hostile peer must not crash it.
//
// A frame is a 4-byte little-endian length and that many bytes. Every
// request carries every field and every reply too, in a fixed order, so a
// reader needs no table of which operation has which field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::hdfs_bridge {

// The largest frame either end accepts: a write of a 64 MiB piece, or a read
// of one, with room for the other fields.
inline constexpr std::uint32_t max_frame_bytes = 80u * 1024 * 1024;

enum class Operation : std::uint8_t {
  hello = 1,             // is the bridge there; answers its version in `message`
  stat = 2,              // path
  list = 3,              // path
  make_directories = 4,  // path, with its parents
  remove = 5,            // path; flag: recursively
  rename = 6,            // path to second_path, over a file there
  read = 7,              // path from offset, up to length bytes
  write = 8,             // data to path at offset: 0 creates (over what is there), more appends
};

enum class Outcome : std::uint8_t {
  ok = 0,
  not_found = 1,
  already_exists = 2,
  permission_denied = 3,
  unauthenticated = 4,  // the cluster refused who we are (an expired or cancelled token)
  invalid = 5,          // the request itself is wrong
  not_empty = 6,        // a directory removed without `recursive` holds files
  unavailable = 7,      // HDFS could not be reached; asking again later may work
  failed = 8,           // anything else; `message` says what
};

struct Request {
  Operation operation = Operation::hello;
  std::string path;         // of the file system: /user/alice/x, never a URI
  std::string second_path;  // rename's destination; a write's spool file
  std::int64_t offset = 0;
  std::int64_t length = 0;
  bool flag = false;
  std::string data;
};

struct Entry {
  std::string name;  // the last component; empty for the path asked about itself
  bool directory = false;
  std::int64_t length = 0;
  std::int64_t modified_ms = 0;
};

struct Reply {
  Outcome outcome = Outcome::ok;
  std::string message;         // what went wrong, a sentence a user can act on
  bool flag = false;           // remove: something was removed
  Entry status;                // stat
  std::vector<Entry> entries;  // list
  std::string data;            // read
};

// A frame's bytes (length prefix included).
std::string encode(const Request& request);
std::string encode(const Reply& reply);

// A frame's body (without its length prefix), or the reason it is not one.
struct DecodeError {
  std::string message;
};
std::optional<Request> decode_request(std::string_view body, DecodeError& error);
std::optional<Reply> decode_reply(std::string_view body, DecodeError& error);

// The body length a 4-byte prefix announces.
std::uint32_t frame_length(const char prefix[4]);

}  // namespace spindle::hdfs_bridge

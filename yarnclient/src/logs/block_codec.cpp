#include "logs/block_codec.h"

#include <zlib.h>

#include <algorithm>

namespace spindle::yarn::logs {
namespace {

// zlib expands at most about 1032 to 1; a size beyond that is a damaged
// length, refused before any memory is taken for it.
constexpr std::uint64_t max_expansion = 1032;

Result<std::string> inflate_zlib(std::string_view stored, std::uint64_t expected_size, const std::string& where) {
  if (expected_size > stored.size() * max_expansion + 64) {
    return make_error(where + " claims " + std::to_string(expected_size) + " bytes from " +
                      std::to_string(stored.size()) + " compressed ones, more than zlib can hold; the file is damaged");
  }
  // The output grows with what zlib really produces, so a damaged length
  // costs nothing until the data backs it.
  std::string out;
  out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(expected_size, stored.size() * 4 + 4096)));
  char piece[64 * 1024];
  std::size_t consumed = 0;
  // A writer may have finished one stream and begun another within a
  // block; each is inflated in turn until the expected bytes are there.
  while (out.size() < expected_size) {
    if (consumed >= stored.size()) {
      return make_error(where + " ends after " + std::to_string(out.size()) + " of its " +
                        std::to_string(expected_size) + " bytes when expanded; the file is cut short or damaged");
    }
    z_stream stream{};
    // 15 window bits, plus 32: zlib or gzip framing, told from the header.
    if (inflateInit2(&stream, 15 + 32) != Z_OK) return make_error("cannot start zlib to read " + where);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stored.data() + consumed));
    stream.avail_in = static_cast<uInt>(stored.size() - consumed);
    int status = Z_OK;
    while (status == Z_OK && out.size() < expected_size) {
      const auto room = std::min<std::uint64_t>(sizeof piece, expected_size - out.size());
      stream.next_out = reinterpret_cast<Bytef*>(piece);
      stream.avail_out = static_cast<uInt>(room);
      status = inflate(&stream, Z_NO_FLUSH);
      out.append(piece, static_cast<std::size_t>(room - stream.avail_out));
      if (status == Z_BUF_ERROR && stream.avail_in == 0) break;  // the input ended inside the stream
    }
    const std::string problem = stream.msg ? stream.msg : "invalid data";
    consumed += stream.total_in;
    inflateEnd(&stream);
    if (status == Z_STREAM_END || out.size() == expected_size) continue;
    if (status == Z_BUF_ERROR) {
      return make_error(where + " is cut short: its compressed data ends after " + std::to_string(out.size()) + " of " +
                        std::to_string(expected_size) + " bytes");
    }
    return make_error(where + " is damaged: zlib cannot expand it at its byte " + std::to_string(consumed) + " (" +
                      problem + ")");
  }
  return out;
}

}  // namespace

Result<std::string> decompress(std::string_view stored, const std::string& algorithm, std::uint64_t expected_size,
                               const std::string& where) {
  if (algorithm == "none") {
    if (stored.size() < expected_size) {
      return make_error(where + " holds " + std::to_string(stored.size()) + " bytes where " +
                        std::to_string(expected_size) + " were written; the file is cut short");
    }
    return std::string(stored.substr(0, static_cast<std::size_t>(expected_size)));
  }
  if (algorithm == "gz") return inflate_zlib(stored, expected_size, where);
  if (algorithm == "lzo") {
    return make_error(where +
                      " is compressed with LZO, which Spindle does not read; set "
                      "yarn.nodemanager.log-aggregation.compression-type to gz or none, or read it with "
                      "yarn logs");
  }
  return make_error(where + " names the compression \"" + algorithm +
                    "\", which no YARN release writes; the file is damaged or not an aggregated log");
}

}  // namespace spindle::yarn::logs

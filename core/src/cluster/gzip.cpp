#include "spindle/core/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <climits>

namespace spindle {

std::string gzip_compress(std::string_view plain) {
  z_stream stream{};
  // 15 window bits plus 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&stream, static_cast<uLong>(plain.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
  stream.avail_in = static_cast<uInt>(plain.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return status == Z_STREAM_END ? out : std::string();
}

Result<std::string> gzip_decompress(std::string_view compressed, std::size_t limit) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) return make_error("zlib could not start to expand a gzip answer");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(std::min<std::size_t>(compressed.size(), UINT_MAX));
  std::string out;
  int status = Z_OK;
  while (status == Z_OK) {
    const std::size_t had = out.size();
    if (had >= limit) break;
    out.resize(std::min(limit, std::max<std::size_t>(had * 2, compressed.size() * 4 + 1024)));
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + had);
    stream.avail_out = static_cast<uInt>(out.size() - had);
    status = inflate(&stream, Z_NO_FLUSH);
    out.resize(out.size() - stream.avail_out);
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) {
    return make_error(status == Z_OK ? "a gzip answer expands beyond " + std::to_string(limit) + " bytes"
                                     : "a gzip answer is damaged or cut short");
  }
  return out;
}

}  // namespace spindle

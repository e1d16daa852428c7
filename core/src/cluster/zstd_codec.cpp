#include "spindle/core/zstd_codec.h"

#include <zstd.h>

#include <algorithm>
#include <memory>

namespace spindle {
namespace {

// Fast and still a third of gzip's size on a list of addresses: the answer
// is made once per version, but while every executor waits for it.
constexpr int compression_level = 3;

}  // namespace

std::string zstd_compress(std::string_view plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  const std::size_t written = ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), compression_level);
  if (ZSTD_isError(written)) return {};
  out.resize(written);
  return out;
}

Result<std::string> zstd_decompress(std::string_view compressed, std::size_t limit) {
  std::unique_ptr<ZSTD_DStream, decltype(&ZSTD_freeDStream)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
  if (!stream) return make_error("zstd could not start to expand an answer");
  ZSTD_inBuffer in{compressed.data(), compressed.size(), 0};
  std::string out;
  std::size_t status = 1;
  while (status != 0) {
    if (out.size() >= limit) return make_error("a zstd answer expands beyond " + std::to_string(limit) + " bytes");
    const std::size_t had = out.size();
    out.resize(std::min(limit, std::max<std::size_t>(had * 2, compressed.size() * 4 + 1024)));
    ZSTD_outBuffer buffer{out.data() + had, out.size() - had, 0};
    status = ZSTD_decompressStream(stream.get(), &buffer, &in);
    out.resize(had + buffer.pos);
    if (ZSTD_isError(status)) {
      return make_error(std::string("a zstd answer is damaged: ") + ZSTD_getErrorName(status));
    }
    if (status != 0 && in.pos == in.size && buffer.pos < buffer.size) {
      return make_error("a zstd answer is cut short");
    }
  }
  if (in.pos != in.size) return make_error("a zstd answer has bytes after its frame");
  return out;
}

}  // namespace spindle

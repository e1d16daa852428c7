// Bytes a task executor may get as the cluster answer, read as gzip and as
// zstd: either an answer within the limit or a sentence, never a crash and
// never more than the limit. What the server's encoders make of the same
// bytes must always read back whole.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "spindle/core/gzip.h"
#include "spindle/core/zstd_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  constexpr std::size_t limit = 1 << 20;
  for (auto decoded : {spindle::gzip_decompress(bytes, limit), spindle::zstd_decompress(bytes, limit)}) {
    if (decoded && decoded->size() > limit) std::abort();
    if (!decoded && decoded.error().message.empty()) std::abort();
  }
  const std::string gzip = spindle::gzip_compress(bytes);
  auto gzip_back = spindle::gzip_decompress(gzip);
  if (!gzip_back || *gzip_back != bytes) std::abort();
  const std::string zstd = spindle::zstd_compress(bytes);
  auto zstd_back = spindle::zstd_decompress(zstd);
  if (!zstd_back || *zstd_back != bytes) std::abort();
  return 0;
}

#include "static_assets.h"

#include "spindle/core/gzip.h"
#include "spindle/core/sha256.h"

namespace spindle::serve {

StaticAssets::StaticAssets() {
  for (const auto& file : embedded_web_files()) {
    Asset asset;
    asset.content_type = std::string(file.content_type);
    asset.plain = file.bytes;
    asset.gzip = gzip_compress(file.bytes);
    asset.etag = "\"" + sha256_hex(file.bytes).substr(0, 16) + "\"";
    assets_.emplace(std::string(file.path), std::move(asset));
  }
}

const StaticAssets::Asset* StaticAssets::find(std::string_view path) const {
  if (path == "/") path = "/index.html";
  const auto found = assets_.find(path);
  return found == assets_.end() ? nullptr : &found->second;
}

std::size_t StaticAssets::first_load_bytes() const {
  std::size_t total = 0;
  for (const auto& [path, asset] : assets_) total += std::min(asset.gzip.size(), asset.plain.size());
  return total;
}

}  // namespace spindle::serve

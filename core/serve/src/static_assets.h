#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>

namespace spindle::serve {

// A file of the dashboard's front end, built into the binary.
struct EmbeddedFile {
  std::string_view path;  // as requested: "/app.js"
  std::string_view content_type;
  std::string_view bytes;
};

// Generated at build time from core/serve/web and the pinned npm packages.
std::span<const EmbeddedFile> embedded_web_files();

// The front end as it is served: each file with its gzip form and an ETag,
// made once when the server starts.
class StaticAssets {
 public:
  struct Asset {
    std::string content_type;
    std::string_view plain;
    std::string gzip;
    std::string etag;
  };

  StaticAssets();
  // "/" is the page itself; nothing for unknown paths.
  const Asset* find(std::string_view path) const;
  // What the page costs a browser on its first load (gzip where it helps).
  std::size_t first_load_bytes() const;

 private:
  std::map<std::string, Asset, std::less<>> assets_;
};

}  // namespace spindle::serve

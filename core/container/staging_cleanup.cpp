#include "container/staging_cleanup.h"

#include <filesystem>

#include "container/hdfs_access.h"

namespace spindle::container {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// "/webhdfs/v1/user/a%20b?user.name=u" -> "/user/a b"; empty when it is no WebHDFS path.
std::string hdfs_path_of(const std::string& location) {
  constexpr std::string_view prefix = "/webhdfs/v1";
  const auto start = location.find(prefix, location.find("://") + 3);
  if (start == std::string::npos) return "";
  const auto escaped = location.substr(start + prefix.size(), location.find('?') - start - prefix.size());
  std::string path;
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] == '%' && i + 2 < escaped.size() && hex_value(escaped[i + 1]) >= 0 &&
        hex_value(escaped[i + 2]) >= 0) {
      path.push_back(static_cast<char>(hex_value(escaped[i + 1]) * 16 + hex_value(escaped[i + 2])));
      i += 2;
    } else {
      path.push_back(escaped[i]);
    }
  }
  return path;
}

}  // namespace

Result<void> remove_staging(const std::string& location, const ContainerContext& context) {
  if (location.empty()) return {};
  if (location.starts_with("file://")) {
    std::error_code ec;
    std::filesystem::remove_all(location.substr(std::string_view("file://").size()), ec);
    if (ec) return make_error("cannot remove the staging directory " + location + ": " + ec.message());
    return {};
  }
  const auto path = hdfs_path_of(location);
  if (!(location.starts_with("http://") || location.starts_with("https://")) || path.empty() || path == "/") {
    return make_error("the staging location \"" + location + "\" is neither file:// nor a WebHDFS http(s):// URL");
  }
  auto hdfs = container_hdfs(context);
  if (!hdfs) return make_error("cannot remove the staging directory " + path + ": " + hdfs.error().message);
  // false: nothing was there, which is what was wanted.
  auto removed = hdfs->remove(path, true);
  if (!removed) return make_error("cannot remove the staging directory " + path + ": " + removed.error().message);
  return {};
}

}  // namespace spindle::container

#include "client/container_binary.h"

#include <cstdlib>

#include "spindle/client/cluster_cache.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/program_output.h"
#include "spindle/core/sha256.h"
#include "spindle/core/version.h"

namespace spindle::client {

std::filesystem::path default_container_binary() {
  if (const char* explicit_path = std::getenv("SPINDLE_CONTAINER_BINARY"); explicit_path && *explicit_path) {
    return explicit_path;
  }
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return self.parent_path() / container_contract::binary_name;
}

Result<std::string> container_binary_version(const std::filesystem::path& path) {
  // A binary that hangs must not hang submit.
  auto output = program_output(path.string(), {"--version"}, std::chrono::seconds(10));
  if (!output) {
    return make_error(output.error().message + "; " + path.string() +
                      " is not a working spindle-container for this machine");
  }
  while (!output->empty() && (output->back() == '\n' || output->back() == '\r')) output->pop_back();
  return *output;
}

Result<void> check_container_binary(const std::filesystem::path& path) {
  auto printed = container_binary_version(path);
  if (!printed) return printed.error();
  const std::string wanted = container_contract::version_banner_prefix + std::string(version);
  if (*printed != wanted) {
    return make_error("the container binary " + path.string() + " says \"" + *printed + "\", but this is spindle " +
                      version + "; stage the spindle-container built with it (SPINDLE_CONTAINER_BINARY names it)");
  }
  return {};
}

Result<CachedContainerBinary> cached_container_binary(const yarn::HadoopConfiguration& configuration,
                                                      const std::filesystem::path& path) {
  auto digest = file_sha256(path);
  if (!digest) return digest.error();
  const std::string name = std::string("spindle-container-") + version + "-" + digest->substr(0, 16);
  auto cache = ClusterCache::open(configuration, CacheArea::container_binaries);
  if (!cache) return cache.error();
  auto found = (*cache)->find(name);
  if (!found) return found.error();
  if (*found) return CachedContainerBinary{std::move(**found), false};
  auto uploaded = (*cache)->upload(path, name, nullptr);
  if (!uploaded) return uploaded.error();
  return CachedContainerBinary{std::move(*uploaded), true};
}

}  // namespace spindle::client

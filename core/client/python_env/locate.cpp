#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include "spindle/client/python_env.h"
#include "spindle/core/python_env_path.h"

namespace spindle::client {
namespace {

namespace fs = std::filesystem;

// A directory named by VIRTUAL_ENV, CONDA_PREFIX or the first python3 on PATH.
Result<PythonEnvironment> environment_directory(const fs::path& directory, const std::string& how_found) {
  auto kind = python_env_kind(directory);
  if (!kind) return make_error(how_found + kind.error().message);
  if (*kind != PythonEnvKind::venv && *kind != PythonEnvKind::conda) {
    return make_error(how_found + directory.string() + " is not an environment's directory");
  }
  return PythonEnvironment{*kind, directory};
}

// The first python3 on PATH, as a shell would find it; not resolved through
// links, since a venv's python3 is a link to its base interpreter.
std::optional<fs::path> python_on_path() {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (true) {
    const auto colon = rest.find(':');
    const std::string directory(rest.substr(0, colon));
    if (!directory.empty()) {
      const auto candidate = fs::path(directory) / "python3";
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    if (colon == std::string_view::npos) return std::nullopt;
    rest = rest.substr(colon + 1);
  }
}

}  // namespace

Result<PythonEnvironment> locate_python_env(const std::string& choice) {
  if (python_env_on_nodes(choice)) {
    return make_error("python_env " + choice +
                      " is an environment installed on the nodes; there is nothing here to pack or ship");
  }
  if (choice == "current") {
    if (const char* venv = std::getenv("VIRTUAL_ENV"); venv && *venv) {
      return environment_directory(venv, "python_env: current is VIRTUAL_ENV, but ");
    }
    if (const char* conda = std::getenv("CONDA_PREFIX"); conda && *conda) {
      return environment_directory(conda, "python_env: current is CONDA_PREFIX, but ");
    }
    const auto python = python_on_path();
    if (!python)
      return make_error("python_env: current, but there is no python3 on PATH; name an environment's directory");
    const auto root = python->parent_path().parent_path();
    std::error_code ec;
    if (!fs::exists(root / "pyvenv.cfg", ec) && !fs::exists(root / "conda-meta", ec)) {
      return make_error("python_env: current, but the first python3 on PATH, " + python->string() +
                        ", belongs to no venv or conda environment; activate one or name its directory");
    }
    return environment_directory(root, "python_env: current is the environment of " + python->string() + ", but ");
  }
  if (choice.empty()) return make_error("python_env is empty; give current, an environment's directory or an archive");
  const fs::path path = fs::absolute(choice).lexically_normal();
  auto kind = python_env_kind(path);
  if (!kind) return make_error("python_env: " + kind.error().message);
  return PythonEnvironment{*kind, path};
}

fs::path default_pack_cache() {
  if (const char* cache = std::getenv("SPINDLE_CACHE"); cache && *cache) return fs::path(cache) / "python-envs";
  const char* home = std::getenv("HOME");
  return fs::path(home && *home ? home : "/tmp") / ".cache/spindle/python-envs";
}

}  // namespace spindle::client

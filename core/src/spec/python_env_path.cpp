#include "spindle/core/python_env_path.h"

#include <system_error>

namespace spindle {

Result<PythonEnvKind> python_env_kind(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) {
    return make_error(path.string() +
                      " does not exist; give current, a venv or conda directory, or an archive (.tar.gz, .tgz, .zip, "
                      ".pex)");
  }
  if (fs::is_directory(status)) {
    if (fs::exists(path / "conda-meta", ec)) return PythonEnvKind::conda;
    if (!fs::exists(path / "pyvenv.cfg", ec)) {
      return make_error(path.string() +
                        " is not a Python environment: it has neither pyvenv.cfg (a venv) nor conda-meta (a conda "
                        "environment)");
    }
    if (!fs::exists(path / "bin/python3", ec) && !fs::exists(path / "bin/python", ec)) {
      return make_error(path.string() +
                        " is a venv without a working bin/python3; its base interpreter may be gone: make it again");
    }
    return PythonEnvKind::venv;
  }
  const auto name = path.filename().string();
  if (name.ends_with(".tar.gz") || name.ends_with(".tgz") || name.ends_with(".zip")) return PythonEnvKind::archive;
  if (name.ends_with(".pex")) return PythonEnvKind::pex;
  return make_error(path.string() +
                    " is neither an environment's directory nor an archive (.tar.gz, .tgz, .zip, .pex)");
}

std::optional<std::string> python_env_on_nodes(std::string_view python_env) {
  if (!python_env.starts_with(python_env_on_nodes_prefix)) return std::nullopt;
  return std::string(python_env.substr(python_env_on_nodes_prefix.size()));
}

}  // namespace spindle

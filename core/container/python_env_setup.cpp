#include "container/python_env_setup.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <vector>

#include "spindle/core/container_contract.h"
#include "spindle/core/python_env_path.h"
#include "spindle/core/text.h"

namespace spindle::container {
namespace {

namespace fs = std::filesystem;

// The value of `home` in pyvenv.cfg: the directory of the base interpreter.
std::string base_home(const fs::path& configuration) {
  std::ifstream in(configuration);
  std::string line;
  while (std::getline(in, line)) {
    const auto equals = line.find('=');
    if (equals != std::string::npos && trim(std::string_view(line).substr(0, equals)) == "home") {
      return std::string(trim(std::string_view(line).substr(equals + 1)));
    }
  }
  return "";
}

void prepend_path(std::map<std::string, std::string>& environment, const fs::path& directory) {
  const auto existing = environment.find("PATH");
  const std::string rest =
      existing == environment.end() || existing->second.empty() ? "/usr/bin:/bin" : existing->second;
  environment["PATH"] = directory.string() + ":" + rest;
}

Result<void> use_venv(const fs::path& root, const std::string& node, std::map<std::string, std::string>& environment) {
  // The interpreter links of a venv name the base interpreter, which the node must have.
  for (const char* name : {"python3", "python"}) {
    const auto interpreter = root / "bin" / name;
    std::error_code ec;
    if (!fs::is_symlink(interpreter, ec)) continue;
    struct stat info {};
    if (::stat(interpreter.c_str(), &info) != 0) {
      auto target = fs::read_symlink(interpreter, ec);
      if (!target.is_absolute()) target = fs::weakly_canonical(interpreter.parent_path() / target, ec);
      const auto home = base_home(root / "pyvenv.cfg");
      return make_error("python_env needs the base interpreter " + target.string() +
                        (home.empty() ? std::string() : " (pyvenv.cfg: home = " + home + ")") + ", which node " + node +
                        " lacks; install that Python at that path on every node, or build the environment from an "
                        "interpreter the nodes have");
    }
    break;
  }
  if (::access((root / "bin").c_str(), X_OK) != 0) {
    return make_error("python_env was localized on node " + node + " without a bin directory: " + root.string() +
                      " is not a venv; ship a venv, or an archive that unpacks to one");
  }
  prepend_path(environment, root / "bin");
  environment["VIRTUAL_ENV"] = root.string();
  environment.erase("PYTHONHOME");
  return {};
}

Result<void> use_pex(const fs::path& pex, const fs::path& container_directory,
                     std::map<std::string, std::string>& environment) {
  // A PEX acts as the interpreter with its packages when run with a script.
  const auto wrappers = container_directory / ".spindle-python";
  std::error_code ec;
  fs::create_directories(wrappers, ec);
  if (ec) return make_error("cannot make " + wrappers.string() + ": " + ec.message());
  for (const char* name : {"python", "python3"}) {
    const auto wrapper = wrappers / name;
    std::ofstream(wrapper) << "#!/bin/sh\nexec \"" << pex.string() << "\" \"$@\"\n";
    fs::permissions(wrapper, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec, ec);
  }
  prepend_path(environment, wrappers);
  environment["PEX_ROOT"] = (container_directory / ".pex").string();
  environment.erase("PYTHONHOME");
  return {};
}

// An environment installed on the node itself (python_env: node:/dir).
Result<void> use_installed(const fs::path& root, const std::string& node,
                           std::map<std::string, std::string>& environment) {
  std::error_code ec;
  if (!fs::is_directory(root / "bin", ec) || ::access((root / "bin").c_str(), X_OK) != 0) {
    return make_error("python_env node:" + root.string() + " is not installed on node " + node + ": " +
                      (root / "bin").string() +
                      " is missing; install the environment at that path on every node, or ship one (python_env: "
                      "current, or a venv's directory)");
  }
  if (fs::exists(root / "pyvenv.cfg", ec)) return use_venv(root, node, environment);
  prepend_path(environment, root / "bin");
  if (fs::exists(root / "conda-meta", ec)) environment["CONDA_PREFIX"] = root.string();
  environment.erase("PYTHONHOME");
  return {};
}

}  // namespace

Result<void> use_python_env(const std::string& python_env, const fs::path& container_directory, const std::string& node,
                            std::map<std::string, std::string>& environment) {
  if (auto installed = python_env_on_nodes(python_env)) return use_installed(*installed, node, environment);
  std::error_code ec;
  const auto unpacked = container_directory / container_contract::python_env_link_name;
  if (fs::is_directory(unpacked, ec)) {
    // An archive of one top directory (as some tools make them) is that directory's environment.
    fs::path root = unpacked;
    if (!fs::exists(root / "bin", ec)) {
      std::vector<fs::path> children;
      for (const auto& child : fs::directory_iterator(unpacked, ec)) children.push_back(child.path());
      if (children.size() == 1 && fs::exists(children.front() / "bin", ec)) root = children.front();
    }
    return use_venv(fs::absolute(root), node, environment);
  }
  const auto pex = container_directory / container_contract::python_env_pex_link_name;
  if (fs::exists(pex, ec)) return use_pex(fs::absolute(pex), container_directory, environment);
  return make_error("the job names a python_env, but YARN localized none in " + container_directory.string() +
                    " on node " + node);
}

}  // namespace spindle::container

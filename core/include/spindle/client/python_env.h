#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "spindle/core/python_env_path.h"
#include "spindle/core/result.h"

namespace spindle::client {

// A Python environment to ship with a job (spec key python_env).
struct PythonEnvironment {
  using Kind = PythonEnvKind;
  Kind kind = Kind::venv;
  std::filesystem::path path;  // the environment's directory, or the prepared archive
};

// "current" (VIRTUAL_ENV, then CONDA_PREFIX, then the environment of the
// first python3 on PATH), a venv or conda directory, or a prepared archive
// (.tar.gz, .tgz, .zip, .pex). Anything else is refused with a sentence.
Result<PythonEnvironment> locate_python_env(const std::string& choice);

// What identifies an environment's content without reading every byte: a
// hash over each entry's relative path, type, size, modification time in
// nanoseconds, permissions and link target, plus the packing format's
// version. Any file added, removed, rewritten or touched changes it.
Result<std::string> python_env_fingerprint(const PythonEnvironment& environment);

// What the designer shows before a submit: the name the environment is kept
// under on the cluster and how large it is here, from one stat pass.
struct EnvironmentSummary {
  std::string name;         // as PackedEnvironment::name
  std::uint64_t bytes = 0;  // of its files (an archive: the archive's size)
  std::size_t files = 0;
};
Result<EnvironmentSummary> summarize_python_env(const PythonEnvironment& environment);

struct PackedEnvironment {
  std::filesystem::path archive;  // on this machine
  std::string name;               // "<environment>-<fingerprint>.tar.gz": its name on the cluster
  std::uint64_t bytes = 0;
  bool packed_now = false;  // false: an archive packed earlier from the same content was reused
};

struct PackOptions {
  std::filesystem::path cache_directory;        // where packed archives are kept; empty: the default
  std::optional<std::filesystem::path> output;  // copy the archive here as well
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;  // bytes read from the environment
};

// Makes the environment relocatable while packing it: interpreter lines of
// scripts name `/usr/bin/env python3`, activate scripts find their own
// directory, and pyvenv.cfg keeps only where the base interpreter is. What
// cannot be relocated (a link or an editable install that points outside
// the environment, a conda environment with its prefix compiled into
// binaries) is refused naming the file. A prepared archive is checked
// (readable to its end) and used as it is.
Result<PackedEnvironment> pack_python_env(const PythonEnvironment& environment, const PackOptions& options = {});

// Where packed archives are kept on this machine: $SPINDLE_CACHE/python-envs,
// else ~/.cache/spindle/python-envs.
std::filesystem::path default_pack_cache();

}  // namespace spindle::client

#include "spindle/core/location_warnings.h"

#include <yaml-cpp/yaml.h>

#include <string_view>

namespace spindle {
namespace {

// A location every node reaches the same: a file system of the cluster
// (hdfs://, viewfs://, s3a://, ...). A bare path or file:// is one node's own.
bool is_local_path(std::string_view location) {
  if (location.empty()) return false;
  const auto scheme_end = location.find("://");
  return scheme_end == std::string_view::npos || location.substr(0, scheme_end) == "file";
}

// Where `key` is at the top of the spec file, if it can be read.
std::pair<int, int> place_of(const std::filesystem::path& spec_file, const std::string& key) {
  if (spec_file.empty()) return {0, 0};
  try {
    const YAML::Node root = YAML::LoadFile(spec_file.string());
    if (!root.IsMap()) return {0, 0};
    for (const auto& entry : root) {
      if (entry.first.Scalar() == key) return {entry.first.Mark().line + 1, entry.first.Mark().column + 1};
    }
  } catch (const YAML::Exception&) {
    // The parser has said what is wrong with the file already.
  }
  return {0, 0};
}

}  // namespace

Diagnostics location_warnings(const JobSpec& spec, const std::filesystem::path& spec_file) {
  Diagnostics warnings;
  const auto warn = [&](const std::string& key, const std::string& location, const std::string& what) {
    if (!is_local_path(location)) return;
    const auto [line, column] = place_of(spec_file, key);
    warnings.push_back({spec_file.empty() ? std::string("command line") : spec_file.string(), line, column, key,
                        location + " is a path on each node's own disk: " + what +
                            "; use a directory in HDFS (hdfs:///user/<you>/...) unless every node mounts this "
                            "path (NFS)"});
  };
  warn("output", spec.output,
       "tasks on different nodes will not see each other's files there, and nothing is "
       "kept once the job's containers are gone");
  warn("input", spec.input, "each node must already hold the data at that path");
  return warnings;
}

}  // namespace spindle

#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spec/yaml_fields.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/spec_parser.h"

namespace spindle::detail {

// Reads `files:` or `archives:`, either a mapping of container name to source
// or a list of sources (the name is then the source's file name, less the
// archive extension for archives). Local sources resolve against the spec's
// directory and, when asked, must exist and be readable.
std::vector<ShippedFile> read_shipped_files(YamlFields& fields, const YAML::Node& node, const std::string& field,
                                            bool archives, const SpecParseOptions& options);

// Reads `script:`, a single local file shipped under its own name.
std::optional<ShippedFile> read_script(YamlFields& fields, const YAML::Node& node, const std::string& field,
                                       const std::string& source, const SpecParseOptions& options);

// Checks a local source; returns the absolute path, or the problem as a sentence.
struct LocalSourceCheck {
  std::string resolved;
  std::string problem;  // empty when fine
};
LocalSourceCheck check_local_source(const std::string& source, const std::filesystem::path& base_dir, bool must_exist,
                                    bool archive);

// Whether a source names a remote file system (hdfs://, viewfs://, s3a://...).
bool is_remote_source(std::string_view source);

// The container name a list entry gets.
std::string default_shipped_name(std::string_view source, bool archive);

}  // namespace spindle::detail

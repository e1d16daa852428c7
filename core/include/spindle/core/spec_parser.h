#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "spindle/core/diagnostic.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"

namespace spindle {

struct SpecParseOptions {
  // Shown in diagnostics; usually the spec file's path.
  std::string source_name = "<spec>";
  // Relative local paths in `files`, `archives` and `script` resolve against it.
  std::filesystem::path base_dir = ".";
  // Whether local files must exist and be readable (off for fuzzing and for
  // specs that are only rendered).
  bool check_files = true;
  // Whether the spec may have a `sweep` section, which parse_sweep_spec reads
  // (docs/sweeps.md); a job spec with one is refused, naming `spindle sweep`.
  bool sweep_section = false;
};

// Parses and validates a YAML or JSON job spec. Either the whole spec is valid
// and comes back normalized (local paths absolute, memory in MiB, defaults
// filled in), or every problem found comes back at once.
Result<JobSpec, Diagnostics> parse_job_spec(std::string_view text, const SpecParseOptions& options);

// A spec file's text, or one sentence on why it cannot be had (missing, a
// directory, too large, unreadable).
Result<std::string, Diagnostics> read_spec_file(const std::filesystem::path& path);

// Reads and parses a spec file; its directory becomes the base directory.
Result<JobSpec, Diagnostics> load_job_spec(const std::filesystem::path& path, bool check_files = true);

// Checks the rules that span the whole spec (task combinations, output
// directory for tensorboard, ...). parse_job_spec runs it; the shorthand and
// the GUI's designer run it on specs they build.
Diagnostics check_job_rules(const JobSpec& spec, const std::string& source_name);

}  // namespace spindle

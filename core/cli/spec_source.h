#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "spindle/core/diagnostic.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"
#include "spindle/core/shorthand.h"

namespace spindle::cli {

// Where a command's job comes from: a spec file, or the ytf-submit shorthand
// (-r "ps:1,worker:2" ... -- COMMAND).
struct SpecSource {
  std::string spec_path;
  ShorthandOptions shorthand;
  std::vector<std::string> command_words;

  // Adds SPEC and the shorthand's options to a subcommand.
  void add_options(CLI::App& command);
  Result<JobSpec, Diagnostics> load(bool check_files) const;
  // The spec file, when the job comes from one (not the shorthand).
  std::filesystem::path spec_file() const;
};

// Prints diagnostics for a person (stderr) or as {"valid": false, "errors": [...]} (stdout).
void print_diagnostics(const Diagnostics& diagnostics, bool as_json);

}  // namespace spindle::cli

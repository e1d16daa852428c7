#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "spindle/core/diagnostic.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"

namespace spindle {

// The options of the ytf-submit command line:
//   -r "ps:1,worker:4" [-s SCRIPT] [-i INPUT] [-o OUTPUT] [-n NAME] [-q QUEUE]
//   [-m MEMORY] [-c VCORES] [-t] [--docker_image IMAGE] -- COMMAND
struct ShorthandOptions {
  std::string cluster_requirement;  // -r
  std::string script;               // -s, a local file shipped as DTF_TASK_SCRIPT
  std::string input;                // -i
  std::string output;               // -o
  std::string name = "TensorFlow";  // -n (ytf-submit's default)
  std::string queue = "default";    // -q
  std::string memory;               // -m, per task; empty keeps the default
  std::optional<int> vcores;        // -c, per task
  bool tensorboard = false;         // -t
  std::string docker_image;         // --docker_image
  std::string command;              // after --
};

// Builds and validates the job the shorthand describes. Diagnostics name the
// option that carried the bad value (e.g. "-r").
Result<JobSpec, Diagnostics> job_spec_from_shorthand(const ShorthandOptions& options,
                                                     const std::filesystem::path& base_dir, bool check_files = true);

}  // namespace spindle

#pragma once

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "spindle/core/job_spec.h"

namespace spindle::cli {

// --principal and --keytab, as `spindle submit` and `spindle sweep submit`
// take them (docs/secure-clusters.md, "Jobs that outlive their tokens").
struct KeytabFlags {
  std::string principal;
  std::string keytab;

  void add_to(CLI::App& command, std::string_view what);
  // Both or neither; the command line's login wins over the spec's kerberos
  // keys. False after one sentence on stderr under `command`'s name.
  bool apply(JobSpec& spec, std::string_view command) const;
};

}  // namespace spindle::cli

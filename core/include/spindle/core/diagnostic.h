#pragma once

#include <string>
#include <vector>

namespace spindle {

// One problem found in something a user wrote, with its place.
struct Diagnostic {
  std::string file;     // spec file, or the command-line option that carried the value
  int line = 0;         // 1-based; 0 when the problem has no single place
  int column = 0;       // 1-based; 0 when unknown
  std::string field;    // dotted path, e.g. "tasks.worker.memory"
  std::string message;  // what is wrong and what would be right

  // "train.yaml:12:5: tasks.worker.memory: ..." (parts without a value are left out)
  std::string to_string() const;
};

using Diagnostics = std::vector<Diagnostic>;

// All diagnostics, one per line.
std::string format_diagnostics(const Diagnostics& diagnostics);

}  // namespace spindle

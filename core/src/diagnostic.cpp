#include "spindle/core/diagnostic.h"

namespace spindle {

std::string Diagnostic::to_string() const {
  std::string out = file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (column > 0) out += ':' + std::to_string(column);
  }
  if (!out.empty()) out += ": ";
  if (!field.empty()) out += field + ": ";
  out += message;
  return out;
}

std::string format_diagnostics(const Diagnostics& diagnostics) {
  std::string out;
  for (const auto& diagnostic : diagnostics) {
    out += diagnostic.to_string();
    out += '\n';
  }
  return out;
}

}  // namespace spindle

#pragma once

#include <QString>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cluster/clusterinfo.h"
#include "spindle/core/diagnostic.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"

namespace spindle::gui {

// The designer's fields as core sees them: a spec document (JSON, which is
// YAML) parsed and validated by core, then checked against the cluster.
struct SpecCheck {
  nlohmann::ordered_json document;
  std::optional<JobSpec> spec;  // when core found nothing wrong
  Diagnostics diagnostics;      // core's, then the cluster's
  bool valid() const { return spec.has_value() && diagnostics.empty(); }
};

// `specPath` names the spec (diagnostics, the default job name) and its
// directory resolves relative paths; empty means a new spec, resolved
// against the current directory.
SpecCheck checkSpecDocument(const nlohmann::ordered_json& document, const QString& specPath, const ClusterInfo& cluster,
                            bool checkFiles = true);

// Opens a spec file as the CLI does; missing local files are reported by the
// designer afterwards, not here, so such a spec still opens.
Result<JobSpec, Diagnostics> loadSpecFile(const QString& path);

// What Save writes: the normalized YAML when the spec is valid (what
// `spindle validate` prints), else the document as typed, which core reads
// back to the same problems.
std::string specFileText(const SpecCheck& check);

}  // namespace spindle::gui

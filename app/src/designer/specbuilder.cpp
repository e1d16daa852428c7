#include "designer/specbuilder.h"

#include <QDir>
#include <QFileInfo>

#include "convert.h"
#include "designer/clusterchecks.h"
#include "spindle/core/spec_parser.h"
#include "spindle/core/spec_writer.h"

namespace spindle::gui {

SpecCheck checkSpecDocument(const nlohmann::ordered_json& document, const QString& specPath, const ClusterInfo& cluster,
                            bool checkFiles) {
  SpecCheck check;
  check.document = document;
  SpecParseOptions options;
  options.source_name = specPath.isEmpty() ? std::string("<designer>") : ss(specPath);
  options.base_dir = ss(specPath.isEmpty() ? QDir::currentPath() : QFileInfo(specPath).absolutePath());
  options.check_files = checkFiles;
  auto parsed = parse_job_spec(document.dump(), options);
  if (parsed) {
    check.spec = std::move(*parsed);
  } else {
    check.diagnostics = parsed.error();
  }
  for (auto& diagnostic : checkAgainstCluster(document, cluster)) {
    diagnostic.file = options.source_name;
    check.diagnostics.push_back(std::move(diagnostic));
  }
  return check;
}

Result<JobSpec, Diagnostics> loadSpecFile(const QString& path) {
  return load_job_spec(ss(path), /*check_files=*/false);
}

std::string specFileText(const SpecCheck& check) {
  if (check.spec) return to_yaml(*check.spec);
  return check.document.dump(2) + "\n";
}

}  // namespace spindle::gui

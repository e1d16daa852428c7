#include "container/job_file.h"

#include <fstream>
#include <sstream>

#include "spindle/core/spec_parser.h"

namespace spindle::container {

Result<JobSpec> read_job_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return make_error("cannot read the job's spec " + file.string() + " in the container's directory");
  std::stringstream text;
  text << in.rdbuf();
  SpecParseOptions parsing;
  parsing.source_name = file.string();
  parsing.check_files = false;  // the client checked them; here they are already localized
  auto parsed = parse_job_spec(text.str(), parsing);
  if (!parsed) return make_error("the job's spec is not valid: " + format_diagnostics(parsed.error()));
  return std::move(*parsed);
}

}  // namespace spindle::container

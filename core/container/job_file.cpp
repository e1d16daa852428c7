#include "container/job_file.h"

#include "spindle/core/container_contract.h"
#include "spindle/core/spec_parser.h"

namespace spindle::container {

Result<JobSpec> read_job_spec(const ContainerContext& context) {
  if (context.job_spec_json.empty()) {
    return make_error(std::string("the container's credentials hold no job spec (") +
                      container_contract::job_spec_alias +
                      "); containers of a Spindle job get it from spindle submit and the application master");
  }
  SpecParseOptions parsing;
  parsing.source_name = "the job's spec";
  parsing.check_files = false;  // the client checked them; here they are already localized
  auto parsed = parse_job_spec(context.job_spec_json, parsing);
  if (!parsed) return make_error("the job's spec is not valid: " + format_diagnostics(parsed.error()));
  return std::move(*parsed);
}

}  // namespace spindle::container

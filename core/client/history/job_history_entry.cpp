#include "spindle/client/history_store.h"
#include "spindle/core/spec_parser.h"

namespace spindle::client {

JobState JobHistoryEntry::job_state() const {
  return parse_job_state(state).value_or(JobState::submitted);
}

std::optional<JobSpec> JobHistoryEntry::spec() const {
  if (spec_yaml.empty()) return std::nullopt;
  SpecParseOptions options;
  options.source_name = application_id + " (spec kept at submit)";
  options.check_files = false;
  auto parsed = parse_job_spec(spec_yaml, options);
  if (!parsed) return std::nullopt;
  return std::move(*parsed);
}

std::string JobHistoryEntry::output_location() const {
  const auto parsed = spec();
  return parsed ? parsed->output : std::string();
}

std::string JobHistoryEntry::input_location() const {
  const auto parsed = spec();
  return parsed ? parsed->input : std::string();
}

std::optional<bool> JobHistoryEntry::has_task_type(std::string_view type) const {
  const auto parsed = spec();
  if (!parsed) return std::nullopt;
  return parsed->find_task(type) != nullptr;
}

}  // namespace spindle::client

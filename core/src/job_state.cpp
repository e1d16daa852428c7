#include "spindle/core/job_state.h"

#include <array>
#include <utility>

namespace spindle {
namespace {

constexpr std::array<std::pair<JobState, std::string_view>, 6> names{{
    {JobState::submitted, "submitted"},
    {JobState::accepted, "accepted"},
    {JobState::running, "running"},
    {JobState::succeeded, "succeeded"},
    {JobState::failed, "failed"},
    {JobState::killed, "killed"},
}};

}  // namespace

std::string_view to_string(JobState state) {
  for (const auto& [known, name] : names) {
    if (known == state) return name;
  }
  return "submitted";
}

std::optional<JobState> parse_job_state(std::string_view name) {
  for (const auto& [state, known] : names) {
    if (known == name) return state;
  }
  return std::nullopt;
}

bool is_final(JobState state) {
  return state == JobState::succeeded || state == JobState::failed || state == JobState::killed;
}

bool is_final_state(std::string_view name) {
  const auto state = parse_job_state(name);
  return state && is_final(*state);
}

JobState job_state_of_yarn(std::string_view yarn_state, std::string_view final_status) {
  if (yarn_state == "RUNNING") return JobState::running;
  if (yarn_state == "ACCEPTED") return JobState::accepted;
  if (yarn_state == "KILLED" || final_status == "KILLED") return JobState::killed;
  if (yarn_state == "FAILED" || final_status == "FAILED") return JobState::failed;
  if (yarn_state == "FINISHED") return final_status == "SUCCEEDED" ? JobState::succeeded : JobState::failed;
  return JobState::submitted;
}

}  // namespace spindle

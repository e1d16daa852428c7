#pragma once

#include <optional>
#include <string_view>

namespace spindle {

// Where a job is in its life, as the history, the job API and every front end
// name it. Stored and sent as its name (to_string); compared as this enum.
enum class JobState { submitted, accepted, running, succeeded, failed, killed };

std::string_view to_string(JobState state);
// The state a name gives, or nullopt for a name that is none of them.
std::optional<JobState> parse_job_state(std::string_view name);
bool is_final(JobState state);
// Whether a state's name is that of a job that has ended; an unknown name is not.
bool is_final_state(std::string_view name);
// What the ResourceManager's application state and final status mean for the job.
JobState job_state_of_yarn(std::string_view yarn_state, std::string_view final_status);

}  // namespace spindle

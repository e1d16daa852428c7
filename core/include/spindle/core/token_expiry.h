#pragma once

// What a job is told about the end of its delegation tokens: each token has
// a maximum lifetime (seven days unless the cluster says otherwise) past
// which no renewal keeps it, and then HDFS and the ResourceManager refuse
// the job's tasks. Without a keytab Spindle cannot obtain new tokens for a
// running job, so the submit, the status and the job's diagnosis say when
// that comes.

#include <chrono>
#include <cstdint>
#include <string>

namespace spindle {

// "2026-12-05 23:47 UTC"
std::string utc_minute(std::int64_t ms_since_epoch);

// How long before the end a running job's status starts to say it.
inline constexpr std::chrono::hours tokens_end_notice_before{24};

// What a submit says of the tokens it obtained: a warning when the job's
// timeout runs past their end (or it has none and they end within
// tokens_end_notice_before), else a line naming their end.
struct TokensAtSubmit {
  bool warning = false;
  std::string sentence;
};
TokensAtSubmit tokens_at_submit(std::int64_t tokens_end_ms, const std::string& kind, std::chrono::seconds timeout,
                                std::int64_t now_ms);

// A sentence for a running job's status when its tokens end within
// tokens_end_notice_before or have ended; "" otherwise, or without tokens.
std::string tokens_end_notice(std::int64_t tokens_end_ms, const std::string& kind, std::int64_t now_ms);

// The diagnosis of a job that failed after its tokens ended ("" when it
// failed before, or had none): the failure's own words follow it.
std::string tokens_ended_diagnosis(std::int64_t tokens_end_ms, const std::string& kind, std::int64_t now_ms);

}  // namespace spindle

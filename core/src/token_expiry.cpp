#include "spindle/core/token_expiry.h"

#include <ctime>

namespace spindle {
namespace {

std::string hours_and_minutes(std::int64_t ms) {
  const auto minutes = ms / 60'000;
  if (minutes < 60) return std::to_string(minutes) + " min";
  return std::to_string(minutes / 60) + " h " + std::to_string(minutes % 60) + " min";
}

}  // namespace

std::string utc_minute(std::int64_t ms_since_epoch) {
  const std::time_t seconds = static_cast<std::time_t>(ms_since_epoch / 1000);
  std::tm parts{};
  ::gmtime_r(&seconds, &parts);
  char text[32] = {};
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M UTC", &parts);
  return text;
}

TokensAtSubmit tokens_at_submit(std::int64_t tokens_end_ms, const std::string& kind, std::chrono::seconds timeout,
                                std::int64_t now_ms) {
  const auto left = tokens_end_ms - now_ms;
  const auto timeout_ms = std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count();
  const bool short_of_timeout = timeout_ms > 0 && timeout_ms > left;
  const bool soon = timeout_ms == 0 &&
                    left <= std::chrono::duration_cast<std::chrono::milliseconds>(tokens_end_notice_before).count();
  const std::string end = "the job's delegation tokens end at " + utc_minute(tokens_end_ms) + ", in " +
                          hours_and_minutes(left) + " (" + kind + ", at the cluster's maximum lifetime)";
  if (short_of_timeout || soon) {
    return {true, end + (short_of_timeout ? ", before its timeout of " + hours_and_minutes(timeout_ms) : "") +
                      "; HDFS and the ResourceManager refuse its tasks after that: submit with --principal and "
                      "--keytab so that its application master gets new tokens in time"};
  }
  return {false, end};
}

std::string tokens_end_notice(std::int64_t tokens_end_ms, const std::string& kind, std::int64_t now_ms) {
  if (tokens_end_ms <= 0) return {};
  const auto left = tokens_end_ms - now_ms;
  if (left > std::chrono::duration_cast<std::chrono::milliseconds>(tokens_end_notice_before).count()) return {};
  if (left <= 0) {
    return "The job's delegation tokens ended at " + utc_minute(tokens_end_ms) + " (" + kind +
           ", at the cluster's maximum lifetime): HDFS and the ResourceManager now refuse its tasks";
  }
  return "The job's delegation tokens end at " + utc_minute(tokens_end_ms) + ", in " + hours_and_minutes(left) + " (" +
         kind +
         ", at the cluster's maximum lifetime); after that HDFS and the ResourceManager refuse its tasks, so save "
         "what it must keep before then";
}

std::string tokens_ended_diagnosis(std::int64_t tokens_end_ms, const std::string& kind, std::int64_t now_ms) {
  if (tokens_end_ms <= 0 || now_ms < tokens_end_ms) return {};
  return "the job's delegation tokens expired at " + utc_minute(tokens_end_ms) + " (" + kind +
         ", at the cluster's maximum lifetime), after which HDFS and the ResourceManager refuse its tasks; submit "
         "with --principal and --keytab so that its application master gets new tokens in time";
}

}  // namespace spindle

// What a job is told of its delegation tokens' end: at submit, in its
// status as the end nears, and in its diagnosis once they ended.

#include <gtest/gtest.h>

#include "spindle/core/token_expiry.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;

constexpr std::int64_t now = 1'795'909'633'688;  // 2026-11-28 23:47:13 UTC
constexpr std::int64_t hour = 3'600'000;

TEST(TokenExpiry, TimesAreToldInUtcToTheMinute) {
  EXPECT_EQ(utc_minute(now), "2026-11-28 23:47 UTC");
}

TEST(TokenExpiry, ASubmitWarnsWhenTheTimeoutRunsPastTheEnd) {
  const auto told = tokens_at_submit(now + 7 * 24 * hour, "HDFS_DELEGATION_TOKEN", 8 * 24h, now);
  EXPECT_TRUE(told.warning);
  EXPECT_NE(told.sentence.find("end at 2026-12-05 23:47 UTC, in 168 h 0 min (HDFS_DELEGATION_TOKEN"), std::string::npos)
      << told.sentence;
  EXPECT_NE(told.sentence.find("before its timeout of 192 h 0 min"), std::string::npos) << told.sentence;
  EXPECT_NE(told.sentence.find("--principal and --keytab"), std::string::npos) << told.sentence;
}

TEST(TokenExpiry, ASubmitOnlyNamesTheEndWhenTheJobFitsBeforeIt) {
  auto told = tokens_at_submit(now + 7 * 24 * hour, "RM_DELEGATION_TOKEN", 2h, now);
  EXPECT_FALSE(told.warning);
  EXPECT_NE(told.sentence.find("2026-12-05 23:47 UTC"), std::string::npos);
  told = tokens_at_submit(now + 7 * 24 * hour, "RM_DELEGATION_TOKEN", 0s, now);  // no timeout, a week left
  EXPECT_FALSE(told.warning);
  told = tokens_at_submit(now + 3 * hour, "RM_DELEGATION_TOKEN", 0s, now);  // no timeout, hours left
  EXPECT_TRUE(told.warning);
}

TEST(TokenExpiry, TheStatusSaysItOnlyInTheLastDay) {
  EXPECT_EQ(tokens_end_notice(now + 25 * hour, "HDFS_DELEGATION_TOKEN", now), "");
  EXPECT_NE(tokens_end_notice(now + 5 * hour + 60'000, "HDFS_DELEGATION_TOKEN", now).find("in 5 h 1 min"),
            std::string::npos);
  EXPECT_NE(tokens_end_notice(now - 1, "HDFS_DELEGATION_TOKEN", now).find("now refuse its tasks"), std::string::npos);
  EXPECT_EQ(tokens_end_notice(0, "", now), "") << "a job without tokens hears nothing";
}

TEST(TokenExpiry, AFailureAfterTheEndIsDiagnosedAsTheEnd) {
  EXPECT_EQ(tokens_ended_diagnosis(now + hour, "HDFS_DELEGATION_TOKEN", now), "");
  const auto diagnosis = tokens_ended_diagnosis(now - hour, "HDFS_DELEGATION_TOKEN", now);
  EXPECT_NE(diagnosis.find("expired at 2026-11-28 22:47 UTC (HDFS_DELEGATION_TOKEN"), std::string::npos) << diagnosis;
  EXPECT_EQ(tokens_ended_diagnosis(0, "", now), "");
}

}  // namespace
}  // namespace spindle

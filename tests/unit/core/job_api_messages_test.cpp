#include "master/job_api_messages.h"

#include <gtest/gtest.h>

namespace spindle::job_api {
namespace {

nlohmann::json through_text(const nlohmann::json& body) {
  return nlohmann::json::parse(body_text(body));
}

TEST(JobApiMessages, WhatOneEndWritesTheOtherReadsBack) {
  Registration registration{{"node-1.example", 4242}, "container_1_0001_01_000002", {}};
  registration.reattachment = {true, 2, 1, 7, true};
  auto read = registration_from_json(through_text(to_json(registration)));
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->address.to_string(), "node-1.example:4242");
  EXPECT_EQ(read->container, registration.container);
  EXPECT_TRUE(read->reattachment.present);
  EXPECT_EQ(read->reattachment.restarts, 2);
  EXPECT_EQ(read->reattachment.lost, 1);
  EXPECT_EQ(read->reattachment.cluster_version, 7u);
  EXPECT_TRUE(read->reattachment.command_ended);

  TaskHeartbeat heartbeat;
  heartbeat.container = "c";
  heartbeat.rss_bytes = 1u << 30;
  heartbeat.cpu_seconds = 2.5;
  heartbeat.processes = 3;
  heartbeat.log_bytes = 99;
  heartbeat.output_fingerprint = 0xfeedULL;
  heartbeat.cluster_version = 4;
  heartbeat.certificate_sha256 = std::string(64, 'a');
  auto beat = heartbeat_from_json(through_text(to_json(heartbeat)));
  ASSERT_TRUE(beat.ok()) << beat.error().message;
  EXPECT_EQ(beat->rss_bytes, heartbeat.rss_bytes);
  EXPECT_EQ(beat->cpu_seconds, 2.5);
  EXPECT_EQ(beat->processes, 3);
  EXPECT_EQ(beat->log_bytes, 99u);
  EXPECT_EQ(beat->output_fingerprint, 0xfeedULL);
  EXPECT_EQ(beat->cluster_version, 4u);
  EXPECT_EQ(beat->certificate_sha256, heartbeat.certificate_sha256);

  TaskResult result{"c", 143, "killed by SIGTERM", "Traceback\n\xff"};
  auto ended = result_from_json(through_text(to_json(result)));
  ASSERT_TRUE(ended.ok()) << ended.error().message;
  EXPECT_EQ(ended->exit_code, 143);
  EXPECT_EQ(ended->description, "killed by SIGTERM");
  EXPECT_EQ(ended->stderr_tail.substr(0, 10), "Traceback\n");  // the bad byte is replaced, not thrown on

  std::vector<JobEvent> events{{5, 1000, "started", "worker:0", "on node-1"}};
  auto listed = events_from_json(through_text(events_to_json(events, 5)));
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].sequence, 5u);
  EXPECT_EQ((*listed)[0].message, "on node-1");
}

TEST(JobApiMessages, EachBadMessageIsRefusedInOneSentence) {
  EXPECT_EQ(registration_from_json(nlohmann::json::parse(R"({"host": "h"})")).error().message,
            "a registration is {\"host\": string, \"port\": number, \"container\": string}");
  EXPECT_FALSE(registration_from_json(nlohmann::json::parse(R"({"host":"a/b","port":80,"container":"c"})")).ok());
  EXPECT_EQ(heartbeat_from_json(nlohmann::json::array()).error().message,
            "a task's report is a JSON object with its \"container\"");
  EXPECT_NE(heartbeat_from_json(nlohmann::json::parse(R"({"container":"c","certificate_sha256":"ABC"})"))
                .error()
                .message.find("64 lower-case hex digits"),
            std::string::npos);
  EXPECT_EQ(result_from_json(nlohmann::json::parse(R"({"container":"c","exit_code":"1"})")).error().message,
            "a task's result needs its \"exit_code\"");
  EXPECT_FALSE(events_from_json(nlohmann::json::parse(R"({"events": {}})")).ok());
  // Fields of another type, as a newer peer might send, read as absent.
  auto beat = heartbeat_from_json(nlohmann::json::parse(R"({"container":"c","rss_bytes":"lots","processes":2})"));
  ASSERT_TRUE(beat.ok());
  EXPECT_EQ(beat->rss_bytes, 0u);
  EXPECT_EQ(beat->processes, 2);
}

}  // namespace
}  // namespace spindle::job_api

// What an MLflow run has not taken yet, kept until it does: against a scripted
// server that refuses the first batches and then takes them.

#include "container/run_scalars.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "yarnclient/fake_http_server.h"

namespace spindle::container {
namespace {

using yarn::testing::FakeHttpServer;

// The metrics of every log-batch request the server took, by key, as "step=value".
std::vector<std::string> taken_metrics(const std::vector<std::string>& requests, std::size_t from) {
  std::vector<std::string> taken;
  for (std::size_t at = from; at < requests.size(); ++at) {
    const auto body = nlohmann::json::parse(requests[at].substr(requests[at].find("\r\n\r\n") + 4));
    for (const auto& metric : body.at("metrics")) {
      taken.push_back(metric.at("key").get<std::string>() + "@" + std::to_string(metric.at("step").get<int>()) + "=" +
                      std::to_string(metric.at("value").get<double>()));
    }
  }
  return taken;
}

TEST(RunScalars, WhatMlflowRefusesWaitsIsSaidOnceAndGoesWhenItIsBack) {
  std::atomic<bool> refusing{true};
  FakeHttpServer server([&](const std::string&) {
    return refusing ? FakeHttpServer::answer(503, "Service Unavailable", "{\"error_code\":\"TEMPORARILY_UNAVAILABLE\"}")
                    : FakeHttpServer::answer(200, "OK", "{}");
  });
  client::MlflowClient client("http://" + server.address());
  std::vector<std::string> said;
  const RunScalars::Log log = [&](const std::string& line) { said.push_back(line); };

  RunScalars scalars("0123abcd", "trial 3's run");
  EXPECT_TRUE(scalars.send(client, log)) << "nothing waits";
  EXPECT_TRUE(server.requests().empty());
  scalars.add("train", "loss", 1, 1700000000.5, 0.9);
  scalars.add("train", "loss", 2, 1700000001.5, std::numeric_limits<double>::quiet_NaN());
  EXPECT_FALSE(scalars.send(client, log));
  scalars.add("train", "loss", 3, 1700000002.5, 0.7);
  EXPECT_FALSE(scalars.send(client, log));
  ASSERT_EQ(said.size(), 1u) << "one line while it lasts";
  EXPECT_NE(said[0].find("MLflow: trial 3's run does not get its scalars; tried again at each look"), std::string::npos)
      << said[0];

  refusing = false;
  const auto before = server.requests().size();
  EXPECT_TRUE(scalars.send(client, log));
  ASSERT_EQ(said.size(), 2u);
  EXPECT_EQ(said[1], "MLflow: trial 3's run gets its scalars again");
  // Every point that waited, once, NaN left out.
  EXPECT_EQ(taken_metrics(server.requests(), before),
            (std::vector<std::string>{"train/loss@1=0.900000", "train/loss@3=0.700000"}));
  EXPECT_TRUE(scalars.send(client, log));
  EXPECT_EQ(server.requests().size(), before + 1) << "what went is not sent again";
}

TEST(RunScalars, OnlyTheNewestAreKeptBeyondABound) {
  RunScalars scalars("0123abcd", "the job's run 0123abcd");
  for (int step = 0; step < 10; ++step) scalars.add("", "loss", step, 1700000000.0 + step, step);
  EXPECT_EQ(scalars.keep_newest(20), 0u);
  EXPECT_EQ(scalars.keep_newest(4), 6u);
  FakeHttpServer server([](const std::string&) { return FakeHttpServer::answer(200, "OK", "{}"); });
  client::MlflowClient client("http://" + server.address());
  EXPECT_TRUE(scalars.send(client, [](const std::string&) {}));
  EXPECT_EQ(taken_metrics(server.requests(), 0),
            (std::vector<std::string>{"loss@6=6.000000", "loss@7=7.000000", "loss@8=8.000000", "loss@9=9.000000"}));
}

}  // namespace
}  // namespace spindle::container

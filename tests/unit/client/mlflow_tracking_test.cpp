#include "spindle/client/mlflow_tracking.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "client/mlflow/mlflow_answers.h"
#include "spindle/client/mlflow_client.h"
#include "spindle/core/spec_parser.h"

namespace spindle::client {
namespace {

JobSpec spec_of(const std::string& yaml) {
  SpecParseOptions options;
  options.check_files = false;
  auto parsed = parse_job_spec(yaml, options);
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : format_diagnostics(parsed.error()));
  return parsed.ok() ? *parsed : JobSpec{};
}

// Sets or clears an environment variable for one test.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = ::getenv(name)) old_ = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~ScopedVariable() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(SpecParameters, TheSpecIsFlattenedWithoutLoginOrTrackingAndSecretsHidden) {
  const auto spec = spec_of(R"(name: wine
tags: [nightly, lr]
env: {DB_PASSWORD: hunter2, LEARNING_RATE: "0.01"}
mlflow: {tracking_uri: http://m:5000}
tasks:
  worker: {instances: 2, memory: 2 GiB, command: python train.py, env: {HF_TOKEN: abc, SEED: "7"}}
)");
  std::map<std::string, std::string> params;
  for (const auto& [key, value] : spec_parameters(spec)) {
    EXPECT_TRUE(params.emplace(key, value).second) << "twice: " << key;
  }
  EXPECT_EQ(params.at("name"), "wine");
  EXPECT_EQ(params.at("tags.0"), "nightly");
  EXPECT_EQ(params.at("tags.1"), "lr");
  EXPECT_EQ(params.at("env.LEARNING_RATE"), "0.01");
  EXPECT_EQ(params.at("env.DB_PASSWORD"), "(hidden)");
  EXPECT_EQ(params.at("tasks.worker.instances"), "2");
  EXPECT_EQ(params.at("tasks.worker.memory"), "2048");
  EXPECT_EQ(params.at("tasks.worker.command"), "python train.py");
  EXPECT_EQ(params.at("tasks.worker.env.SEED"), "7");
  EXPECT_EQ(params.at("tasks.worker.env.HF_TOKEN"), "(hidden)");
  for (const auto& [key, value] : params) {
    EXPECT_FALSE(key.starts_with("mlflow")) << key;
    EXPECT_NE(value, "hunter2") << key;
    EXPECT_NE(value, "abc") << key;
  }
}

TEST(MetricKey, RunAndTagAreJoinedAndWhatMlflowRefusesIsReplaced) {
  EXPECT_EQ(metric_key("train", "loss"), "train/loss");
  EXPECT_EQ(metric_key(".", "loss"), "loss");
  EXPECT_EQ(metric_key("", "epoch_loss"), "epoch_loss");
  EXPECT_EQ(metric_key("eval/worker-1", "top-5 acc"), "eval/worker-1/top-5 acc");
  EXPECT_EQ(metric_key("train", "loss:0@x"), "train/loss_0_x");
}

TEST(TrainingMetric, APointKeepsItsStepAndWallTimeAndNoNumberIsLeftOut) {
  const auto loss = training_metric("train", "loss", 40, 1795955833.3216, 0.25);
  ASSERT_TRUE(loss.has_value());
  EXPECT_EQ(loss->key, "train/loss");
  EXPECT_EQ(loss->step, 40);
  EXPECT_EQ(loss->value, 0.25);
  // Milliseconds, rounded the same way by every sender, so that MLflow keeps a point sent twice once.
  EXPECT_EQ(loss->timestamp_ms, 1795955833322);
  EXPECT_FALSE(training_metric("train", "loss", 1, 0, std::numeric_limits<double>::quiet_NaN()).has_value());
  EXPECT_FALSE(training_metric("train", "loss", 1, 0, std::numeric_limits<double>::infinity()).has_value());
  EXPECT_FALSE(training_metric("train", "loss", 1, 0, -std::numeric_limits<double>::infinity()).has_value());
}

TEST(CarriedCredentials, WhatTheShellHoldsReachesAnotherProcessAndABadBundleIsSaid) {
  const auto directory = std::filesystem::temp_directory_path() / ("spindle-carried-" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  const auto bundle = (directory / "ca.pem").string();
  std::ofstream(bundle) << "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  std::string carried;
  {
    ScopedVariable token("MLFLOW_TRACKING_TOKEN", "t0ken");
    ScopedVariable user("MLFLOW_TRACKING_USERNAME", nullptr);
    ScopedVariable password("MLFLOW_TRACKING_PASSWORD", nullptr);
    ScopedVariable ca("MLFLOW_TRACKING_SERVER_CERT_PATH", bundle.c_str());
    auto made = carried_mlflow_credentials();
    ASSERT_TRUE(made.ok()) << made.error().message;
    carried = *made;
  }
  {
    // The other process: nothing of its own, the carried credentials put in place.
    ScopedVariable token("MLFLOW_TRACKING_TOKEN", nullptr);
    ScopedVariable ca("MLFLOW_TRACKING_SERVER_CERT_PATH", nullptr);
    const auto elsewhere = directory / "container";
    std::filesystem::create_directories(elsewhere);
    ASSERT_TRUE(use_carried_mlflow_credentials(carried, elsewhere.string()).ok());
    EXPECT_STREQ(::getenv("MLFLOW_TRACKING_TOKEN"), "t0ken");
    const std::string written = ::getenv("MLFLOW_TRACKING_SERVER_CERT_PATH");
    EXPECT_EQ(written, (elsewhere / "mlflow-ca.pem").string());
    std::ifstream in(written);
    std::string first;
    std::getline(in, first);
    EXPECT_EQ(first, "-----BEGIN CERTIFICATE-----");
    EXPECT_FALSE(use_carried_mlflow_credentials("[1]", elsewhere.string()).ok());
  }
  {
    ScopedVariable token("MLFLOW_TRACKING_TOKEN", nullptr);
    ScopedVariable user("MLFLOW_TRACKING_USERNAME", nullptr);
    ScopedVariable ca("MLFLOW_TRACKING_SERVER_CERT_PATH", nullptr);
    auto none = carried_mlflow_credentials();
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(*none, "");
    ScopedVariable bad("MLFLOW_TRACKING_SERVER_CERT_PATH", (directory / "missing.pem").c_str());
    auto refused = carried_mlflow_credentials();
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("is not a readable file of PEM certificates"), std::string::npos);
  }
  std::filesystem::remove_all(directory);
}

TEST(MlflowTarget, NothingIsTrackedUnlessTheSpecOrTheShellAsks) {
  ScopedVariable uri("MLFLOW_TRACKING_URI", nullptr);
  EXPECT_FALSE(mlflow_target(spec_of("name: a\ntasks: {chief: {command: x}}\n")).has_value());
}

TEST(MlflowTarget, TheShellFillsWhatTheSpecLeavesOut) {
  ScopedVariable uri("MLFLOW_TRACKING_URI", "http://shell:5000/");
  ScopedVariable experiment("MLFLOW_EXPERIMENT_NAME", "from-shell");
  auto target = mlflow_target(spec_of("name: a\ntasks: {chief: {command: x}}\n"));
  ASSERT_TRUE(target.has_value());
  EXPECT_EQ(target->tracking_uri, "http://shell:5000");
  EXPECT_EQ(target->experiment, "from-shell");
  EXPECT_EQ(target->run_name, "a");
  EXPECT_FALSE(target->required);

  auto spec_wins = mlflow_target(
      spec_of("name: a\nmlflow: {tracking_uri: http://spec:5000, experiment: e, run_name: r, required: true}\n"
              "tasks: {chief: {command: x}}\n"));
  ASSERT_TRUE(spec_wins.has_value());
  EXPECT_EQ(spec_wins->tracking_uri, "http://spec:5000");
  EXPECT_EQ(spec_wins->experiment, "e");
  EXPECT_EQ(spec_wins->run_name, "r");
  EXPECT_TRUE(spec_wins->required);
}

TEST(MlflowTarget, AnEmptyBlockWithoutAServerIsStillAskedForSoThatSubmitSaysWhy) {
  ScopedVariable uri("MLFLOW_TRACKING_URI", nullptr);
  ScopedVariable experiment("MLFLOW_EXPERIMENT_NAME", nullptr);
  auto target = mlflow_target(spec_of("name: a\nmlflow: {}\ntasks: {chief: {command: x}}\n"));
  ASSERT_TRUE(target.has_value());
  EXPECT_EQ(target->tracking_uri, "");
  EXPECT_EQ(target->experiment, "Default");
  TrackedSubmission job;
  auto run = start_tracking_run(JobSpec{}, *target, job, [](const std::string&) {});
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("without tracking_uri, and MLFLOW_TRACKING_URI is not set"), std::string::npos)
      << run.error().message;
}

TEST(MlflowTarget, AShellUriThatIsNoServerGetsASentence) {
  ScopedVariable uri("MLFLOW_TRACKING_URI", "file:///home/alice/mlruns");
  auto target = mlflow_target(spec_of("name: a\ntasks: {chief: {command: x}}\n"));
  ASSERT_TRUE(target.has_value());
  auto run = start_tracking_run(JobSpec{}, *target, TrackedSubmission{}, [](const std::string&) {});
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("MLFLOW_TRACKING_URI is file:///home/alice/mlruns, but Spindle records jobs "
                                     "only through an MLflow tracking server's REST API"),
            std::string::npos)
      << run.error().message;
}

TEST(MlflowAnswers, RunsAndExperimentsAreReadAndMalformedAnswersSaidSo) {
  auto info = mlflow::run_info_of(
      R"({"run": {"info": {"run_id": "r1", "experiment_id": "4", "artifact_uri": "mlflow-artifacts:/4/r1/artifacts"}}})");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->run_id, "r1");
  EXPECT_EQ(info->experiment_id, "4");
  auto old_server = mlflow::run_info_of(R"({"run": {"info": {"run_uuid": "r0"}}})");
  ASSERT_TRUE(old_server.ok());
  EXPECT_EQ(old_server->run_id, "r0");
  EXPECT_EQ(*mlflow::experiment_id_of(R"({"experiment": {"experiment_id": "9"}})"), "9");
  EXPECT_EQ(*mlflow::created_experiment_id(R"({"experiment_id": "10"})"), "10");
  for (const char* bad : {"", "<html>", "[]", R"({"run": 3})", R"({"run": {"info": {"run_id": 5}}})"}) {
    auto parsed = mlflow::run_info_of(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
  }
  EXPECT_FALSE(mlflow::experiment_id_of(R"({"experiment": []})").ok());
}

TEST(MlflowAnswers, ARefusalCarriesMlflowsOwnWordsAndTheRemedy) {
  auto refused = mlflow::refusal("http://m:5000", 400,
                                 R"({"error_code": "INVALID_PARAMETER_VALUE", "message": "Param value too long"})",
                                 "to log to run r1");
  EXPECT_EQ(refused.message,
            "MLflow at http://m:5000 refused to log to run r1 (HTTP 400, INVALID_PARAMETER_VALUE): Param value too "
            "long");
  EXPECT_NE(mlflow::refusal("http://m", 401, "", "x").message.find("MLFLOW_TRACKING_TOKEN"), std::string::npos);
  EXPECT_NE(mlflow::refusal("http://m", 404, "<html>", "x").message.find("names an MLflow tracking server"),
            std::string::npos);
  EXPECT_TRUE(mlflow::says_not_found(R"({"error_code": "RESOURCE_DOES_NOT_EXIST"})"));
  EXPECT_FALSE(mlflow::says_not_found("not json"));
}

TEST(MlflowAnswers, ArtifactsGoThroughTheServersProxyOnly) {
  EXPECT_EQ(*mlflow::artifact_proxy_path("mlflow-artifacts:/4/r1/artifacts", "spec.yaml"),
            "/api/2.0/mlflow-artifacts/artifacts/4/r1/artifacts/spec.yaml");
  EXPECT_EQ(*mlflow::artifact_proxy_path("mlflow-artifacts://proxy:5000/4/r1/artifacts/", "spec.yaml"),
            "/api/2.0/mlflow-artifacts/artifacts/4/r1/artifacts/spec.yaml");
  auto elsewhere = mlflow::artifact_proxy_path("s3://bucket/4/r1/artifacts", "spec.yaml");
  ASSERT_FALSE(elsewhere.ok());
  EXPECT_NE(elsewhere.error().message.find("--serve-artifacts"), std::string::npos);
  EXPECT_FALSE(mlflow::artifact_proxy_path("mlflow-artifacts:/../etc", "x").ok());
  EXPECT_FALSE(mlflow::artifact_proxy_path("mlflow-artifacts://host", "x").ok());
}

TEST(MlflowBatches, EveryEntryIsSentOnceWithinMlflowsLimits) {
  MlflowPairs params;
  for (int i = 0; i < 250; ++i) params.emplace_back("p" + std::to_string(i), "v");
  MlflowPairs tags = {{"a", "b"}};
  std::vector<MlflowMetric> metrics;
  for (int i = 0; i < 2500; ++i) metrics.push_back({"loss", 1.0 / (i + 1), 1000 + i, i});
  metrics.push_back({"nan", std::numeric_limits<double>::quiet_NaN(), 1, 0});
  metrics.push_back({"inf", -std::numeric_limits<double>::infinity(), 1, 0});
  std::size_t seen_params = 0;
  std::size_t seen_tags = 0;
  std::size_t seen_metrics = 0;
  std::set<std::int64_t> steps;
  const auto bodies = mlflow::batch_bodies("r1", params, tags, metrics);
  for (const auto& body : bodies) {
    const auto batch = nlohmann::json::parse(body);
    EXPECT_EQ(batch["run_id"], "r1");
    EXPECT_LE(batch["params"].size(), 100u);
    EXPECT_LE(batch["tags"].size(), 100u);
    EXPECT_LE(batch["metrics"].size(), 1000u);
    EXPECT_LE(batch["params"].size() + batch["tags"].size() + batch["metrics"].size(), 1000u);
    seen_params += batch["params"].size();
    seen_tags += batch["tags"].size();
    seen_metrics += batch["metrics"].size();
    for (const auto& metric : batch["metrics"]) {
      if (metric["key"] == "loss") steps.insert(metric["step"].get<std::int64_t>());
      if (metric["key"] == "nan") EXPECT_EQ(metric["value"], "NaN");
      if (metric["key"] == "inf") EXPECT_EQ(metric["value"], "-Infinity");
    }
  }
  EXPECT_EQ(seen_params, 250u);
  EXPECT_EQ(seen_tags, 1u);
  EXPECT_EQ(seen_metrics, 2502u);
  EXPECT_EQ(steps.size(), 2500u);
  // 100 parameters + 1 tag + 899 metrics, 100 + 900, then the last 50 + 703.
  EXPECT_EQ(bodies.size(), 3u);
  EXPECT_TRUE(mlflow::batch_bodies("r1", {}, {}, {}).empty());
}

}  // namespace
}  // namespace spindle::client

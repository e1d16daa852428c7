// spindle serve's server without a cluster: the routes of the API, the
// cross-site rules, and a running dashboard in front of a scripted cluster
// (the token, the page's safety fields, a long poll woken by a change, the
// work of a POST reaching the cluster only from the page's own requests).

#include <gtest/gtest.h>

#include <mutex>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <variant>

#include "api_route.h"
#include "spindle/serve/dashboard.h"
#include "tbproxy/http_test_support.h"

namespace spindle::serve {
namespace {

using namespace tbproxy::testing;
using verb = http::verb;

ApiCall routed(verb method, std::string_view target) {
  auto result = route_api(method, target);
  if (auto* refusal = std::get_if<ApiRefusal>(&result)) ADD_FAILURE() << target << ": " << refusal->sentence;
  return std::holds_alternative<ApiCall>(result) ? std::get<ApiCall>(result) : ApiCall{};
}

ApiRefusal refused(verb method, std::string_view target) {
  auto result = route_api(method, target);
  EXPECT_TRUE(std::holds_alternative<ApiRefusal>(result)) << target;
  return std::holds_alternative<ApiRefusal>(result) ? std::get<ApiRefusal>(result) : ApiRefusal{};
}

TEST(ApiRoutes, NameEachCallWithItsDecodedParameters) {
  auto call = routed(verb::get, "/api/v1/jobs/application_1_0002/logs?task=worker%3A0&file=stdout&offset=12");
  EXPECT_EQ(call.endpoint, Endpoint::job_logs);
  EXPECT_EQ(call.application_id, "application_1_0002");
  EXPECT_EQ(call.query["task"], "worker:0");
  EXPECT_EQ(call.query["offset"], "12");
  EXPECT_EQ(routed(verb::get, "/api/v1/jobs?search=a+b").query["search"], "a b");
  EXPECT_EQ(routed(verb::post, "/api/v1/jobs/application_1_0002/kill").endpoint, Endpoint::job_kill);
  EXPECT_EQ(routed(verb::post, "/api/v1/submit").endpoint, Endpoint::submit);
  EXPECT_EQ(routed(verb::get, "/api/v1/updates?after=3").endpoint, Endpoint::updates);
}

TEST(ApiRoutes, RefuseWhatIsNotTheirs) {
  EXPECT_EQ(refused(verb::get, "/api/v2/jobs").status, 404);
  EXPECT_EQ(refused(verb::get, "/api/v1/jobs/../../etc/passwd").status, 400);
  EXPECT_EQ(refused(verb::get, "/api/v1/jobs/application_1_0002/secret").status, 404);
  const auto wrong = refused(verb::get, "/api/v1/jobs/application_1_0002/kill");
  EXPECT_EQ(wrong.status, 405);
  EXPECT_EQ(wrong.allow, "POST");
  EXPECT_EQ(refused(verb::post, "/api/v1/jobs").status, 405);
  EXPECT_EQ(refused(verb::get, "/api/v1/jobs?search=%zz").status, 400);
  EXPECT_EQ(percent_decode("%4"), std::nullopt);
}

TEST(ApiRoutes, SweepsTheirKillAndTheirTrials) {
  EXPECT_EQ(routed(verb::get, "/api/v1/sweeps").endpoint, Endpoint::sweeps);
  auto sweep = routed(verb::get, "/api/v1/sweeps/application_1_0003");
  EXPECT_EQ(sweep.endpoint, Endpoint::sweep);
  EXPECT_EQ(sweep.application_id, "application_1_0003");
  EXPECT_EQ(routed(verb::post, "/api/v1/sweeps/application_1_0003/kill").endpoint, Endpoint::sweep_kill);
  auto stop = routed(verb::post, "/api/v1/sweeps/application_1_0003/trials/12/stop");
  EXPECT_EQ(stop.endpoint, Endpoint::trial_stop);
  EXPECT_EQ(stop.trial, 12);
  EXPECT_EQ(routed(verb::post, "/api/v1/sweeps/application_1_0003/trials/0/kill").endpoint, Endpoint::trial_kill);
  EXPECT_EQ(refused(verb::get, "/api/v1/sweeps/application_1_0003/trials/0/stop").status, 405);
  EXPECT_EQ(refused(verb::post, "/api/v1/sweeps/application_1_0003/trials/-1/stop").status, 400);
  EXPECT_EQ(refused(verb::post, "/api/v1/sweeps/application_1_0003/trials/99999999/stop").status, 400);
  EXPECT_EQ(refused(verb::get, "/api/v1/sweeps/wine").status, 400);
  EXPECT_EQ(refused(verb::post, "/api/v1/sweeps/application_1_0003/retry").status, 404);
}

TEST(CrossSite, OnlyThePagesOwnRequestsChangeAnything) {
  http::fields fields;
  fields.set(http::field::host, "127.0.0.1:8080");
  EXPECT_FALSE(refuse_cross_site(verb::get, fields));
  EXPECT_TRUE(refuse_cross_site(verb::post, fields));
  fields.set("X-Spindle-Request", "1");
  EXPECT_FALSE(refuse_cross_site(verb::post, fields));
  fields.set(http::field::origin, "http://127.0.0.1:8080");
  EXPECT_FALSE(refuse_cross_site(verb::post, fields));
  fields.set(http::field::origin, "http://evil.example");
  EXPECT_TRUE(refuse_cross_site(verb::post, fields));
  fields.erase(http::field::origin);
  fields.set("Sec-Fetch-Site", "cross-site");
  EXPECT_TRUE(refuse_cross_site(verb::post, fields));
}

// A cluster whose jobs list changes when the test says so.
class ScriptedCluster final : public ClusterAccess {
 public:
  std::atomic<int> generation = 0;
  std::atomic<int> submits = 0;
  ApiReply session() override { return {200, {{"user", "alice"}}}; }
  ApiReply jobs(bool, const std::string&) override {
    return {200, {{"jobs", nlohmann::ordered_json::array({{{"generation", generation.load()}}})}}};
  }
  ApiReply job(const std::string& id) override { return {200, {{"job", {{"application_id", id}}}}}; }
  ApiReply spec(const std::string&) override { return refusal(404, "none"); }
  ApiReply metrics(const std::string&, std::uint64_t) override {
    return {200, {{"points", nlohmann::ordered_json::array()}}};
  }
  ApiReply logs(const std::string&, const std::string&, const std::string&, std::uint64_t) override {
    return refusal(404, "none");
  }
  ApiReply kill(const std::string&) override { return refusal(403, "not yours"); }
  ApiReply sweeps() override { return {200, {{"sweeps", nlohmann::ordered_json::array()}}}; }
  ApiReply sweep(const std::string&) override { return refusal(404, "none"); }
  ApiReply sweep_kill(const std::string&) override { return refusal(404, "none"); }
  ApiReply trial_end(const std::string&, int, bool) override { return refusal(404, "none"); }
  ApiReply cluster() override { return {200, {{"nodes", nlohmann::ordered_json::array()}}}; }
  ApiReply validate(const std::string& text) override { return {200, {{"valid", text == "ok"}}}; }
  ApiReply submit(const std::string& spec, const std::vector<UploadedFile>& uploads,
                  const std::optional<UploadedKeytab>& keytab) override {
    ++submits;
    std::lock_guard lock(mutex);
    last_spec = spec;
    last_uploads = uploads;
    last_keytab = keytab;
    return {201, {{"application_id", "application_1_0009"}}};
  }
  std::mutex mutex;
  std::string last_spec;
  std::vector<UploadedFile> last_uploads;
  std::optional<UploadedKeytab> last_keytab;
  tbproxy::UpstreamResolver tensorboards() override {
    return [](const std::string&) {
      return tbproxy::UpstreamLookup(tbproxy::UpstreamUnavailable{tbproxy::UpstreamState::unknown, "no such job"});
    };
  }
};

class DashboardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DashboardOptions options;
    options.refresh_interval = std::chrono::milliseconds(50);
    options.longest_wait = std::chrono::milliseconds(3000);
    auto started = Dashboard::start(options, cluster_);
    ASSERT_TRUE(started) << started.error().message;
    dashboard_ = std::move(*started);
  }
  void TearDown() override { dashboard_->stop(); }

  Request call(http::verb method, const std::string& target, bool with_token = true) {
    Request request(method, target, 11);
    request.set(http::field::host, "127.0.0.1:" + std::to_string(dashboard_->port()));
    if (with_token) request.set(http::field::authorization, "Bearer " + dashboard_->access_token());
    return request;
  }

  std::shared_ptr<ScriptedCluster> cluster_ = std::make_shared<ScriptedCluster>();
  std::unique_ptr<Dashboard> dashboard_;
};

TEST_F(DashboardTest, WantsItsTokenEvenOnLoopback) {
  Client client(dashboard_->port());
  EXPECT_EQ(client.send(call(verb::get, "/api/v1/jobs", false)).result(), http::status::unauthorized);
  EXPECT_EQ(client.send(call(verb::get, "/", false)).result(), http::status::unauthorized);
  const auto session = client.send(call(verb::get, "/api/v1/session"));
  EXPECT_EQ(session.result(), http::status::ok);
  EXPECT_EQ(nlohmann::json::parse(session.body())["user"], "alice");
  EXPECT_EQ(dashboard_->access_token().size(), 64u);
}

TEST_F(DashboardTest, ServesItsPageWithAStrictPolicyAndRefusesToBeFramed) {
  Client client(dashboard_->port());
  const auto page = client.send(call(verb::get, "/"));
  ASSERT_EQ(page.result(), http::status::ok);
  EXPECT_NE(page.body().find("<script src=\"/app.js\""), std::string::npos);
  const auto policy = std::string(page["Content-Security-Policy"]);
  EXPECT_NE(policy.find("script-src 'self'"), std::string::npos);
  EXPECT_NE(policy.find("frame-ancestors 'none'"), std::string::npos);
  EXPECT_EQ(page["X-Content-Type-Options"], "nosniff");
  auto again = call(verb::get, "/");
  again.set(http::field::if_none_match, page[http::field::etag]);
  EXPECT_EQ(client.send(again).result(), http::status::not_modified);
  EXPECT_EQ(client.send(call(verb::get, "/uplot.js")).result(), http::status::ok);
  EXPECT_EQ(client.send(call(verb::get, "/etc/passwd")).result(), http::status::not_found);
}

TEST_F(DashboardTest, ALongPollWakesWhenTheClusterChanges) {
  Client client(dashboard_->port());
  const auto first = nlohmann::json::parse(client.send(call(verb::get, "/api/v1/updates?after=0")).body());
  std::uint64_t version = first["version"];
  // Nothing changes: the poll is held, then answered with the same version.
  // The view's first look at the cluster may come after that first answer,
  // and is a change; so a poll answered with a newer version is asked again.
  bool held = false;
  for (int tries = 0; tries < 20 && !held; ++tries) {
    const auto held_from = std::chrono::steady_clock::now();
    auto same = call(verb::get, "/api/v1/updates?after=" + std::to_string(version) + "&wait_ms=300");
    const std::uint64_t answered = nlohmann::json::parse(client.send(same).body())["version"];
    if (answered != version) {
      version = answered;
      continue;
    }
    EXPECT_GE(std::chrono::steady_clock::now() - held_from, std::chrono::milliseconds(250));
    held = true;
  }
  ASSERT_TRUE(held) << "every poll of 20 was answered with a newer version, though the cluster did not change";
  // A change wakes it long before its time is up.
  std::thread change([this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ++cluster_->generation;
  });
  const auto woken_from = std::chrono::steady_clock::now();
  auto waiting = call(verb::get, "/api/v1/updates?after=" + std::to_string(version));
  EXPECT_GT(nlohmann::json::parse(client.send(waiting).body())["version"], version);
  EXPECT_LT(std::chrono::steady_clock::now() - woken_from, std::chrono::milliseconds(2500));
  change.join();
  const auto jobs = nlohmann::json::parse(client.send(call(verb::get, "/api/v1/jobs")).body());
  EXPECT_EQ(jobs["jobs"][0]["generation"], 1);
}

TEST_F(DashboardTest, ChangesComeOnlyFromThePagesOwnRequests) {
  Client client(dashboard_->port());
  auto bare = call(verb::post, "/api/v1/submit");
  bare.body() = "name: x";
  bare.prepare_payload();
  EXPECT_EQ(client.send(bare).result(), http::status::forbidden);
  auto foreign = bare;
  foreign.set("X-Spindle-Request", "1");
  foreign.set(http::field::origin, "http://evil.example");
  EXPECT_EQ(client.send(foreign).result(), http::status::forbidden);
  EXPECT_EQ(cluster_->submits, 0);
  auto own = bare;
  own.set("X-Spindle-Request", "1");
  const auto answer = client.send(own);
  EXPECT_EQ(answer.result(), http::status::created);
  EXPECT_EQ(nlohmann::json::parse(answer.body())["application_id"], "application_1_0009");
  EXPECT_EQ(cluster_->submits, 1);
}

TEST_F(DashboardTest, ASubmitMayCarryTheSpecsLocalFiles) {
  Client client(dashboard_->port());
  auto submit = call(verb::post, "/api/v1/submit");
  submit.set("X-Spindle-Request", "1");
  submit.set(http::field::content_type, "application/json");
  submit.body() = R"({"spec": "name: x\n", "files": [{"name": "train.py", "content": "cHJpbnQoMSkK"},
                                                   {"name": "data.zip", "content": ""}]})";
  submit.prepare_payload();
  const auto answer = client.send(submit);
  ASSERT_EQ(answer.result(), http::status::created) << answer.body();
  {
    std::lock_guard lock(cluster_->mutex);
    EXPECT_EQ(cluster_->last_spec, "name: x\n");
    ASSERT_EQ(cluster_->last_uploads.size(), 2u);
    EXPECT_EQ(cluster_->last_uploads[0].name, "train.py");
    EXPECT_EQ(cluster_->last_uploads[0].bytes, "print(1)\n");
    EXPECT_EQ(cluster_->last_uploads[1].bytes, "");
    EXPECT_FALSE(cluster_->last_keytab.has_value());
  }
  // A keytab for a job that outlives its tokens comes the same way.
  submit.body() = R"({"spec": "name: x\n", "keytab": {"principal": "alice@EXAMPLE.COM", "content": "BQI="}})";
  submit.prepare_payload();
  ASSERT_EQ(client.send(submit).result(), http::status::created);
  {
    std::lock_guard lock(cluster_->mutex);
    ASSERT_TRUE(cluster_->last_keytab.has_value());
    EXPECT_EQ(cluster_->last_keytab->principal, "alice@EXAMPLE.COM");
    EXPECT_EQ(cluster_->last_keytab->bytes, std::string("\x05\x02", 2));
  }
  const std::string too_big =
      R"({"spec": "x", "keytab": {"principal": "a@B", "content": ")" + std::string(65537 / 3 * 4 + 8, 'A') + R"("}})";
  const std::pair<std::string, const char*> refused[] = {
      {R"({"spec": "x", "keytab": "a.keytab"})", "\"keytab\" of a JSON submit must be"},
      {R"({"spec": "x", "keytab": {"principal": "", "content": "BQI="}})", "\"keytab\" of a JSON submit must be"},
      {R"({"spec": "x", "keytab": {"principal": "a@B", "content": "*"}})", "keytab.content is not base64."},
      {R"({"spec": "x", "keytab": {"principal": "a@B", "content": ""}})", "keytab.content has 0 bytes"},
      {too_big, "a keytab has between 1 and 65536"},
      {"[1]", "must be an object"},
      {R"({"files": []})", "needs \"spec\""},
      {R"({"spec": "x", "files": {}})", "must be a list"},
      {R"({"spec": "x", "files": [{"name": "a"}]})", "files[0] must be"},
      {R"({"spec": "x", "files": [{"name": "a", "content": "*"}]})", "files[0].content (a) is not base64."},
      {R"({"spec": "x", "files": [{"name": "a", "content": ""}, {"name": "a", "content": ""}]})",
       "files[1] sends a a second time."},
  };
  for (const auto& [body, sentence] : refused) {
    submit.body() = body;
    submit.prepare_payload();
    const auto bad = client.send(submit);
    EXPECT_EQ(bad.result(), http::status::bad_request) << body.substr(0, 200);
    EXPECT_NE(nlohmann::json::parse(bad.body())["error"].get<std::string>().find(sentence), std::string::npos)
        << bad.body();
  }
  EXPECT_EQ(cluster_->submits, 2);
}

TEST_F(DashboardTest, NamesBadParametersAndUnknownJobsTensorBoards) {
  Client client(dashboard_->port());
  const auto bad = client.send(call(verb::get, "/api/v1/updates?after=soon"));
  EXPECT_EQ(bad.result(), http::status::bad_request);
  EXPECT_NE(bad.body().find("after must be a number"), std::string::npos);
  EXPECT_EQ(client.send(call(verb::get, "/tb/application_1_0003/")).result(), http::status::not_found);
  const auto job = client.send(call(verb::get, "/api/v1/updates?after=0&job=../etc"));
  EXPECT_EQ(job.result(), http::status::bad_request);
  EXPECT_NE(job.body().find("job must be an application id"), std::string::npos);
}

TEST(DashboardStart, RefusesAnAddressBeyondLoopbackWithoutTls) {
  DashboardOptions options;
  options.bind_address = "0.0.0.0";
  auto started = Dashboard::start(options, std::make_shared<ScriptedCluster>());
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("only over TLS"), std::string::npos) << started.error().message;
  EXPECT_NE(started.error().message.find("ssh -L"), std::string::npos);
}

}  // namespace
}  // namespace spindle::serve

// The application master's job API over real loopback sockets.

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <future>
#include <thread>

#include <nlohmann/json.hpp>

#include "raw_http.h"
#include "spindle/core/gzip.h"
#include "spindle/core/job_api_client.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/job_certificate.h"
#include "spindle/core/spec_parser.h"
#include "spindle/core/zstd_codec.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;

JobSpec two_workers() {
  SpecParseOptions options;
  options.check_files = false;
  return *parse_job_spec("command: x\ntasks: {worker: {instances: 2}}\n", options);
}

class JobApi : public ::testing::Test {
 protected:
  void SetUp() override {
    JobApiOptions options;
    options.bind_address = "127.0.0.1";
    options.secret = "s3cret";
    auto started = JobApiServer::start(rendezvous_, options);
    ASSERT_TRUE(started.ok()) << started.error().message;
    server_ = std::move(*started);
  }
  JobApiClient client(const std::string& secret = "s3cret") {
    return JobApiClient("127.0.0.1", server_->port(), secret, 5s);
  }
  // Sends raw bytes and returns whatever comes back before the server closes
  // or `seconds` pass without a byte.
  std::string raw(const std::string& bytes, long seconds = 2) { return raw_http(server_->port(), bytes, seconds); }

  Rendezvous rendezvous_{two_workers()};
  std::unique_ptr<JobApiServer> server_;
};

TEST_F(JobApi, RegistrationsThenTheCluster) {
  auto api = client();
  ASSERT_TRUE(api.register_task({"worker", 0}, {"h0", 2000}, "c0").ok());
  auto none = api.cluster_after(0, 50ms);
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->has_value());  // 204: the gang is not complete
  ASSERT_TRUE(api.register_task({"worker", 1}, {"h1", 2001}, "c1").ok());
  auto cluster = api.cluster_after(0, 1s);
  ASSERT_TRUE(cluster.ok()) << cluster.error().message;
  ASSERT_TRUE(cluster->has_value());
  EXPECT_EQ((*cluster)->version, 1u);
  EXPECT_EQ((*cluster)->cluster_json, R"({"worker":["h0:2000","h1:2001"]})");
}

TEST_F(JobApi, ALongPollEndsWhenTheLastTaskRegisters) {
  auto api = client();
  ASSERT_TRUE(api.register_task({"worker", 0}, {"h0", 1}, "c0").ok());
  // A poll long enough that only the registration can end it with a cluster.
  auto waiting = std::async(std::launch::async, [&] {
    auto cluster = client().cluster_after(0, 60s);
    return cluster.ok() && cluster->has_value();
  });
  // The last task registers only once the poll is known to wait, never before it arrived.
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (rendezvous_.waiting_count() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(rendezvous_.waiting_count(), 1u) << "the long poll never reached the registry";
  ASSERT_TRUE(api.register_task({"worker", 1}, {"h1", 1}, "c1").ok());
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(rendezvous_.waiting_count(), 0u);
}

TEST_F(JobApi, AWatchingTaskLearnsThatTheJobIsEnding) {
  auto api = client();
  ASSERT_TRUE(api.register_task({"worker", 0}, {"h0", 1}, "c0").ok());
  ASSERT_TRUE(api.register_task({"worker", 1}, {"h1", 1}, "c1").ok());
  auto first = api.cluster_after(0, 1s);
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ((*first)->ending, "");
  auto waiting = std::async(std::launch::async, [&] { return client().cluster_after(1, 60s); });
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (rendezvous_.waiting_count() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(rendezvous_.waiting_count(), 1u) << "the long poll never reached the registry";
  rendezvous_.end("the chief succeeded.");
  auto ending = waiting.get();
  ASSERT_TRUE(ending.ok()) << ending.error().message;
  ASSERT_TRUE(ending->has_value());
  EXPECT_EQ((*ending)->version, 1u);
  EXPECT_EQ((*ending)->ending, "the chief succeeded.");
  EXPECT_EQ((*ending)->addresses.size(), 2u);
}

TEST_F(JobApi, WithoutTheSecretNothingChanges) {
  auto stranger = client("guess");
  auto refused = stranger.register_task({"worker", 0}, {"evil", 1}, "c9");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "the application master refused worker:0: this job's API needs the job's secret");
  EXPECT_EQ(rendezvous_.registered_count(), 0u);
  EXPECT_NE(raw("GET /v1/cluster HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").find("HTTP/1.1 401"),
            std::string::npos);
}

TEST_F(JobApi, BadRequestsAreExplained) {
  const std::string secret = "X-Spindle-Secret: s3cret\r\n";
  const std::string bad_json = raw("PUT /v1/tasks/worker/0 HTTP/1.1\r\nHost: x\r\n" + secret +
                                   "Content-Length: 5\r\nConnection: close\r\n\r\n{oops");
  EXPECT_NE(bad_json.find("HTTP/1.1 400"), std::string::npos) << bad_json;
  EXPECT_NE(bad_json.find("a registration is"), std::string::npos);
  const std::string bad_index = raw("PUT /v1/tasks/worker/x HTTP/1.1\r\nHost: x\r\n" + secret +
                                    "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
  EXPECT_NE(bad_index.find("is not a task index"), std::string::npos) << bad_index;
  const std::string unknown = raw("GET /v1/secrets HTTP/1.1\r\nHost: x\r\n" + secret + "Connection: close\r\n\r\n");
  EXPECT_NE(unknown.find("HTTP/1.1 404"), std::string::npos) << unknown;
  const std::string huge = raw("PUT /v1/tasks/worker/0 HTTP/1.1\r\nHost: x\r\n" + secret +
                               "Content-Length: 1000000\r\n\r\n" + std::string(70'000, 'a'));
  EXPECT_NE(huge.find("HTTP/1.1 413"), std::string::npos) << huge.substr(0, 200);
  const std::string garbage = raw("\x01\x02 not http at all\r\n\r\n");
  EXPECT_NE(garbage.find("HTTP/1.1 400"), std::string::npos) << garbage;
  const std::string body = R"({"host":"a/b","port":80,"container":"c0"})";
  const std::string bad_host =
      raw("PUT /v1/tasks/worker/0 HTTP/1.1\r\nHost: x\r\n" + secret + "Content-Length: " + std::to_string(body.size()) +
          "\r\nConnection: close\r\n\r\n" + body);
  EXPECT_NE(bad_host.find("has no valid host name"), std::string::npos) << bad_host;
  EXPECT_EQ(rendezvous_.registered_count(), 0u);
}

TEST_F(JobApi, ASecondContainerForOneTaskIsAConflict) {
  auto api = client();
  ASSERT_TRUE(api.register_task({"worker", 0}, {"h0", 1}, "c0").ok());
  auto again = api.register_task({"worker", 0}, {"h9", 1}, "c9");
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("already registered from c0"), std::string::npos);
  auto stranger = api.register_task({"chief", 0}, {"h0", 1}, "c0");
  ASSERT_FALSE(stranger.ok());
  EXPECT_NE(stranger.error().message.find("chief:0 is not a task of this job"), std::string::npos);
}

// The HTTP answer's body: what follows the blank line after the headers.
std::string body_of(const std::string& answer) {
  const auto blank = answer.find("\r\n\r\n");
  return blank == std::string::npos ? std::string() : answer.substr(blank + 4);
}

std::string cluster_request(const std::string& extra_headers, const std::string& query = "after=0&wait_ms=0") {
  return "GET /v1/cluster?" + query + " HTTP/1.1\r\nHost: x\r\nX-Spindle-Secret: s3cret\r\n" + extra_headers +
         "Connection: close\r\n\r\n";
}

TEST_F(JobApi, AGzipAnswerDecodesToTheSameSpec) {
  auto api = client();
  ASSERT_TRUE(api.register_task({"worker", 0}, {"h0", 2000}, "c0").ok());
  ASSERT_TRUE(api.register_task({"worker", 1}, {"h1", 2001}, "c1").ok());
  const std::string plain = raw(cluster_request(""));
  const std::string compressed = raw(cluster_request("Accept-Encoding: br, gzip\r\n"));
  ASSERT_NE(compressed.find("HTTP/1.1 200"), std::string::npos) << compressed.substr(0, 200);
  EXPECT_NE(compressed.find("Content-Encoding: gzip\r\n"), std::string::npos);
  EXPECT_NE(compressed.find("ETag: \"1\"\r\n"), std::string::npos);
  auto expanded = gzip_decompress(body_of(compressed));
  ASSERT_TRUE(expanded.ok()) << expanded.error().message;
  EXPECT_EQ(*expanded, body_of(plain));
  // The client asks for zstd or gzip and reads what it gets.
  auto cluster = api.cluster_after(0, 1s);
  ASSERT_TRUE(cluster.ok() && cluster->has_value());
  EXPECT_EQ((*cluster)->cluster_json, R"({"worker":["h0:2000","h1:2001"]})");
  EXPECT_EQ((*cluster)->addresses.at(TaskId{"worker", 1}).to_string(), "h1:2001");
}

TEST_F(JobApi, ZstdIsPreferredWhenNamedAndDecodesToTheSameSpec) {
  auto api = client();
  ASSERT_TRUE(api.register_task({"worker", 0}, {"h0", 2000}, "c0").ok());
  ASSERT_TRUE(api.register_task({"worker", 1}, {"h1", 2001}, "c1").ok());
  const std::string plain = body_of(raw(cluster_request("")));
  const std::string zstd = raw(cluster_request("Accept-Encoding: gzip, ZSTD\r\n"));
  ASSERT_NE(zstd.find("HTTP/1.1 200"), std::string::npos) << zstd.substr(0, 200);
  EXPECT_NE(zstd.find("Content-Encoding: zstd\r\n"), std::string::npos) << zstd.substr(0, 300);
  auto expanded = zstd_decompress(body_of(zstd));
  ASSERT_TRUE(expanded.ok()) << expanded.error().message;
  EXPECT_EQ(*expanded, plain);
  // Refused with q=0, or only a wildcard: gzip, which every client that takes "*" has.
  for (const std::string headers : {"Accept-Encoding: zstd;q=0, gzip\r\n", "Accept-Encoding: *\r\n"}) {
    const std::string answer = raw(cluster_request(headers));
    EXPECT_NE(answer.find("Content-Encoding: gzip\r\n"), std::string::npos) << headers << answer.substr(0, 300);
  }
}

TEST_F(JobApi, TheSameVersionIsNotSentAgain) {
  auto api = client();
  ASSERT_TRUE(api.register_task({"worker", 0}, {"h0", 1}, "c0").ok());
  ASSERT_TRUE(api.register_task({"worker", 1}, {"h1", 1}, "c1").ok());
  const std::string unchanged = raw(cluster_request("If-None-Match: \"1\"\r\nAccept-Encoding: gzip\r\n", "wait_ms=0"));
  EXPECT_NE(unchanged.find("HTTP/1.1 304"), std::string::npos) << unchanged;
  EXPECT_NE(unchanged.find("ETag: \"1\"\r\n"), std::string::npos) << unchanged;
  EXPECT_EQ(body_of(unchanged), "");
  // A tag of an older version gets the newest at once.
  const std::string stale = raw(cluster_request("If-None-Match: W/\"0\"\r\n", "wait_ms=0"));
  EXPECT_NE(stale.find("HTTP/1.1 200"), std::string::npos) << stale;
  auto none = api.cluster_after(1, 50ms);
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->has_value());
}

TEST_F(JobApi, AClientThatDoesNotAskForGzipGetsPlainJson) {
  auto api = client();
  ASSERT_TRUE(api.register_task({"worker", 0}, {"h0", 1}, "c0").ok());
  ASSERT_TRUE(api.register_task({"worker", 1}, {"h1", 1}, "c1").ok());
  for (const std::string headers : {"", "Accept-Encoding: gzip;q=0, identity\r\n", "Accept-Encoding: br\r\n"}) {
    const std::string answer = raw(cluster_request(headers));
    EXPECT_EQ(answer.find("Content-Encoding"), std::string::npos) << headers;
    const auto parsed = nlohmann::json::parse(body_of(answer), nullptr, false);
    ASSERT_TRUE(parsed.is_object()) << headers << answer;
    EXPECT_EQ(parsed["version"], 1);
    EXPECT_EQ(parsed["cluster"]["worker"][1], "h1:1");
  }
}

TEST_F(JobApi, EveryWaiterIsAnsweredFromTheOneEncoding) {
  auto api = client();
  ASSERT_TRUE(api.register_task({"worker", 0}, {"h0", 1}, "c0").ok());
  constexpr int waiters = 24;
  std::vector<std::future<std::string>> polls;
  for (int i = 0; i < waiters; ++i) {
    polls.push_back(std::async(std::launch::async, [this, i] {
      const char* codings[] = {"", "Accept-Encoding: gzip\r\n", "Accept-Encoding: zstd, gzip\r\n"};
      return raw(cluster_request(codings[i % 3], "after=0&wait_ms=60000"), 60);
    }));
  }
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (rendezvous_.waiting_count() < waiters && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(rendezvous_.waiting_count(), static_cast<std::size_t>(waiters));
  EXPECT_EQ(rendezvous_.encodings(), 0u);
  ASSERT_TRUE(api.register_task({"worker", 1}, {"h1", 1}, "c1").ok());
  const auto version = rendezvous_.current();
  ASSERT_TRUE(version);
  for (int i = 0; i < waiters; ++i) {
    const std::string answer = polls[i].get();
    const auto& encoded = i % 3 == 0 ? version->answer_json : i % 3 == 1 ? version->answer_gzip : version->answer_zstd;
    EXPECT_EQ(body_of(answer), *encoded) << i;
  }
  EXPECT_EQ(rendezvous_.encodings(), 1u);

  // A restarted task's new address is one more encoding, sent to everyone waiting.
  auto next = std::async(std::launch::async, [this] {
    return raw(cluster_request("If-None-Match: \"1\"\r\nAccept-Encoding: gzip\r\n", "wait_ms=60000"), 60);
  });
  while (rendezvous_.waiting_count() < 1 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  rendezvous_.task_restarting({"worker", 1});
  ASSERT_TRUE(api.register_task({"worker", 1}, {"h9", 1}, "c1-again").ok());
  auto expanded = gzip_decompress(body_of(next.get()));
  ASSERT_TRUE(expanded.ok()) << expanded.error().message;
  EXPECT_NE(expanded->find(R"({"worker":["h0:1","h9:1"]})"), std::string::npos) << *expanded;
  EXPECT_EQ(rendezvous_.encodings(), 2u);
}

TEST(JobApiClient, TasksOutsideTheTrainingClusterAreNamedOnce) {
  SpecParseOptions parse;
  parse.check_files = false;
  auto spec = parse_job_spec("command: x\ntasks: {chief: {}, worker: {instances: 2}, evaluator: {}}\n", parse);
  ASSERT_TRUE(spec.ok()) << spec.error().front().message;
  Rendezvous rendezvous(*spec);
  JobApiOptions options;
  options.bind_address = "127.0.0.1";
  options.secret = "s";
  auto server = JobApiServer::start(rendezvous, options);
  ASSERT_TRUE(server.ok()) << server.error().message;
  JobApiClient api("127.0.0.1", (*server)->port(), "s", 5s);
  const std::vector<std::pair<TaskId, HostPort>> tasks{
      {{"chief", 0}, {"c", 1}}, {{"worker", 0}, {"w0", 2}}, {{"worker", 1}, {"w1", 3}}, {{"evaluator", 0}, {"e", 4}}};
  for (const auto& [task, address] : tasks) ASSERT_TRUE(api.register_task(task, address, task.to_string()).ok());
  EXPECT_EQ(*rendezvous.current()->answer_json, R"({"version":1,"cluster":{"chief":["c:1"],"worker":["w0:2","w1:3"]},)"
                                                R"("tasks":{"evaluator:0":"e:4"}})");
  auto cluster = api.cluster_after(0, 1s);
  ASSERT_TRUE(cluster.ok() && cluster->has_value());
  ASSERT_EQ((*cluster)->addresses.size(), tasks.size());
  for (const auto& [task, address] : tasks) EXPECT_EQ((*cluster)->addresses.at(task), address) << task.to_string();
}

TEST(Gzip, DamagedOrEndlessInputIsRefused) {
  const std::string text(100'000, 'x');
  const auto packed = gzip_compress(text);
  EXPECT_LT(packed.size(), 1'000u);
  EXPECT_EQ(*gzip_decompress(packed), text);
  auto cut = gzip_decompress(packed.substr(0, packed.size() / 2));
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().message, "a gzip answer is damaged or cut short");
  auto endless = gzip_decompress(packed, 1'000);
  ASSERT_FALSE(endless.ok());
  EXPECT_EQ(endless.error().message, "a gzip answer expands beyond 1000 bytes");
  EXPECT_FALSE(gzip_decompress("not gzip").ok());
}

TEST(Zstd, DamagedCutOrEndlessInputIsRefused) {
  const std::string text(100'000, 'x');
  const auto packed = zstd_compress(text);
  EXPECT_LT(packed.size(), 1'000u);
  EXPECT_EQ(*zstd_decompress(packed), text);
  auto cut = zstd_decompress(packed.substr(0, packed.size() - 3));
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().message, "a zstd answer is cut short");
  auto endless = zstd_decompress(packed, 1'000);
  ASSERT_FALSE(endless.ok());
  EXPECT_EQ(endless.error().message, "a zstd answer expands beyond 1000 bytes");
  auto trailing = zstd_decompress(packed + "more");
  ASSERT_FALSE(trailing.ok());
  auto garbage = zstd_decompress("not zstd");
  ASSERT_FALSE(garbage.ok());
  EXPECT_TRUE(garbage.error().message.starts_with("a zstd answer is damaged: ")) << garbage.error().message;
  EXPECT_FALSE(zstd_decompress("").ok());
}

TEST(JobApiServer, ListeningProblemsAreSentences) {
  Rendezvous rendezvous(two_workers());
  JobApiOptions options;
  options.bind_address = "not-an-address";
  auto started = JobApiServer::start(rendezvous, options);
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error().message, "\"not-an-address\" is not an address to listen on");
}

TEST(JobApiClient, NobodyListening) {
  JobApiClient api("127.0.0.1", 9, "s", 1s);
  auto refused = api.register_task({"worker", 0}, {"h", 1}, "c");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("cannot reach the application master's API at 127.0.0.1:9"),
            std::string::npos);
}

// The job API on an encrypted cluster: TLS with the job's own certificate,
// which clients pin.
class JobApiOverTls : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = make_job_certificate("application_1_0001");
    ASSERT_TRUE(made.ok()) << made.error().message;
    certificate_ = *made;
    JobApiOptions options;
    options.bind_address = "127.0.0.1";
    options.secret = "s3cret";
    options.tls_certificate_pem = certificate_.certificate_pem;
    options.tls_key_pem = certificate_.key_pem;
    auto started = JobApiServer::start(rendezvous_, options);
    ASSERT_TRUE(started.ok()) << started.error().message;
    server_ = std::move(*started);
  }
  std::unique_ptr<JobApiClient> client(const std::string& pin) {
    auto api = std::make_unique<JobApiClient>("127.0.0.1", server_->port(), "s3cret", 5s);
    api->pin_certificate(pin);
    return api;
  }

  SelfSignedCertificate certificate_;
  Rendezvous rendezvous_{two_workers()};
  std::unique_ptr<JobApiServer> server_;
};

TEST_F(JobApiOverTls, APinnedClientRegistersAndGetsTheCluster) {
  EXPECT_EQ(certificate_.sha256.size(), 64u);
  EXPECT_EQ(*certificate_sha256(certificate_.certificate_pem), certificate_.sha256);
  auto api = client(certificate_.sha256);
  ASSERT_TRUE(api->register_task({"worker", 0}, {"h0", 2000}, "c0").ok());
  ASSERT_TRUE(api->register_task({"worker", 1}, {"h1", 2001}, "c1").ok());
  auto cluster = api->cluster_after(0, 1s);
  ASSERT_TRUE(cluster.ok()) << cluster.error().message;
  ASSERT_TRUE(cluster->has_value());
  EXPECT_EQ((*cluster)->cluster_json, R"({"worker":["h0:2000","h1:2001"]})");
}

TEST_F(JobApiOverTls, AServerWithAnotherCertificateIsRefusedBeforeAnythingIsSent) {
  auto other = make_job_certificate("application_1_0002");
  ASSERT_TRUE(other.ok());
  auto api = client(other->sha256);
  auto refused = api->register_task({"worker", 0}, {"h0", 2000}, "c0");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("presented a certificate other than the job's (SHA-256 " +
                                         certificate_.sha256.substr(0, 16) + "..., the job's is " +
                                         other->sha256.substr(0, 16)),
            std::string::npos)
      << refused.error().message;
  // Nothing reached the master: worker 0 is still free for another container
  // (had it been registered, a second container would be a conflict).
  auto registered = client(certificate_.sha256)->register_task({"worker", 0}, {"h9", 2009}, "c9");
  EXPECT_TRUE(registered.ok()) << registered.error().message;
}

TEST_F(JobApiOverTls, ClearHttpIsNeverAnswered) {
  JobApiClient plain("127.0.0.1", server_->port(), "s3cret", 2s);
  auto refused = plain.register_task({"worker", 0}, {"h0", 2000}, "c0");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("did not answer"), std::string::npos) << refused.error().message;
}

TEST(JobApiClientTls, APinnedClientRefusesAServerWithoutTls) {
  Rendezvous rendezvous{two_workers()};
  JobApiOptions options;
  options.bind_address = "127.0.0.1";
  options.secret = "s3cret";
  auto server = JobApiServer::start(rendezvous, options);
  ASSERT_TRUE(server.ok());
  JobApiClient api("127.0.0.1", (*server)->port(), "s3cret", 2s);
  api.pin_certificate(std::string(64, 'a'));
  auto refused = api.register_task({"worker", 0}, {"h0", 2000}, "c0");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("no TLS connection could be made to the application master's API"),
            std::string::npos)
      << refused.error().message;
}

}  // namespace
}  // namespace spindle

namespace spindle {
namespace {

// A master that renews the job's tokens: the shelf behind GET /v1/tokens.
class TokenBackend : public JobApiBackend {
 public:
  Result<void> register_task(const TaskId&, const HostPort&, const std::string&, const Reattachment&) override {
    return {};
  }
  Result<void> heartbeat(const TaskId&, const TaskHeartbeat&) override { return {}; }
  Result<void> result(const TaskId&, const TaskResult&) override { return {}; }
  JobStatus status(const TaskSelection&) override { return {}; }
  EventLog& events() override { return events_; }
  TokenShelf* tokens() override { return offered_ ? &shelf_ : nullptr; }

  TokenShelf shelf_;
  bool offered_ = true;

 private:
  EventLog events_;
};

class JobApiTokens : public ::testing::Test {
 protected:
  void start() {
    JobApiOptions options;
    options.bind_address = "127.0.0.1";
    options.secret = "s3cret";
    auto started = JobApiServer::start(rendezvous_, options, &backend_);
    ASSERT_TRUE(started.ok()) << started.error().message;
    server_ = std::move(*started);
  }
  JobApiClient client(const std::string& secret = "s3cret") {
    return JobApiClient("127.0.0.1", server_->port(), secret, 5s);
  }

  Rendezvous rendezvous_{two_workers()};
  TokenBackend backend_;
  std::unique_ptr<JobApiServer> server_;
};

TEST_F(JobApiTokens, AWaitingExecutorGetsTheNewSetAndAnotherPollWaitsPastIt) {
  start();
  auto waiting = std::async(std::launch::async, [this] { return client().tokens_after(0, 10s); });
  std::this_thread::sleep_for(200ms);
  backend_.shelf_.put(std::string("HDTS\0tokens", 11));
  auto got = waiting.get();
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ((*got)->second, std::string("HDTS\0tokens", 11));
  EXPECT_EQ((*got)->first, backend_.shelf_.generation());
  // Nothing newer: the poll ends empty when its wait does.
  auto none = client().tokens_after((*got)->first, 300ms);
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->has_value());
}

TEST_F(JobApiTokens, OnlyWithTheSecretAndOnlyWhereTheMasterRenewsTokens) {
  start();
  backend_.shelf_.put("secret tokens");
  auto refused = client("wrong").tokens_after(0, 1s);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message.find("secret tokens"), std::string::npos);
  backend_.offered_ = false;
  auto absent = client().tokens_after(0, 1s);
  ASSERT_FALSE(absent.ok());
  EXPECT_NE(absent.error().message.find("no tokens"), std::string::npos) << absent.error().message;
}

}  // namespace
}  // namespace spindle

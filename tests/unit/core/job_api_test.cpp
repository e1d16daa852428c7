// The application master's job API over real loopback sockets.

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <future>
#include <thread>

#include "spindle/core/job_api_client.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/spec_parser.h"

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
  // Sends raw bytes and returns whatever comes back before the server closes or 2 s pass.
  std::string raw(const std::string& bytes) {
    namespace net = boost::asio;
    net::io_context io;
    net::ip::tcp::socket socket(io);
    socket.connect({net::ip::make_address("127.0.0.1"), server_->port()});
    boost::system::error_code ec;
    // The server may answer and close before all of a too-large request is sent.
    net::write(socket, net::buffer(bytes), ec);
    std::string answer;
    std::array<char, 4096> buffer{};
    socket.non_blocking(false);
    ::timeval limit{2, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
    while (true) {
      const std::size_t n = socket.read_some(net::buffer(buffer), ec);
      if (ec || n == 0) break;
      answer.append(buffer.data(), n);
    }
    return answer;
  }

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

}  // namespace
}  // namespace spindle

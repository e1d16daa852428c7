// A TensorBoard behind TLS, as its executor serves it on an encrypted
// cluster: the proxy speaks TLS to it and takes only the certificate whose
// pin the job registered. The scripted TensorBoard sits behind the same
// TLS front the executor runs.

#include <gtest/gtest.h>

#include "proxy_fixture.h"
#include "spindle/core/job_certificate.h"
#include "spindle/core/task_process.h"
#include "spindle/core/tls_front.h"

namespace spindle::tbproxy::testing {
namespace {

class TensorBoardBehindTls : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = make_task_certificate("application_1_0001", "tensorboard:0");
    ASSERT_TRUE(made) << made.error().message;
    certificate_ = *made;
    auto reserved = PortReservation::reserve();
    ASSERT_TRUE(reserved) << reserved.error().message;
    front_port_ = reserved->port();
    auto front = TlsFront::start(front_port_, upstream_.port(), certificate_.certificate_pem, certificate_.key_pem);
    ASSERT_TRUE(front) << front.error().message;
    front_ = std::move(*front);
  }
  void TearDown() override {
    if (proxy_) proxy_->stop();
  }

  // A proxy whose resolver names the front with `pin`.
  void start_proxy(std::string pin, std::uint16_t port = 0) {
    auto started = ProxyServer::start(test_options(), [this, pin, port](const std::string& application_id) {
      UpstreamLookup lookup = UpstreamAddress{"127.0.0.1", port ? port : front_port_, pin};
      if (application_id != running_job) return scripted_resolver(application_id, 1);
      return lookup;
    });
    ASSERT_TRUE(started) << started.error().message;
    proxy_ = std::move(*started);
  }

  UpstreamLog log_;
  ScriptedUpstream upstream_{[this](tcp::socket& socket) { serve_scripted_routes(socket, log_); }};
  SelfSignedCertificate certificate_;
  std::uint16_t front_port_ = 0;
  std::unique_ptr<TlsFront> front_;
  std::unique_ptr<ProxyServer> proxy_;
};

TEST_F(TensorBoardBehindTls, IsReachedOverTlsWithItsPinnedCertificate) {
  start_proxy(certificate_.sha256);
  Client client(proxy_->port());
  for (int i = 0; i < 3; ++i) {  // kept alive on both sides
    const auto response = client.send(get(std::string("/tb/") + running_job + "/echo"));
    ASSERT_EQ(response.result(), http::status::ok) << response.body();
    // TensorBoard hears the Host it is known by, as in clear.
    EXPECT_NE(response.body().find("host: 127.0.0.1:" + std::to_string(front_port_)), std::string::npos)
        << response.body();
  }
  EXPECT_EQ(front_->connections(), 1u);
  EXPECT_EQ(log_.requests, 3);
}

TEST_F(TensorBoardBehindTls, AnotherCertificateIsRefusedAndNothingIsSentToIt) {
  auto other = make_task_certificate("application_1_0001", "tensorboard:0");
  ASSERT_TRUE(other);
  start_proxy(other->sha256);
  Client client(proxy_->port());
  const auto response = client.send(get(std::string("/tb/") + running_job + "/echo"));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_NE(response.body().find("presented a certificate (sha256 " + certificate_.sha256.substr(0, 16)),
            std::string::npos)
      << response.body();
  EXPECT_NE(response.body().find("other than the one its job registered (" + other->sha256.substr(0, 16)),
            std::string::npos)
      << response.body();
  EXPECT_EQ(log_.requests, 0);
}

TEST_F(TensorBoardBehindTls, ATensorBoardInClearWhereTlsWasRegisteredGetsNoRequest) {
  // The pin says TLS, but what listens there speaks clear HTTP.
  start_proxy(certificate_.sha256, upstream_.port());
  Client client(proxy_->port());
  const auto response = client.send(get(std::string("/tb/") + running_job + "/echo"));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_NE(response.body().find("did not complete a TLS handshake"), std::string::npos) << response.body();
  EXPECT_EQ(log_.requests, 0);
}

TEST_F(TensorBoardBehindTls, TheFrontSpeaksNoClearHttp) {
  const auto answer = raw_exchange(front_port_, "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(answer.find("HTTP/1.1"), std::string::npos) << answer;
  EXPECT_EQ(log_.requests, 0);
}

TEST(TlsFrontStart, SaysWhatItCouldNotUse) {
  auto reserved = PortReservation::reserve();
  ASSERT_TRUE(reserved);
  auto front = TlsFront::start(reserved->port(), 1, "not a certificate", "not a key");
  ASSERT_FALSE(front);
  EXPECT_NE(front.error().message.find("certificate or key cannot be used"), std::string::npos)
      << front.error().message;
}

}  // namespace
}  // namespace spindle::tbproxy::testing

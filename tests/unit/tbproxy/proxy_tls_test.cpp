// The proxy over TLS: the job's TensorBoard through an encrypted client
// connection that checks the certificate, and plain words for a client that
// speaks clear HTTP to it.

#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>

#include "proxy_fixture.h"
#include "spindle/core/job_certificate.h"

namespace spindle::tbproxy::testing {
namespace {

namespace ssl = net::ssl;

class ProxyOverTls : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = make_server_certificate({"127.0.0.1"});
    ASSERT_TRUE(made) << made.error().message;
    certificate_ = *made;
    auto options = test_options();
    options.tls_certificate_pem = certificate_.certificate_pem;
    options.tls_key_pem = certificate_.key_pem;
    auto started = ProxyServer::start(options, [port = upstream_.port()](const std::string& application_id) {
      return scripted_resolver(application_id, port);
    });
    ASSERT_TRUE(started) << started.error().message;
    proxy_ = std::move(*started);
  }
  void TearDown() override { proxy_->stop(); }

  // A client that trusts only `trusted` and checks that it names 127.0.0.1.
  struct TlsClient {
    TlsClient(std::uint16_t port, const std::string& trusted) : context(ssl::context::tls_client), stream(io, context) {
      context.add_certificate_authority(net::buffer(trusted));
      stream.set_verify_mode(ssl::verify_peer);
      X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(stream.native_handle()), "127.0.0.1");
      beast::get_lowest_layer(stream).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    }
    net::io_context io;
    ssl::context context;
    beast::ssl_stream<beast::tcp_stream> stream;
    beast::flat_buffer buffer;
  };

  UpstreamLog log_;
  ScriptedUpstream upstream_{[this](tcp::socket& socket) { serve_scripted_routes(socket, log_); }};
  SelfSignedCertificate certificate_;
  std::unique_ptr<ProxyServer> proxy_;
};

TEST_F(ProxyOverTls, RelaysOverAConnectionThatChecksTheCertificate) {
  TlsClient client(proxy_->port(), certificate_.certificate_pem);
  beast::error_code ec;
  client.stream.handshake(ssl::stream_base::client, ec);
  ASSERT_FALSE(ec) << ec.message();
  for (int i = 0; i < 2; ++i) {  // the connection is kept between requests
    auto request = get(std::string("/tb/") + running_job + "/echo");
    request.set(http::field::host, "127.0.0.1:" + std::to_string(proxy_->port()));
    http::write(client.stream, request);
    Response response;
    http::read(client.stream, client.buffer, response);
    EXPECT_EQ(response.result(), http::status::ok);
    EXPECT_NE(response.body().find("x-forwarded-proto: https\n"), std::string::npos) << response.body();
  }
}

TEST_F(ProxyOverTls, AClientThatTrustsAnotherCertificateGetsNothing) {
  auto other = make_server_certificate({"127.0.0.1"});
  ASSERT_TRUE(other);
  TlsClient client(proxy_->port(), other->certificate_pem);
  beast::error_code ec;
  client.stream.handshake(ssl::stream_base::client, ec);
  EXPECT_TRUE(ec);
  EXPECT_EQ(log_.requests, 0);
}

TEST_F(ProxyOverTls, ClearHttpIsToldToUseHttps) {
  Client client(proxy_->port());
  const auto response = client.send(get(std::string("/tb/") + running_job + "/echo"));
  EXPECT_EQ(response.result(), http::status::bad_request);
  EXPECT_NE(response.body().find("speaks HTTPS only"), std::string::npos) << response.body();
  EXPECT_EQ(response[http::field::connection], "close");
}

TEST(ProxyTlsIdentity, RefusesAKeyThatIsNotTheCertificates) {
  auto first = make_server_certificate({"127.0.0.1"});
  auto second = make_server_certificate({"localhost"});
  ASSERT_TRUE(first && second);
  auto options = test_options();
  options.tls_certificate_pem = first->certificate_pem;
  options.tls_key_pem = second->key_pem;
  auto started = ProxyServer::start(options, [](const std::string& id) { return scripted_resolver(id, 1); });
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("does not belong to the certificate"), std::string::npos)
      << started.error().message;
  options.tls_key_pem.clear();
  started = ProxyServer::start(options, [](const std::string& id) { return scripted_resolver(id, 1); });
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().message.find("one of them is missing"), std::string::npos) << started.error().message;
}

TEST(ServerCertificate, NamesWhatItServesAndOnlyThat) {
  auto made = make_server_certificate({"10.20.0.1", "gateway.example"});
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_TRUE(certificate_serves(made->certificate_pem, "10.20.0.1"));
  EXPECT_TRUE(certificate_serves(made->certificate_pem, "gateway.example"));
  EXPECT_FALSE(certificate_serves(made->certificate_pem, "10.20.0.2"));
  EXPECT_FALSE(certificate_serves(made->certificate_pem, "other.example"));
  EXPECT_FALSE(certificate_serves("not a certificate", "10.20.0.1"));
  EXPECT_FALSE(make_server_certificate({}));
  EXPECT_FALSE(make_server_certificate({"a b"}));
}

}  // namespace
}  // namespace spindle::tbproxy::testing

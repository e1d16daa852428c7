// Kerberos through the IPC connection against a scripted server: the
// exchange loops until SUCCESS, the context names the principal, a missing
// ticket surfaces as an authentication error through ApplicationClient, and
// the RM delegation token calls carry the right messages.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "ipc/rpc_connection.h"
#include "ipc/sasl_mechanism.h"
#include "scripted_server.h"
#include "spindle/yarn/application_client.h"

namespace spindle::yarn::ipc {
namespace {

using namespace std::chrono_literals;
using spindle::yarn::testing::ClientFrame;
using spindle::yarn::testing::is_preamble;
using spindle::yarn::testing::parse_client_frame;
using spindle::yarn::testing::response_frame;
using spindle::yarn::testing::ScriptedTransport;

// A stand-in for GSSAPI that records what it was given: two context
// rounds, then the security-layer answer.
class ScriptedKerberos final : public SaslMechanism {
 public:
  std::string_view method() const override { return "KERBEROS"; }
  std::string_view mechanism() const override { return "GSSAPI"; }
  Result<std::string> start(const hadoop::RpcSasl::Auth& offer) override {
    target = offer.protocol() + "@" + offer.server_id();
    return std::string("ap-req");
  }
  Result<std::string> step(std::string_view challenge) override {
    challenges.emplace_back(challenge);
    return challenge == "ap-rep" ? std::string() : std::string("layer-answer");
  }
  Result<void> finish(std::string_view) override {
    if (challenges.size() != 2) return authentication_error("finished early");
    return {};
  }
  std::optional<std::string> context_user() const override { return "alice@EXAMPLE.COM"; }
  Result<std::unique_ptr<SecurityLayer>> security_layer() override { return std::unique_ptr<SecurityLayer>(); }

  static inline std::string target;
  static inline std::vector<std::string> challenges;
};

Result<std::unique_ptr<SaslMechanism>> scripted_kerberos(const KerberosOptions&, const std::string&,
                                                         const std::vector<RpcProtection>&) {
  return std::unique_ptr<SaslMechanism>(std::make_unique<ScriptedKerberos>());
}

// A Hadoop server offering TOKEN and KERBEROS, answering GSSAPI as Java's
// SASL server does: the AP-REP, then the wrapped security-layer offer, then
// SUCCESS.
struct KerberosServer {
  void operator()(const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) return;
    const ClientFrame frame = parse_client_frame(written);
    std::string_view rest = frame.rest;
    if (frame.header.call_id() == sasl_call_id) {
      hadoop::RpcSasl message;
      ASSERT_TRUE(read_delimited(rest, message).ok());
      received.push_back(message);
      hadoop::RpcSasl reply;
      if (message.state() == hadoop::RpcSasl::NEGOTIATE) {
        reply.set_state(hadoop::RpcSasl::NEGOTIATE);
        auto* token = reply.add_auths();
        token->set_method("TOKEN");
        token->set_mechanism("DIGEST-MD5");
        token->set_protocol("");
        token->set_server_id("default");
        token->set_challenge("realm=\"default\",nonce=\"n\",qop=\"auth\",charset=utf-8,algorithm=md5-sess");
        auto* kerberos = reply.add_auths();
        kerberos->set_method("KERBEROS");
        kerberos->set_mechanism("GSSAPI");
        kerberos->set_protocol("rm");
        kerberos->set_server_id("rm1.example.com");
      } else if (message.state() == hadoop::RpcSasl::INITIATE) {
        reply.set_state(hadoop::RpcSasl::CHALLENGE);
        reply.set_token("ap-rep");
      } else if (received.size() == 3) {
        reply.set_state(hadoop::RpcSasl::CHALLENGE);
        reply.set_token("layer-offer");
      } else {
        reply.set_state(hadoop::RpcSasl::SUCCESS);
      }
      server.send(response_frame(sasl_call_id, &reply));
    } else if (frame.header.call_id() == connection_context_call_id) {
      ASSERT_TRUE(read_delimited(rest, context).ok());
    }
  }
  std::vector<hadoop::RpcSasl> received;
  hadoop::IpcConnectionContext context;
};

ConnectionParams kerberos_params() {
  ConnectionParams params;
  params.peer = "rm1.example.com:8032";
  params.protocol = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
  params.user = "alice";
  params.client_id = std::string(16, '\x07');
  params.handshake_timeout = 2s;
  params.kerberos = KerberosOptions{};
  params.server_host = "rm1.example.com";
  return params;
}

// Puts a scripted mechanism in the Kerberos library's place for one test.
class WithScriptedKerberos : public ::testing::Test {
 protected:
  void SetUp() override {
    real_ = kerberos_mechanism_factory();
    ASSERT_NE(real_, nullptr) << "linking spindle_yarnclient_kerberos installs the GSSAPI mechanism";
    install_kerberos_mechanism(&scripted_kerberos);
    ScriptedKerberos::challenges.clear();
  }
  void TearDown() override { install_kerberos_mechanism(real_); }

 private:
  KerberosMechanismFactory real_ = nullptr;
};

TEST_F(WithScriptedKerberos, ExchangeRunsUntilSuccessAndTheContextNamesThePrincipal) {
  auto server = std::make_shared<KerberosServer>();
  auto transport =
      std::make_unique<ScriptedTransport>([server](const std::string& w, ScriptedTransport& s) { (*server)(w, s); });
  auto connection = RpcConnection::open(std::move(transport), kerberos_params());
  ASSERT_TRUE(connection.ok()) << connection.error().message;
  EXPECT_EQ(ScriptedKerberos::target, "rm@rm1.example.com");
  EXPECT_EQ(ScriptedKerberos::challenges, (std::vector<std::string>{"ap-rep", "layer-offer"}));
  ASSERT_EQ(server->received.size(), 4u);
  const auto& initiate = server->received[1];
  EXPECT_EQ(initiate.state(), hadoop::RpcSasl::INITIATE);
  ASSERT_EQ(initiate.auths_size(), 1);
  EXPECT_EQ(initiate.auths(0).method(), "KERBEROS");
  EXPECT_EQ(initiate.auths(0).server_id(), "rm1.example.com");
  EXPECT_EQ(initiate.token(), "ap-req");
  // The empty answer to the AP-REP still goes out, as Java's client sends it.
  EXPECT_EQ(server->received[2].state(), hadoop::RpcSasl::RESPONSE);
  EXPECT_TRUE(server->received[2].has_token());
  EXPECT_EQ(server->received[2].token(), "");
  EXPECT_EQ(server->received[3].token(), "layer-answer");
  // Like Hadoop's client: the Kerberos principal is the effective user.
  EXPECT_EQ(server->context.user_info().effective_user(), "alice@EXAMPLE.COM");
}

TEST_F(WithScriptedKerberos, ATokenTheServerOffersWinsOverKerberos) {
  auto server = std::make_shared<KerberosServer>();
  auto params = kerberos_params();
  params.token = Token{"id", "pw", "RM_DELEGATION_TOKEN", ""};
  params.make_cnonce = [] { return "fixed"; };
  auto transport =
      std::make_unique<ScriptedTransport>([server](const std::string& w, ScriptedTransport& s) { (*server)(w, s); });
  (void)RpcConnection::open(std::move(transport), std::move(params));
  ASSERT_GE(server->received.size(), 2u);
  EXPECT_EQ(server->received[1].auths(0).method(), "TOKEN");
}

TEST(KerberosConnection, ServerWithoutKerberosFallsBackToSimpleWhenItAllows) {
  std::vector<hadoop::RpcSasl> received;
  hadoop::IpcConnectionContext context;
  auto handler = [&](const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) return;
    const ClientFrame frame = parse_client_frame(written);
    std::string_view rest = frame.rest;
    if (frame.header.call_id() == connection_context_call_id) {
      ASSERT_TRUE(read_delimited(rest, context).ok());
      return;
    }
    hadoop::RpcSasl message;
    ASSERT_TRUE(read_delimited(rest, message).ok());
    received.push_back(message);
    if (message.state() != hadoop::RpcSasl::NEGOTIATE) return;
    hadoop::RpcSasl reply;
    reply.set_state(hadoop::RpcSasl::NEGOTIATE);
    reply.add_auths()->set_method("SIMPLE");
    reply.mutable_auths(0)->set_mechanism("");
    server.send(response_frame(sasl_call_id, &reply));
  };
  auto connection = RpcConnection::open(std::make_unique<ScriptedTransport>(handler), kerberos_params());
  ASSERT_TRUE(connection.ok()) << connection.error().message;
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[1].state(), hadoop::RpcSasl::INITIATE);
  EXPECT_EQ(received[1].auths(0).method(), "SIMPLE");
  EXPECT_EQ(context.user_info().effective_user(), "alice");
}

// The real GSSAPI mechanism with an empty ticket cache, through the public
// client: the sentence to run kinit, recognisable as an authentication error.
TEST(KerberosConnection, NoTicketReachesTheCallerAsAnAuthenticationError) {
  const auto cache = std::filesystem::temp_directory_path() / ("spindle-no-ccache-" + std::to_string(::getpid()));
  const char* old_cache = std::getenv("KRB5CCNAME");
  const std::string saved = old_cache ? old_cache : "";
  ::setenv("KRB5CCNAME", ("FILE:" + cache.string()).c_str(), 1);
  ::setenv("KRB5_CLIENT_KTNAME", ("FILE:" + cache.string() + ".keytab").c_str(), 1);
  auto server = std::make_shared<KerberosServer>();
  RpcOptions options;
  options.with_addresses({"rm1.example.com:8032"})
      .with_kerberos(KerberosOptions{})
      .with_transport(
          [server](const std::string&, std::uint16_t, std::chrono::milliseconds) -> Result<std::unique_ptr<Transport>> {
            return std::unique_ptr<Transport>(std::make_unique<ScriptedTransport>(
                [server](const std::string& w, ScriptedTransport& s) { (*server)(w, s); }));
          })
      .with_retry(fixed_retries(3, 1ms));
  ApplicationClient client(std::move(options));
  auto metrics = client.cluster_metrics();
  if (old_cache) {
    ::setenv("KRB5CCNAME", saved.c_str(), 1);
  } else {
    ::unsetenv("KRB5CCNAME");
  }
  ::unsetenv("KRB5_CLIENT_KTNAME");
  ASSERT_FALSE(metrics.ok());
  EXPECT_EQ(metrics.error().kind, Error::Kind::authentication);
  EXPECT_EQ(metrics.error().message.rfind("there is no Kerberos ticket for the cluster (FILE:" + cache.string(), 0), 0u)
      << metrics.error().message;
  EXPECT_NE(metrics.error().message.find("run `kinit`"), std::string::npos);
  // Refused once, not retried: no ticket appears by asking again.
  EXPECT_EQ(server->received.size(), 1u);
}

TEST(KerberosConfiguration, KerberosSettingsBecomeOptions) {
  HadoopConfiguration configuration;
  configuration.set("yarn.resourcemanager.address", "rm1.example.com:8032");
  EXPECT_FALSE(ApplicationClient::options_for(configuration).kerberos.has_value());
  configuration.set("hadoop.security.authentication", "Kerberos");
  configuration.set("yarn.resourcemanager.principal", "rm/_HOST@EXAMPLE.COM");
  configuration.set("spindle.kerberos.keytab", "/etc/security/alice.keytab");
  configuration.set("spindle.kerberos.principal", "alice@EXAMPLE.COM");
  const auto options = ApplicationClient::options_for(configuration);
  ASSERT_TRUE(options.kerberos.has_value());
  EXPECT_EQ(options.kerberos->server_principal, "rm/_HOST@EXAMPLE.COM");
  EXPECT_EQ(options.kerberos->login.keytab, "/etc/security/alice.keytab");
  EXPECT_EQ(options.kerberos->login.principal, "alice@EXAMPLE.COM");
}

// A ResourceManager answering the delegation token calls.
TEST(DelegationTokens, GetRenewAndCancelSpeakHadoopsMessages) {
  std::vector<std::string> methods;
  std::string renewer;
  auto handler = [&](const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) return;
    const ClientFrame frame = parse_client_frame(written);
    if (frame.header.call_id() < 0) return;
    std::string_view rest = frame.rest;
    hadoop::RequestHeader header;
    ASSERT_TRUE(read_delimited(rest, header).ok());
    methods.push_back(header.method_name());
    if (header.method_name() == "getDelegationToken") {
      hadoop::GetDelegationTokenRequest request;
      ASSERT_TRUE(read_delimited(rest, request).ok());
      renewer = request.renewer();
      hadoop::GetDelegationTokenResponse response;
      auto* token = response.mutable_token();
      token->set_identifier(std::string("\x00\x05owner", 7));
      token->set_password("secret");
      token->set_kind("RM_DELEGATION_TOKEN");
      token->set_service("");
      server.send(response_frame(frame.header.call_id(), &response));
    } else if (header.method_name() == "renewDelegationToken") {
      hadoop::RenewDelegationTokenRequest request;
      ASSERT_TRUE(read_delimited(rest, request).ok());
      EXPECT_EQ(request.token().password(), "secret");
      hadoop::RenewDelegationTokenResponse response;
      response.set_new_expiry_time(1'700'000'000'000);
      server.send(response_frame(frame.header.call_id(), &response));
    } else {
      hadoop::CancelDelegationTokenResponse response;
      server.send(response_frame(frame.header.call_id(), &response));
    }
  };
  RpcOptions options;
  options.with_addresses({"127.0.0.1:8032"})
      .with_user("alice")
      .with_transport(
          [&](const std::string&, std::uint16_t, std::chrono::milliseconds) -> Result<std::unique_ptr<Transport>> {
            return std::unique_ptr<Transport>(std::make_unique<ScriptedTransport>(handler));
          })
      .with_call_timeout(2s);
  ApplicationClient client(std::move(options));
  auto token = client.delegation_token("yarn");
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_EQ(renewer, "yarn");
  EXPECT_EQ(token->kind, "RM_DELEGATION_TOKEN");
  EXPECT_EQ(token->identifier, std::string("\x00\x05owner", 7));
  // Hadoop's service name for an RM token: the RM's IP address and port.
  EXPECT_EQ(token->service, "127.0.0.1:8032");
  auto renewed = client.renew_delegation_token(*token);
  ASSERT_TRUE(renewed.ok());
  EXPECT_EQ(*renewed, 1'700'000'000'000);
  EXPECT_TRUE(client.cancel_delegation_token(*token).ok());
  EXPECT_EQ(methods, (std::vector<std::string>{"getDelegationToken", "renewDelegationToken", "cancelDelegationToken"}));
}

}  // namespace
}  // namespace spindle::yarn::ipc

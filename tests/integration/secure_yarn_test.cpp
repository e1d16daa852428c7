// Kerberos against the secure local YARN (scripts/local-yarn --secure): a
// real KDC, a ResourceManager that takes only Kerberos and tokens, and our
// GSSAPI client. Each test uses a ticket cache of its own, never the user's.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "secure_cluster_environment.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/transport.h"

namespace spindle::yarn {
namespace {

class SecureYarn : public ::testing::Test {
 protected:
  void SetUp() override {
    environment_ = secure_test::secure_cluster_environment(SPINDLE_SOURCE_DIR);
    for (const char* name : secure_test::secure_cluster_variables) {
      ASSERT_FALSE(environment_[name].empty()) << name << " is unknown: is `scripts/local-yarn --secure up` running?";
    }
    ::setenv("HADOOP_CONF_DIR", environment_["HADOOP_CONF_DIR"].c_str(), 1);
    ::setenv("KRB5_CONFIG", environment_["KRB5_CONFIG"].c_str(), 1);
    cache_ = std::filesystem::temp_directory_path() / ("spindle-secure-ccache-" + std::to_string(::getpid()) + "-" +
                                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove(cache_);
    ::setenv("KRB5CCNAME", ("FILE:" + cache_.string()).c_str(), 1);
    auto loaded = HadoopConfiguration::from_environment();
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    configuration_ = *loaded;
    ASSERT_TRUE(uses_kerberos(configuration_));
  }
  void TearDown() override { std::filesystem::remove(cache_); }

  void kinit() {
    const std::string command =
        "kinit -kt '" + environment_["SPINDLE_SECURE_KEYTAB"] + "' '" + environment_["SPINDLE_SECURE_PRINCIPAL"] + "'";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
  }

  // Options that authenticate with an RM delegation token of our own alone (no Kerberos);
  // without a token when none could be had, which the caller checks.
  RpcOptions token_only_options() {
    auto options = ApplicationClient::options_for(configuration_);
    ApplicationClient kerberos(options);
    const auto principal = environment_["SPINDLE_SECURE_PRINCIPAL"];
    auto token = kerberos.delegation_token(principal.substr(0, principal.find('@')));
    EXPECT_TRUE(token.ok()) << token.error().message;
    options.kerberos.reset();
    if (token) options.token = *token;
    return options;
  }

  std::map<std::string, std::string> environment_;
  std::filesystem::path cache_;
  HadoopConfiguration configuration_;
};

TEST_F(SecureYarn, TicketFromKinitReachesTheResourceManager) {
  kinit();
  ApplicationClient client(ApplicationClient::options_for(configuration_));
  auto metrics = client.cluster_metrics();
  ASSERT_TRUE(metrics.ok()) << metrics.error().message;
  EXPECT_GE(metrics->active, 1);
  auto application = client.new_application();
  ASSERT_TRUE(application.ok()) << application.error().message;
  EXPECT_GT(application->maximum.memory_mib, 0);
}

// The level the cluster demands (scripts/local-yarn --protection; CI runs privacy), which
// every connection must end up using: the strongest of its hadoop.rpc.protection.
RpcProtection cluster_protection(const HadoopConfiguration& configuration) {
  auto levels = rpc_protection(configuration);
  EXPECT_TRUE(levels.ok());
  RpcProtection strongest = RpcProtection::authentication;
  for (auto level : *levels) strongest = std::max(strongest, level);
  return strongest;
}

TEST_F(SecureYarn, KerberosConnectionUsesTheClustersProtection) {
  kinit();
  ApplicationClient client(ApplicationClient::options_for(configuration_));
  auto protection = client.protection();
  ASSERT_TRUE(protection.ok()) << protection.error().message;
  EXPECT_EQ(*protection, cluster_protection(configuration_));
  auto application = client.new_application();
  ASSERT_TRUE(application.ok()) << application.error().message;
}

TEST_F(SecureYarn, TokenConnectionUsesTheClustersProtection) {
  kinit();
  // DIGEST-MD5 with the token alone, as an application master's calls go.
  auto options = token_only_options();
  ASSERT_TRUE(options.token.has_value());
  ApplicationClient client(options);
  auto protection = client.protection();
  ASSERT_TRUE(protection.ok()) << protection.error().message;
  EXPECT_EQ(*protection, cluster_protection(configuration_));
  auto metrics = client.cluster_metrics();
  ASSERT_TRUE(metrics.ok()) << metrics.error().message;
  EXPECT_GE(metrics->active, 1);
}

TEST_F(SecureYarn, AClientAllowingLessThanTheClusterIsToldWhatToSet) {
  kinit();
  auto options = ApplicationClient::options_for(configuration_);
  options.protection = {RpcProtection::authentication};
  ApplicationClient client(options);
  auto protection = client.protection();
  if (cluster_protection(configuration_) == RpcProtection::authentication) {
    // Such a client is all that cluster asks for.
    ASSERT_TRUE(protection.ok()) << protection.error().message;
    EXPECT_EQ(*protection, RpcProtection::authentication);
    return;
  }
  ASSERT_FALSE(protection.ok());
  EXPECT_NE(protection.error().message.find("but hadoop.rpc.protection here allows only authentication; set "
                                            "hadoop.rpc.protection in core-site.xml to what the cluster uses"),
            std::string::npos)
      << protection.error().message;
}

// A transport to the real ResourceManager that, once armed, changes one byte
// of the next answer on its way in: someone on the path.
struct Tampering {
  std::atomic<bool> armed = false;
  std::atomic<int> connections = 0;
};

class TamperingTransport final : public Transport {
 public:
  TamperingTransport(std::unique_ptr<Transport> inner, std::shared_ptr<Tampering> tampering)
      : inner_(std::move(inner)), tampering_(std::move(tampering)) {}
  Result<void, IoError> write_all(std::string_view bytes) override { return inner_->write_all(bytes); }
  Result<std::string, IoError> read_some(std::chrono::milliseconds timeout) override {
    auto bytes = inner_->read_some(timeout);
    // Twelve bytes from the end: inside the seal (DIGEST-MD5's MAC, the cipher text, or
    // Kerberos' checksum), not in the framing around it.
    if (bytes && bytes->size() > 32 && tampering_->armed.exchange(false)) (*bytes)[bytes->size() - 12] ^= 0x10;
    return bytes;
  }
  void shutdown() override { inner_->shutdown(); }

 private:
  std::unique_ptr<Transport> inner_;
  std::shared_ptr<Tampering> tampering_;
};

// One call untouched, then one whose answer is changed on the way: under integrity or privacy
// it must fail with the sentence, and the next call must work on a new connection.
void expect_tampering_noticed(RpcOptions options, RpcProtection cluster_level) {
  auto tampering = std::make_shared<Tampering>();
  options.retry = fixed_retries(0, std::chrono::milliseconds(0));
  options.transport = [tampering](const std::string& host, std::uint16_t port,
                                  std::chrono::milliseconds timeout) -> Result<std::unique_ptr<Transport>> {
    auto inner = connect_tcp(host, port, timeout);
    if (!inner) return inner.error();
    ++tampering->connections;
    return std::unique_ptr<Transport>(std::make_unique<TamperingTransport>(std::move(*inner), tampering));
  };
  ApplicationClient client(options);
  auto protection = client.protection();
  ASSERT_TRUE(protection.ok()) << protection.error().message;
  EXPECT_EQ(*protection, cluster_level);
  ASSERT_TRUE(client.cluster_metrics().ok());
  if (*protection == RpcProtection::authentication) {
    // Nothing seals the answers there, so nothing could notice; that is what integrity is for.
    return;
  }
  tampering->armed = true;
  auto tampered = client.cluster_metrics();
  ASSERT_FALSE(tampered.ok()) << "a changed answer was taken";
  EXPECT_NE(tampered.error().message.find("failed its integrity check"), std::string::npos) << tampered.error().message;
  EXPECT_NE(tampered.error().message.find("the connection is closed and nothing it said is used"), std::string::npos)
      << tampered.error().message;
  auto again = client.cluster_metrics();
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(tampering->connections.load(), 2);
}

TEST_F(SecureYarn, ATamperedAnswerToKerberosEndsTheConnectionAndIsNeverTaken) {
  kinit();
  expect_tampering_noticed(ApplicationClient::options_for(configuration_), cluster_protection(configuration_));
}

TEST_F(SecureYarn, ATamperedAnswerToATokenEndsTheConnectionAndIsNeverTaken) {
  kinit();
  auto options = token_only_options();
  ASSERT_TRUE(options.token.has_value());
  expect_tampering_noticed(options, cluster_protection(configuration_));
}

TEST_F(SecureYarn, DelegationTokenIsIssuedRenewedAndCancelled) {
  kinit();
  ApplicationClient client(ApplicationClient::options_for(configuration_));
  auto token = client.delegation_token("yarn");
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_EQ(token->kind, "RM_DELEGATION_TOKEN");
  EXPECT_FALSE(token->identifier.empty());
  EXPECT_FALSE(token->password.empty());
  const auto address = configuration_.resource_manager_address(RmService::client);
  EXPECT_EQ(token->service, "127.0.0.1" + address.substr(address.rfind(':')));
  // The owner may cancel; only the renewer may renew.
  auto cancelled = client.cancel_delegation_token(*token);
  EXPECT_TRUE(cancelled.ok()) << cancelled.error().message;
  const auto principal = environment_["SPINDLE_SECURE_PRINCIPAL"];
  auto own = client.delegation_token(principal.substr(0, principal.find('@')));
  ASSERT_TRUE(own.ok()) << own.error().message;
  auto renewed = client.renew_delegation_token(*own);
  ASSERT_TRUE(renewed.ok()) << renewed.error().message;
  EXPECT_GT(*renewed, 1'600'000'000'000);
  EXPECT_TRUE(client.cancel_delegation_token(*own).ok());
}

TEST_F(SecureYarn, KeytabLoginLeavesTheTicketCacheAlone) {
  configuration_.set("spindle.kerberos.keytab", environment_["SPINDLE_SECURE_KEYTAB"]);
  configuration_.set("spindle.kerberos.principal", environment_["SPINDLE_SECURE_PRINCIPAL"]);
  ApplicationClient client(ApplicationClient::options_for(configuration_));
  auto metrics = client.cluster_metrics();
  ASSERT_TRUE(metrics.ok()) << metrics.error().message;
  EXPECT_FALSE(std::filesystem::exists(cache_));
}

TEST_F(SecureYarn, EmptyTicketCacheSaysToRunKinit) {
  ApplicationClient client(ApplicationClient::options_for(configuration_));
  auto metrics = client.cluster_metrics();
  ASSERT_FALSE(metrics.ok());
  EXPECT_EQ(metrics.error().kind, Error::Kind::authentication);
  EXPECT_EQ(metrics.error().message.rfind("there is no Kerberos ticket for the cluster", 0), 0u)
      << metrics.error().message;
  EXPECT_NE(metrics.error().message.find("run `kinit`"), std::string::npos);
}

// What a user sees: the CLI without a ticket says to run kinit and exits 3,
// like for an unreachable cluster.
TEST_F(SecureYarn, CliWithoutTicketExitsThreeWithTheKinitSentence) {
  const std::string command = std::string(SPINDLE_CLI_PATH) + " cluster info 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[512];
  while (std::fgets(buffer, sizeof(buffer), pipe)) output += buffer;
  const int status = ::pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 3) << output;
  EXPECT_NE(output.find("there is no Kerberos ticket for the cluster"), std::string::npos) << output;
  EXPECT_NE(output.find("run `kinit`"), std::string::npos) << output;
}

TEST_F(SecureYarn, AnotherServerPrincipalIsRefused) {
  kinit();
  configuration_.set("yarn.resourcemanager.principal", "nm/_HOST@EXAMPLE.COM");
  ApplicationClient client(ApplicationClient::options_for(configuration_));
  auto metrics = client.cluster_metrics();
  ASSERT_FALSE(metrics.ok());
  EXPECT_EQ(metrics.error().kind, Error::Kind::authentication);
  EXPECT_NE(metrics.error().message.find("presents Kerberos principal rm/localhost@EXAMPLE.COM, but the configured "
                                         "server principal is nm/localhost@EXAMPLE.COM"),
            std::string::npos)
      << metrics.error().message;
}

}  // namespace
}  // namespace spindle::yarn

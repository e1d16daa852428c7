// The HTTP side of Kerberos against the secure local YARN (scripts/local-yarn
// --secure): SPNEGO to the ResourceManager's REST API and WebHDFS, HDFS
// delegation tokens used alone (no ticket, as in a container), renewed and
// cancelled, and the job's tokens as submit would ask for them. Each test
// uses a ticket cache of its own, never the user's.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "secure_cluster_environment.h"
#include "spindle/client/security_tokens.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/token_service.h"
#include "spindle/yarn/token_url_string.h"
#include "spindle/yarn/web_tls.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::yarn {
namespace {

class SecureHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    environment_ = secure_test::secure_cluster_environment(SPINDLE_SOURCE_DIR);
    for (const char* name : secure_test::secure_cluster_variables) {
      ASSERT_FALSE(environment_[name].empty()) << name << " is unknown: is `scripts/local-yarn --secure up` running?";
    }
    ::setenv("HADOOP_CONF_DIR", environment_["HADOOP_CONF_DIR"].c_str(), 1);
    ::setenv("KRB5_CONFIG", environment_["KRB5_CONFIG"].c_str(), 1);
    cache_ = std::filesystem::temp_directory_path() /
             ("spindle-secure-http-ccache-" + std::to_string(::getpid()) + "-" + test_name());
    std::filesystem::remove(cache_);
    with_ticket_cache();
    auto loaded = HadoopConfiguration::from_environment();
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    configuration_ = *loaded;
    ASSERT_TRUE(uses_kerberos(configuration_));
  }
  void TearDown() override { std::filesystem::remove(cache_); }

  static std::string test_name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }
  void with_ticket_cache() { ::setenv("KRB5CCNAME", ("FILE:" + cache_.string()).c_str(), 1); }
  // As inside a container: no ticket cache at all.
  static void without_ticket() { ::setenv("KRB5CCNAME", "FILE:/nonexistent/spindle-no-ticket", 1); }

  void kinit() {
    const std::string command =
        "kinit -kt '" + environment_["SPINDLE_SECURE_KEYTAB"] + "' '" + environment_["SPINDLE_SECURE_PRINCIPAL"] + "'";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
  }
  std::string user() const {
    const auto principal = environment_.at("SPINDLE_SECURE_PRINCIPAL");
    return principal.substr(0, principal.find('@'));
  }

  std::map<std::string, std::string> environment_;
  std::filesystem::path cache_;
  HadoopConfiguration configuration_;
};

TEST_F(SecureHttp, RestApiWithATicket) {
  kinit();
  auto rest = ResourceManagerRest::from_configuration(configuration_);
  auto info = rest.cluster_info();
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ((*info)["clusterInfo"].value("state", ""), "STARTED");
  // The second request rides on the hadoop.auth cookie of the first.
  auto again = rest.nodes();
  ASSERT_TRUE(again.ok()) << again.error().message;
}

TEST_F(SecureHttp, RestApiWithoutATicketSaysToRunKinit) {
  auto info = ResourceManagerRest::from_configuration(configuration_).cluster_info();
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.error().kind, Error::Kind::authentication);
  // https:// when the cluster serves HTTPS alone (scripts/local-yarn --tls).
  const std::string scheme = https_only(configuration_, WebService::yarn) ? "https://" : "http://";
  EXPECT_TRUE(info.error().message.starts_with("no valid Kerberos ticket for " + scheme)) << info.error().message;
  EXPECT_NE(info.error().message.find("run kinit"), std::string::npos) << info.error().message;
}

TEST_F(SecureHttp, HdfsDelegationTokenWorksAloneThenIsRenewedAndCancelled) {
  kinit();
  auto made = WebHdfs::from_configuration(configuration_);
  ASSERT_TRUE(made.ok()) << made.error().message;
  auto& hdfs = *made;
  auto root = hdfs.list("/");
  ASSERT_TRUE(root.ok()) << root.error().message;
  const std::string directory = "/tmp/spindle-secure-http-" + std::to_string(::getpid());
  const std::string file = directory + "/hello.txt";
  ASSERT_TRUE(hdfs.mkdirs(directory).ok());
  auto written = hdfs.write(file, "hello over a token", true);
  ASSERT_TRUE(written.ok()) << written.error().message;

  // Renewer: ourselves, so this test may renew it (the job's renewer is the ResourceManager).
  auto token = hdfs.delegation_token(user());
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_FALSE(token->identifier.empty());
  EXPECT_FALSE(token->password.empty());

  without_ticket();
  WebHdfs::Options token_only = hdfs.options();
  token_only.delegation = *token;
  WebHdfs container_side(token_only);
  auto listed = container_side.list(directory);
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->front().name, "hello.txt");
  auto read = container_side.read_all(file);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(*read, "hello over a token");
  // Without the token a new client has no way in (`hdfs` still holds the
  // hadoop.auth cookie of its Kerberos login, which is valid for a while).
  auto fresh = WebHdfs::from_configuration(configuration_);
  ASSERT_TRUE(fresh.ok());
  auto no_way_in = fresh->list(directory);
  ASSERT_FALSE(no_way_in.ok());
  EXPECT_EQ(no_way_in.error().kind, Error::Kind::authentication) << no_way_in.error().message;

  with_ticket_cache();
  auto expiry = hdfs.renew_delegation_token(*token);
  ASSERT_TRUE(expiry.ok()) << expiry.error().message;
  EXPECT_GT(*expiry, std::chrono::system_clock::now());
  auto cancelled = hdfs.cancel_delegation_token(*token);
  ASSERT_TRUE(cancelled.ok()) << cancelled.error().message;

  without_ticket();
  auto refused = container_side.list(directory);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, Error::Kind::authentication) << refused.error().message;
  EXPECT_EQ(refused.error().message.find(encode_token_url_string(*token)), std::string::npos);

  with_ticket_cache();
  EXPECT_TRUE(hdfs.remove(directory, true).ok());
}

TEST_F(SecureHttp, JobTokensForTheApplicationMaster) {
  kinit();
  auto credentials = client::obtain_job_tokens(JobSpec{}, configuration_);
  ASSERT_TRUE(credentials.ok()) << credentials.error().message;
  auto made = WebHdfs::from_configuration(configuration_);
  ASSERT_TRUE(made.ok());
  const auto rpc = made->namenode_rpc_address();
  const auto hdfs_service = "127.0.0.1" + rpc.substr(rpc.rfind(':'));
  ASSERT_TRUE(credentials->tokens.count(hdfs_service)) << hdfs_service;
  EXPECT_EQ(credentials->tokens.at(hdfs_service).kind, "HDFS_DELEGATION_TOKEN");
  const auto* rm = credentials->find_kind("RM_DELEGATION_TOKEN");
  ASSERT_NE(rm, nullptr);
  const auto address = configuration_.resource_manager_address(RmService::client);
  EXPECT_EQ(rm->service, "127.0.0.1" + address.substr(address.rfind(':')));
  auto parsed = Credentials::parse(credentials->serialize());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->tokens, credentials->tokens);

  // The HDFS token, as the application master finds it, works for WebHDFS alone.
  without_ticket();
  WebHdfs::Options token_only = made->options();
  token_only.delegation = credentials->tokens.at(hdfs_service);
  auto listed = WebHdfs(token_only).list("/");
  EXPECT_TRUE(listed.ok()) << listed.error().message;
}

}  // namespace
}  // namespace spindle::yarn

// obtain_job_tokens against one fake server playing the NameNode's WebHDFS
// and the ResourceManager's REST API: which tokens, how they are named,
// and that nothing is asked for without Kerberos.

#include <gtest/gtest.h>

#include "../yarnclient/fake_http_server.h"
#include "spindle/client/security_tokens.h"
#include "spindle/yarn/token_url_string.h"

namespace spindle::client {
namespace {

using yarn::testing::FakeHttpServer;

const yarn::Token namenode_token{"nn-ident", "nn-pw", "WEBHDFS delegation", "127.0.0.1:9870"};
const yarn::Token rm_token{"rm-ident", "rm-pw", "RM_DELEGATION_TOKEN", ""};

FakeHttpServer::Handler cluster() {
  return [](const std::string& request) {
    if (request.starts_with("GET /webhdfs/v1/?op=GETDELEGATIONTOKEN")) {
      return FakeHttpServer::answer(
          200, "OK", R"({"Token":{"urlString":")" + yarn::encode_token_url_string(namenode_token) + R"("}})");
    }
    if (request.starts_with("POST /ws/v1/cluster/delegation-token")) {
      return FakeHttpServer::answer(200, "OK", R"({"token":")" + yarn::encode_token_url_string(rm_token) + R"("})");
    }
    return FakeHttpServer::answer(404, "Not Found", "");
  };
}

yarn::HadoopConfiguration secure_configuration(const FakeHttpServer& server) {
  yarn::HadoopConfiguration configuration;
  configuration.set("hadoop.security.authentication", "kerberos");
  configuration.set("fs.defaultFS", "hdfs://localhost:8020");
  configuration.set("dfs.namenode.http-address", server.address());
  configuration.set("yarn.resourcemanager.address", "localhost:8032");
  configuration.set("yarn.resourcemanager.webapp.address", server.address());
  configuration.set("yarn.resourcemanager.principal", "rm/_HOST@EXAMPLE.COM");
  return configuration;
}

TEST(JobTokens, NoneWithoutKerberos) {
  FakeHttpServer server(cluster());
  auto configuration = secure_configuration(server);
  configuration.set("hadoop.security.authentication", "simple");
  auto tokens = obtain_job_tokens(JobSpec{}, configuration);
  ASSERT_TRUE(tokens.ok()) << tokens.error().message;
  EXPECT_TRUE(tokens->tokens.empty());
  EXPECT_TRUE(server.requests().empty());
}

TEST(JobTokens, DefaultFileSystemAndResourceManagerNamedAsHadoopClientsLookThemUp) {
  FakeHttpServer server(cluster());
  auto tokens = obtain_job_tokens(JobSpec{}, secure_configuration(server));
  ASSERT_TRUE(tokens.ok()) << tokens.error().message;
  ASSERT_EQ(tokens->tokens.size(), 2u);
  const auto& hdfs = tokens->tokens.at("127.0.0.1:8020");
  EXPECT_EQ(hdfs.kind, "HDFS_DELEGATION_TOKEN");
  EXPECT_EQ(hdfs.service, "127.0.0.1:8020");
  EXPECT_EQ(hdfs.identifier, namenode_token.identifier);
  EXPECT_EQ(hdfs.password, namenode_token.password);
  const auto& rm = tokens->tokens.at("127.0.0.1:8032");
  EXPECT_EQ(rm.kind, "RM_DELEGATION_TOKEN");
  EXPECT_EQ(rm.identifier, rm_token.identifier);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  // The renewer is the ResourceManager's principal on its host; no user.name under Kerberos.
  EXPECT_TRUE(requests[0].starts_with("GET /webhdfs/v1/?op=GETDELEGATIONTOKEN&renewer=rm%2Flocalhost%40EXAMPLE.COM "))
      << requests[0];
  EXPECT_NE(requests[1].find(R"({"renewer":"rm/localhost@EXAMPLE.COM"})"), std::string::npos) << requests[1];
}

TEST(JobTokens, ExtraFileSystemsAndAnRmTokenSourceOfTheCallersChoice) {
  FakeHttpServer server(cluster());
  JobSpec spec;
  // The same NameNode under another name is asked once; a webhdfs:// one keeps the WebHDFS kind.
  spec.file_systems = {"hdfs://127.0.0.1:8020", "webhdfs://" + server.address()};
  JobTokenOptions options;
  options.renewer = "yarn";
  options.resource_manager_token = [](const std::string& renewer) -> Result<yarn::Token> {
    EXPECT_EQ(renewer, "yarn");
    return yarn::Token{"rpc", "pw", "RM_DELEGATION_TOKEN", "10.1.1.1:8032"};
  };
  auto tokens = obtain_job_tokens(spec, secure_configuration(server), options);
  ASSERT_TRUE(tokens.ok()) << tokens.error().message;
  ASSERT_EQ(tokens->tokens.size(), 3u);
  EXPECT_EQ(tokens->tokens.at("127.0.0.1:8020").kind, "HDFS_DELEGATION_TOKEN");
  EXPECT_EQ(tokens->tokens.at(server.address()).kind, "WEBHDFS delegation");
  EXPECT_EQ(tokens->tokens.at("10.1.1.1:8032").identifier, "rpc");
  EXPECT_EQ(server.requests().size(), 2u);  // two NameNode requests, none to the RM's REST API
}

TEST(JobTokens, ANameNodeThatFailsIsNamed) {
  FakeHttpServer server([](const std::string&) { return FakeHttpServer::answer(500, "Server Error", ""); });
  auto tokens = obtain_job_tokens(JobSpec{}, secure_configuration(server));
  ASSERT_FALSE(tokens.ok());
  EXPECT_TRUE(tokens.error().message.starts_with("cannot get a delegation token for hdfs://localhost:8020: "))
      << tokens.error().message;
}

// An HA nameservice: the token comes from whichever NameNode is active and
// is named as Hadoop names it, "ha-hdfs:<nameservice>".
TEST(JobTokens, AnHaNameserviceTokenIsNamedForTheNameservice) {
  FakeHttpServer standby([](const std::string&) {
    return FakeHttpServer::answer(
        403, "Forbidden",
        R"({"RemoteException":{"exception":"StandbyException","message":"Operation category READ is not supported in state standby"}})");
  });
  FakeHttpServer active(cluster());
  auto configuration = secure_configuration(active);
  configuration.set("fs.defaultFS", "hdfs://spindle-ns");
  configuration.set("dfs.nameservices", "spindle-ns");
  configuration.set("dfs.ha.namenodes.spindle-ns", "nn1,nn2");
  configuration.set("dfs.namenode.http-address.spindle-ns.nn1", standby.address());
  configuration.set("dfs.namenode.http-address.spindle-ns.nn2", active.address());
  JobSpec spec;
  spec.file_systems = {"hdfs://spindle-ns/data"};  // the same nameservice: one token
  auto tokens = obtain_job_tokens(spec, configuration);
  ASSERT_TRUE(tokens.ok()) << tokens.error().message;
  ASSERT_EQ(tokens->tokens.size(), 2u);
  ASSERT_TRUE(tokens->tokens.count("ha-hdfs:spindle-ns"));
  const auto& hdfs = tokens->tokens.at("ha-hdfs:spindle-ns");
  EXPECT_EQ(hdfs.kind, "HDFS_DELEGATION_TOKEN");
  EXPECT_EQ(hdfs.service, "ha-hdfs:spindle-ns");
  EXPECT_EQ(hdfs.identifier, namenode_token.identifier);
  EXPECT_EQ(standby.requests().size(), 1u);
}

}  // namespace
}  // namespace spindle::client

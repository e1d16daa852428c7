// The HTTP clients against a fake server: SPNEGO challenges without a
// ticket, token-only WebHDFS, the hadoop.auth cookie, delegation token
// operations, and that no token reaches a message.

#include <gtest/gtest.h>

#include <cstdlib>

#include "fake_http_server.h"
#include "spindle/yarn/http_client.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/token_url_string.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::yarn {
namespace {

using testing::FakeHttpServer;

const Token sample{"\xfb\xff\xbf", "pw", "HDFS_DELEGATION_TOKEN", "127.0.0.1:8020"};

std::string request_line(const std::string& request) {
  return request.substr(0, request.find("\r\n"));
}

bool has_header(const std::string& request, const std::string& name) {
  return request.find("\r\n" + name + ":") != std::string::npos;
}

// No ticket anywhere: a cache file that does not exist.
class WithoutTicket : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* old = std::getenv("KRB5CCNAME")) saved_ = old;
    ::setenv("KRB5CCNAME", "FILE:/nonexistent/spindle-test-ccache", 1);
  }
  void TearDown() override {
    if (saved_.empty()) {
      ::unsetenv("KRB5CCNAME");
    } else {
      ::setenv("KRB5CCNAME", saved_.c_str(), 1);
    }
  }
  std::string saved_;
};

std::string negotiate_challenge(const std::string&) {
  return FakeHttpServer::answer(401, "Unauthorized", "<html>Authentication required</html>",
                                "WWW-Authenticate: Negotiate\r\n");
}

TEST_F(WithoutTicket, AChallengeGivesTheKinitSentence) {
  FakeHttpServer server(negotiate_challenge);
  ResourceManagerRest::Options options;
  options.web_addresses = {server.address()};
  options.user = "alice";
  ResourceManagerRest rest(options);
  auto info = rest.cluster_info();
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.error().kind, Error::Kind::authentication);
  if (http::spnego_available()) {
    EXPECT_EQ(info.error().message, "no valid Kerberos ticket for http://" + server.address() +
                                        " was accepted; run kinit (or kinit -kt with a keytab and principal) and "
                                        "try again");
  }
}

TEST_F(WithoutTicket, WebHdfsUnderKerberosSendsNoUserNameAndGivesTheKinitSentence) {
  FakeHttpServer server(negotiate_challenge);
  WebHdfs::Options options;
  options.namenode_http = server.address();
  options.default_fs = "hdfs://127.0.0.1:8020";
  options.user = "alice";
  options.kerberos = true;
  WebHdfs hdfs(options);
  auto listed = hdfs.list("/user/alice");
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.error().kind, Error::Kind::authentication);
  EXPECT_NE(listed.error().message.find("run kinit"), std::string::npos) << listed.error().message;
  ASSERT_FALSE(server.requests().empty());
  EXPECT_EQ(request_line(server.requests().front()).find("user.name"), std::string::npos);
}

TEST(TokenOnlyWebHdfs, CarriesTheTokenNeverNegotiatesAndNeverShowsIt) {
  FakeHttpServer server(negotiate_challenge);
  WebHdfs::Options options;
  options.namenode_http = server.address();
  options.default_fs = "hdfs://127.0.0.1:8020";
  options.user = "alice";
  options.delegation = sample;
  WebHdfs hdfs(options);
  auto listed = hdfs.list("/user/alice");
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.error().kind, Error::Kind::authentication);
  const auto url_string = encode_token_url_string(sample);
  EXPECT_EQ(listed.error().message.find(url_string), std::string::npos);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);  // no second, negotiating round
  const auto line = request_line(requests.front());
  EXPECT_NE(line.find("&delegation=" + url_string), std::string::npos) << line;
  EXPECT_EQ(line.find("user.name"), std::string::npos) << line;
  EXPECT_FALSE(has_header(requests.front(), "Authorization"));
}

TEST(HttpErrors, ATransportFailureRedactsTheToken) {
  http::Request request;
  request.url = "http://127.0.0.1:1/webhdfs/v1/x?op=OPEN&delegation=SECRETTOKEN&offset=0";
  request.connect_timeout = std::chrono::milliseconds(2000);
  auto response = http::perform(request);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().message.find("SECRETTOKEN"), std::string::npos) << response.error().message;
  EXPECT_NE(response.error().message.find("delegation=<redacted>&offset=0"), std::string::npos);
}

TEST(HttpErrors, ARefusedTokenIsAnAuthenticationErrorWithoutTheToken) {
  FakeHttpServer server([](const std::string&) {
    return FakeHttpServer::answer(
        403, "Forbidden",
        R"({"RemoteException":{"exception":"InvalidToken","javaClassName":"org.apache.hadoop.security.token.SecretManager$InvalidToken","message":"token (HDFS_DELEGATION_TOKEN token 7 for alice) is expired"}})",
        "Content-Type: application/json\r\n");
  });
  WebHdfs::Options options;
  options.namenode_http = server.address();
  options.default_fs = "hdfs://127.0.0.1:8020";
  options.delegation = sample;
  auto read = WebHdfs(options).read_all("/data/x");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().kind, Error::Kind::authentication);
  EXPECT_EQ(read.error().message,
            "reading /data/x from HDFS: token (HDFS_DELEGATION_TOKEN token 7 for alice) is expired");
}

TEST(AuthCookie, IsKeptAndSentBackToTheSameServer) {
  FakeHttpServer server([](const std::string&) {
    return FakeHttpServer::answer(200, "OK", R"({"clusterInfo":{"id":1}})",
                                  "Set-Cookie: hadoop.auth=\"u=alice&p=alice@EXAMPLE.COM&t=kerberos&e=1&s=x\"; "
                                  "Path=/; HttpOnly\r\nContent-Type: application/json\r\n");
  });
  ResourceManagerRest::Options options;
  options.web_addresses = {server.address()};
  options.kerberos = true;
  ResourceManagerRest rest(options);
  ASSERT_TRUE(rest.cluster_info().ok());
  ASSERT_TRUE(rest.cluster_info().ok());
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_FALSE(has_header(requests[0], "Cookie"));
  EXPECT_NE(requests[1].find("\r\nCookie: hadoop.auth=\"u=alice&p=alice@EXAMPLE.COM&t=kerberos&e=1&s=x\"\r\n"),
            std::string::npos)
      << requests[1];
  EXPECT_EQ(request_line(requests[0]).find("user.name"), std::string::npos);
}

TEST(WebHdfsDelegationTokens, GetRenewAndCancel) {
  const auto url_string = encode_token_url_string(sample);
  FakeHttpServer server([&](const std::string& request) {
    const auto line = request_line(request);
    if (line.find("op=GETDELEGATIONTOKEN") != std::string::npos) {
      return FakeHttpServer::answer(200, "OK", R"({"Token":{"urlString":")" + url_string + R"("}})");
    }
    if (line.find("op=RENEWDELEGATIONTOKEN") != std::string::npos) {
      return FakeHttpServer::answer(200, "OK", R"({"long":1700000000123})");
    }
    if (line.find("op=CANCELDELEGATIONTOKEN") != std::string::npos) return FakeHttpServer::answer(200, "OK", "");
    return FakeHttpServer::answer(400, "Bad Request", "");
  });
  WebHdfs::Options options;
  options.namenode_http = server.address();
  options.default_fs = "hdfs://127.0.0.1:8020";
  options.kerberos = true;
  WebHdfs hdfs(options);
  auto token = hdfs.delegation_token("rm/rm1@EXAMPLE.COM");
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_EQ(*token, sample);
  auto expiry = hdfs.renew_delegation_token(*token);
  ASSERT_TRUE(expiry.ok()) << expiry.error().message;
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(expiry->time_since_epoch()).count(), 1700000000123);
  EXPECT_TRUE(hdfs.cancel_delegation_token(*token).ok());
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_NE(request_line(requests[0]).find("GET /webhdfs/v1/?op=GETDELEGATIONTOKEN&renewer=rm%2Frm1%40EXAMPLE.COM"),
            std::string::npos)
      << requests[0];
  EXPECT_NE(request_line(requests[1]).find("PUT /webhdfs/v1/?op=RENEWDELEGATIONTOKEN&token=" + url_string),
            std::string::npos)
      << requests[1];
  EXPECT_NE(request_line(requests[2]).find("PUT /webhdfs/v1/?op=CANCELDELEGATIONTOKEN&token=" + url_string),
            std::string::npos)
      << requests[2];
  EXPECT_EQ(hdfs.namenode_rpc_address(), "127.0.0.1:8020");
}

TEST(WebHdfsDelegationTokens, AnInsecureNameNodeGivesNone) {
  FakeHttpServer server([](const std::string&) { return FakeHttpServer::answer(200, "OK", R"({"Token":null})"); });
  WebHdfs::Options options;
  options.namenode_http = server.address();
  options.default_fs = "hdfs://127.0.0.1:8020";
  auto token = WebHdfs(options).delegation_token("rm");
  ASSERT_FALSE(token.ok());
  EXPECT_NE(token.error().message.find("is security enabled"), std::string::npos) << token.error().message;
}

TEST(ResourceManagerDelegationToken, PostsTheRenewerAndDecodesTheToken) {
  const Token rm_token{"ident", "secret", "RM_DELEGATION_TOKEN", ""};
  const auto url_string = encode_token_url_string(rm_token);
  FakeHttpServer server([&](const std::string&) {
    return FakeHttpServer::answer(
        200, "OK", R"({"token":")" + url_string + R"(","renewer":"rm","owner":"alice","kind":"RM_DELEGATION_TOKEN"})",
        "Content-Type: application/json\r\n");
  });
  ResourceManagerRest::Options options;
  options.web_addresses = {server.address()};
  options.kerberos = true;
  auto token = ResourceManagerRest(options).delegation_token("rm/rm1@EXAMPLE.COM");
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_EQ(*token, rm_token);
  const auto request = server.requests().at(0);
  EXPECT_EQ(request_line(request), "POST /ws/v1/cluster/delegation-token HTTP/1.1");
  EXPECT_NE(request.find(R"({"renewer":"rm/rm1@EXAMPLE.COM"})"), std::string::npos) << request;
}

}  // namespace
}  // namespace spindle::yarn

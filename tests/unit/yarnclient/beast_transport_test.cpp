// The HTTP exchange of the container binary (Beast, token-only) against
// scripted servers: what WebHDFS and DataNodes do that a client must
// follow (redirects, an unasked "100 Continue", bodies streamed both ways),
// and the sentences for what it cannot do.

#include <gtest/gtest.h>

#include <string>

#include "closed_port.h"
#include "fake_http_server.h"
#include "spindle/yarn/http_client.h"

namespace spindle::yarn::http {
namespace {

using yarn::testing::FakeHttpServer;

TEST(BeastTransport, FollowsARedirectAndStreamsTheBodyToTheSink) {
  const std::string data(300 * 1024, 'x');
  FakeHttpServer datanode([&](const std::string&) { return FakeHttpServer::answer(200, "OK", data); });
  FakeHttpServer namenode([&](const std::string&) {
    return FakeHttpServer::answer(307, "Temporary Redirect", "",
                                  "Location: http://" + datanode.address() + "/webhdfs/v1/f?op=OPEN\r\n");
  });
  Request request;
  request.url = "http://" + namenode.address() + "/webhdfs/v1/f?op=OPEN&user.name=me";
  request.follow_redirects = true;
  std::string received;
  std::int64_t progressed = 0;
  request.write = [&](std::string_view chunk) {
    received.append(chunk);
    return true;
  };
  request.progress = [&](std::int64_t done, std::int64_t) { progressed = done; };
  auto response = perform(request);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(received, data);
  EXPECT_TRUE(response->body.empty());
  EXPECT_EQ(progressed, static_cast<std::int64_t>(data.size()));
}

TEST(BeastTransport, AnUnaskedContinueIsNotTheAnswer) {
  FakeHttpServer datanode(
      [](const std::string&) { return "HTTP/1.1 100 Continue\r\n\r\n" + FakeHttpServer::answer(201, "Created", ""); });
  Request request;
  request.method = "PUT";
  request.url = "http://" + datanode.address() + "/webhdfs/v1/f?op=CREATE";
  const std::string body = "what the file holds";
  std::size_t offset = 0;
  request.read = [&](char* buffer, std::size_t room) {
    const std::size_t n = std::min(room, body.size() - offset);
    std::copy_n(body.data() + offset, n, buffer);
    offset += n;
    return n;
  };
  request.body_size = static_cast<std::int64_t>(body.size());
  auto response = perform(request);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 201);
  const auto sent = datanode.requests().at(0);
  EXPECT_EQ(sent.substr(sent.find("\r\n\r\n") + 4), body);
  EXPECT_NE(sent.find("Content-Length: " + std::to_string(body.size())), std::string::npos) << sent;
}

TEST(BeastTransport, AnErrorBodyIsKeptForTheMessageNotStreamed) {
  FakeHttpServer namenode([](const std::string&) {
    return FakeHttpServer::answer(404, "Not Found", R"({"RemoteException":{"exception":"FileNotFoundException"}})");
  });
  Request request;
  request.url = "http://" + namenode.address() + "/webhdfs/v1/missing?op=OPEN";
  bool streamed = false;
  request.write = [&](std::string_view) { return streamed = true; };
  auto response = perform(request);
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_EQ(response->status, 404);
  EXPECT_FALSE(streamed);
  EXPECT_NE(response->body.find("FileNotFoundException"), std::string::npos);
}

TEST(BeastTransport, ARefusedConnectionNamesTheRequestWithoutItsToken) {
  Request request;
  request.url = "http://127.0.0.1:" + std::to_string(yarn::testing::closed_port()) +
                "/webhdfs/v1/f?op=OPEN&delegation=SECRETTOKENVALUE";
  request.connect_timeout = std::chrono::milliseconds(2000);
  auto response = perform(request);
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("GET http://127.0.0.1:"), std::string::npos) << response.error().message;
  EXPECT_EQ(response.error().message.find("SECRETTOKENVALUE"), std::string::npos) << response.error().message;
}

TEST(BeastTransport, AKerberosChallengeSaysThatContainersHoldTokensOnly) {
  FakeHttpServer namenode([](const std::string&) {
    return FakeHttpServer::answer(401, "Unauthorized", "", "WWW-Authenticate: Negotiate\r\n");
  });
  Request request;
  request.url = "http://" + namenode.address() + "/webhdfs/v1/f?op=GETFILESTATUS";
  request.negotiate = true;
  auto response = perform(request);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().kind, Error::Kind::authentication);
  EXPECT_NE(response.error().message.find("delegation tokens only"), std::string::npos) << response.error().message;
  EXPECT_FALSE(spnego_available());
}

TEST(BeastTransport, AUrlThatIsNotHttpIsRefusedInOneSentence) {
  Request request;
  request.url = "ftp://example.com/f";
  auto response = perform(request);
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("is not an http:// or https:// URL"), std::string::npos);
}

}  // namespace
}  // namespace spindle::yarn::http

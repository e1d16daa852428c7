// SASL security layers: DIGEST-MD5's integrity and privacy seals on their
// own, then a whole connection against a scripted Hadoop server that
// negotiates them and wraps its answers, including servers that split
// answers across seals, tamper, replay, or drop the layer.

#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "ipc/digest_md5.h"
#include "ipc/digest_security_layer.h"
#include "ipc/rpc_connection.h"
#include "scripted_server.h"

namespace spindle::yarn::ipc {
namespace {

using namespace std::chrono_literals;
using spindle::yarn::testing::ClientFrame;
using spindle::yarn::testing::is_preamble;
using spindle::yarn::testing::parse_client_frame;
using spindle::yarn::testing::response_frame;
using spindle::yarn::testing::ScriptedTransport;
namespace wire = spindle::wire::yarn;

const std::string session_key(16, '\x5a');

struct LayerPair {
  std::unique_ptr<SecurityLayer> client;
  std::unique_ptr<SecurityLayer> server;
};

LayerPair layers(RpcProtection protection) {
  auto client = digest_security_layer(session_key, protection, DigestRole::client, 65536);
  auto server = digest_security_layer(session_key, protection, DigestRole::server, 65536);
  EXPECT_TRUE(client.ok() && server.ok());
  return {std::move(*client), std::move(*server)};
}

class DigestLayer : public ::testing::TestWithParam<RpcProtection> {};

TEST_P(DigestLayer, SealsBothWaysAcrossManyMessages) {
  auto [client, server] = layers(GetParam());
  for (int i = 0; i < 20; ++i) {
    const std::string message(static_cast<std::size_t>(i * 7), static_cast<char>('a' + i));
    auto sealed = client->wrap(message);
    ASSERT_TRUE(sealed.ok());
    auto opened = server->unwrap(*sealed);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    EXPECT_EQ(*opened, message);
    auto answer = server->wrap("answer " + message);
    ASSERT_TRUE(answer.ok());
    auto read = client->unwrap(*answer);
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(*read, "answer " + message);
  }
}

TEST_P(DigestLayer, RefusesATamperedByteAnywhere) {
  const std::string message = "getClusterMetrics with some payload";
  for (std::size_t at = 0; at < message.size() + 16; at += 3) {
    auto [client, server] = layers(GetParam());
    auto sealed = client->wrap(message);
    ASSERT_TRUE(sealed.ok());
    if (at >= sealed->size()) break;
    (*sealed)[at] = static_cast<char>((*sealed)[at] ^ 0x01);
    EXPECT_FALSE(server->unwrap(*sealed).ok()) << "byte " << at;
  }
}

TEST_P(DigestLayer, RefusesReplayedAndReorderedMessages) {
  auto [client, server] = layers(GetParam());
  auto first = client->wrap("one");
  auto second = client->wrap("two");
  ASSERT_TRUE(first.ok() && second.ok());
  auto reordered = server->unwrap(*second);
  ASSERT_FALSE(reordered.ok());
  EXPECT_NE(reordered.error().message.find("sequence number 1 where 0 was due"), std::string::npos);
  auto [client2, server2] = layers(GetParam());
  auto once = client2->wrap("one");
  ASSERT_TRUE(server2->unwrap(*once).ok());
  EXPECT_FALSE(server2->unwrap(*once).ok());
}

TEST_P(DigestLayer, RefusesMessagesTooShortToBeSealed) {
  auto [client, server] = layers(GetParam());
  EXPECT_FALSE(server->unwrap("").ok());
  EXPECT_FALSE(server->unwrap(std::string(15, '\0')).ok());
}

INSTANTIATE_TEST_SUITE_P(Protections, DigestLayer, ::testing::Values(RpcProtection::integrity, RpcProtection::privacy),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(DigestLayerPrivacy, HidesTheMessageAndIntegrityDoesNot) {
  const std::string message = "the job secret is hunter2";
  auto sealed_privately = layers(RpcProtection::privacy).client->wrap(message);
  auto signed_only = layers(RpcProtection::integrity).client->wrap(message);
  EXPECT_EQ(sealed_privately->find("hunter2"), std::string::npos);
  EXPECT_NE(signed_only->find("hunter2"), std::string::npos);
}

TEST(DigestMd5Protection, TakesTheStrongestBothAllow) {
  const std::string challenge =
      "realm=\"default\",nonce=\"n\",qop=\"auth,auth-int,auth-conf\",cipher=\"3des,rc4\",algorithm=md5-sess";
  DigestMd5Client privacy("u", "p", "", "default", [] { return "c"; },
                          {RpcProtection::authentication, RpcProtection::privacy});
  auto response = privacy.respond(challenge);
  ASSERT_TRUE(response.ok());
  EXPECT_NE(response->find("qop=auth-conf"), std::string::npos);
  EXPECT_NE(response->find("cipher=3des"), std::string::npos);
  EXPECT_EQ(privacy.protection(), RpcProtection::privacy);
  DigestMd5Client integrity("u", "p", "", "default", [] { return "c"; }, {RpcProtection::integrity});
  auto signed_response = integrity.respond(challenge);
  ASSERT_TRUE(signed_response.ok());
  EXPECT_NE(signed_response->find("qop=auth-int"), std::string::npos);
  EXPECT_EQ(signed_response->find("cipher="), std::string::npos);
}

TEST(DigestMd5Protection, SaysWhatTheServerRequiresAndWhatToSet) {
  DigestMd5Client client("u", "p", "", "default", [] { return "c"; }, {RpcProtection::authentication});
  auto refused = client.respond("nonce=\"x\",qop=\"auth-conf\",cipher=\"3des\",algorithm=md5-sess");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "the server requires RPC privacy, but hadoop.rpc.protection here allows only authentication; set "
            "hadoop.rpc.protection in core-site.xml to what the cluster uses");
  DigestMd5Client wants_privacy("u", "p", "", "default", [] { return "c"; }, {RpcProtection::privacy});
  auto no_cipher = wants_privacy.respond("nonce=\"x\",qop=\"auth-conf\",cipher=\"rc4,des\",algorithm=md5-sess");
  ASSERT_FALSE(no_cipher.ok());
  EXPECT_NE(no_cipher.error().message.find("rc4, des, none of which is 3des"), std::string::npos);
  EXPECT_FALSE(wants_privacy.respond("nonce=\"x\",maxbuf=12,algorithm=md5-sess").ok());
}

// How a scripted server misbehaves after the handshake.
enum class Misbehaviour { none, split_answers, tamper, replay, drop_layer };

// A Hadoop server that authenticates a token with DIGEST-MD5, agrees on a
// security layer and then seals every answer as Hadoop's does: the whole
// length-prefixed response, one seal each, inside a SASL WRAP message.
class SealingServer {
 public:
  SealingServer(std::string qops, Misbehaviour misbehaviour, std::string maxbuf = "")
      : challenge_("realm=\"default\",nonce=\"srvnonce\",qop=\"" + qops + "\",charset=utf-8,cipher=\"3des,rc4\"," +
                   (maxbuf.empty() ? "" : "maxbuf=" + maxbuf + ",") + "algorithm=md5-sess"),
        misbehaviour_(misbehaviour) {}

  void operator()(const std::string& written, ScriptedTransport& server) {
    std::lock_guard lock(mutex_);
    if (is_preamble(written)) return;
    std::string_view frames = written;
    // The client may write several frames at once when it splits a call.
    while (!frames.empty()) {
      const auto length = (std::uint32_t{static_cast<unsigned char>(frames[0])} << 24) |
                          (std::uint32_t{static_cast<unsigned char>(frames[1])} << 16) |
                          (std::uint32_t{static_cast<unsigned char>(frames[2])} << 8) |
                          static_cast<unsigned char>(frames[3]);
      handle_frame(std::string(frames.substr(0, 4 + length)), server);
      frames.remove_prefix(4 + length);
    }
  }

  int wrap_messages_received = 0;
  std::string unsealed_from_client;
  std::string raw_from_client;
  std::string method_seen;

 private:
  void handle_frame(const std::string& written, ScriptedTransport& server) {
    raw_from_client += written;
    const ClientFrame frame = parse_client_frame(written);
    std::string_view rest = frame.rest;
    ASSERT_EQ(frame.header.call_id(), sasl_call_id) << "after the preamble everything is SASL";
    hadoop::RpcSasl message;
    ASSERT_TRUE(read_delimited(rest, message).ok());
    hadoop::RpcSasl reply;
    if (message.state() == hadoop::RpcSasl::NEGOTIATE) {
      reply = spindle::yarn::testing::digest_offer(challenge_);
      server.send(response_frame(sasl_call_id, &reply));
      return;
    }
    if (message.state() == hadoop::RpcSasl::INITIATE) {
      // The server's view of the exchange: the same client computation with the
      // qop the client chose.
      const bool privacy = message.token().find("qop=auth-conf") != std::string::npos;
      const bool integrity = message.token().find("qop=auth-int") != std::string::npos;
      const auto chosen = privacy     ? RpcProtection::privacy
                          : integrity ? RpcProtection::integrity
                                      : RpcProtection::authentication;
      DigestMd5Client mirror(base64("id-bytes"), base64("pass-bytes"), "", "default", [] { return "fixed"; }, {chosen});
      auto expected = mirror.respond(challenge_);
      ASSERT_TRUE(expected.ok()) << expected.error().message;
      ASSERT_EQ(message.token(), *expected);
      auto layer = mirror.security_layer(DigestRole::server);
      ASSERT_TRUE(layer.ok());
      layer_ = std::move(*layer);
      reply.set_state(hadoop::RpcSasl::SUCCESS);
      reply.set_token("rspauth=" + mirror.expected_server_proof());
      server.send(response_frame(sasl_call_id, &reply));
      return;
    }
    ASSERT_EQ(message.state(), hadoop::RpcSasl::WRAP);
    ASSERT_TRUE(layer_);
    ++wrap_messages_received;
    auto plain = layer_->unwrap(message.token());
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    unsealed_from_client += *plain;
    unsealed_.append(*plain);
    while (true) {
      auto inner = unsealed_.next();
      ASSERT_TRUE(inner.ok());
      if (!*inner) break;
      std::string_view body = **inner;
      hadoop::RpcRequestHeader header;
      ASSERT_TRUE(read_delimited(body, header).ok());
      if (static_cast<std::int32_t>(header.call_id()) < 0) continue;  // the context, pings
      hadoop::RequestHeader method;
      ASSERT_TRUE(read_delimited(body, method).ok());
      method_seen = method.method_name();
      answer(static_cast<std::int32_t>(header.call_id()), server);
    }
  }

  void answer(std::int32_t call_id, ScriptedTransport& server) {
    wire::GetClusterMetricsResponse response;
    response.mutable_cluster_metrics()->set_num_active_nms(call_id + 10);
    const auto plain = response_frame(call_id, &response);
    if (misbehaviour_ == Misbehaviour::drop_layer) {
      server.send(plain);
      return;
    }
    if (misbehaviour_ == Misbehaviour::split_answers) {
      // Odd calls wait, and go out with the next one: one answer split over two
      // seals, the other sharing its second seal.
      held_ += plain;
      if (call_id % 2 == 0) return;
      const auto half = held_.size() / 3;
      auto both = sealed(held_.substr(0, half));
      both += sealed(held_.substr(half));
      server.send(both);
      held_.clear();
      return;
    }
    auto message = sealed(plain);
    if (misbehaviour_ == Misbehaviour::tamper) message[message.size() - 20] ^= 0x04;
    server.send(message);
    if (misbehaviour_ == Misbehaviour::replay) server.send(message);
  }

  std::string sealed(const std::string& plain) {
    auto token = layer_->wrap(plain);
    hadoop::RpcSasl wrap;
    wrap.set_state(hadoop::RpcSasl::WRAP);
    wrap.set_token(*token);
    return response_frame(sasl_call_id, &wrap);
  }

  std::mutex mutex_;
  std::string challenge_;
  Misbehaviour misbehaviour_;
  std::unique_ptr<SecurityLayer> layer_;
  FrameSplitter unsealed_;
  std::string held_;
};

ConnectionParams sealed_params(std::vector<RpcProtection> allowed) {
  ConnectionParams params;
  params.peer = "nm1:8041";
  params.protocol = "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB";
  params.client_id = std::string(16, '\x07');
  params.handshake_timeout = 2s;
  params.token = Token{"id-bytes", "pass-bytes", "NMToken", ""};
  params.make_cnonce = [] { return "fixed"; };
  params.protection = std::move(allowed);
  return params;
}

std::pair<std::unique_ptr<RpcConnection>, std::shared_ptr<SealingServer>> connect(std::string qops,
                                                                                  Misbehaviour misbehaviour,
                                                                                  std::vector<RpcProtection> allowed,
                                                                                  std::string maxbuf = "") {
  auto server = std::make_shared<SealingServer>(std::move(qops), misbehaviour, std::move(maxbuf));
  auto transport =
      std::make_unique<ScriptedTransport>([server](const std::string& w, ScriptedTransport& s) { (*server)(w, s); });
  auto connection = RpcConnection::open(std::move(transport), sealed_params(std::move(allowed)));
  EXPECT_TRUE(connection.ok()) << (connection.ok() ? "" : connection.error().message);
  return {connection.ok() ? std::move(*connection) : nullptr, server};
}

int active_nodes(const std::string& body) {
  wire::GetClusterMetricsResponse response;
  EXPECT_TRUE(response.ParseFromString(body));
  return response.cluster_metrics().num_active_nms();
}

TEST(SealedConnection, PrivacyCarriesCallsAndHidesThem) {
  auto [connection, server] =
      connect("auth-conf,auth-int,auth", Misbehaviour::none,
              {RpcProtection::authentication, RpcProtection::integrity, RpcProtection::privacy});
  ASSERT_TRUE(connection);
  EXPECT_EQ(connection->protection(), RpcProtection::privacy);
  for (int call = 0; call < 3; ++call) {
    auto body = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 5s);
    ASSERT_TRUE(body.ok()) << body.error().message;
    EXPECT_EQ(active_nodes(*body), call + 10);
  }
  EXPECT_EQ(server->method_seen, "getClusterMetrics");
  // The context went sealed too; on the wire neither it nor the method shows.
  EXPECT_NE(server->unsealed_from_client.find("ContainerManagementProtocolPB"), std::string::npos);
  EXPECT_EQ(server->raw_from_client.find("ContainerManagementProtocolPB"), std::string::npos);
  EXPECT_EQ(server->raw_from_client.find("getClusterMetrics"), std::string::npos);
}

TEST(SealedConnection, IntegrityWhenThatIsTheStrongestTheClientAllows) {
  auto [connection, server] =
      connect("auth-conf,auth-int,auth", Misbehaviour::none, {RpcProtection::authentication, RpcProtection::integrity});
  ASSERT_TRUE(connection);
  EXPECT_EQ(connection->protection(), RpcProtection::integrity);
  auto body = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 5s);
  ASSERT_TRUE(body.ok()) << body.error().message;
  // Signed, not hidden.
  EXPECT_NE(server->raw_from_client.find("getClusterMetrics"), std::string::npos);
}

TEST(SealedConnection, AServerThatRequiresMoreIsRefusedWithTheSetting) {
  auto server = std::make_shared<SealingServer>("auth-conf", Misbehaviour::none);
  auto transport =
      std::make_unique<ScriptedTransport>([server](const std::string& w, ScriptedTransport& s) { (*server)(w, s); });
  auto connection = RpcConnection::open(std::move(transport), sealed_params({RpcProtection::authentication}));
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.error().kind, RpcError::Kind::authentication);
  EXPECT_NE(connection.error().message.find("requires RPC privacy, but hadoop.rpc.protection here allows only "
                                            "authentication"),
            std::string::npos);
}

TEST(SealedConnection, AnswersSplitAcrossSealsAndSharingOneArriveWhole) {
  auto [connection, server] = connect("auth-conf", Misbehaviour::split_answers, {RpcProtection::privacy});
  ASSERT_TRUE(connection);
  std::vector<std::future<Result<std::string, RpcError>>> calls;
  for (int call = 0; call < 4; ++call) {
    calls.push_back(std::async(std::launch::async, [&connection] {
      return connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 5s);
    }));
    std::this_thread::sleep_for(20ms);
  }
  std::set<int> answered;
  for (auto& call : calls) {
    auto body = call.get();
    ASSERT_TRUE(body.ok()) << body.error().message;
    answered.insert(active_nodes(*body));
  }
  EXPECT_EQ(answered, (std::set<int>{10, 11, 12, 13}));
}

TEST(SealedConnection, ALargeCallIsSealedInPiecesThePeerCanTake) {
  auto [connection, server] = connect("auth-int", Misbehaviour::none, {RpcProtection::integrity}, "1024");
  ASSERT_TRUE(connection);
  wire::GetApplicationsRequest request;
  request.add_users(std::string(5000, 'x'));
  const int before = server->wrap_messages_received;
  auto body = connection->call("getClusterMetrics", request, 5s);
  ASSERT_TRUE(body.ok()) << body.error().message;
  // 1,024 bytes a seal at most: five or more seals for this one call.
  EXPECT_GE(server->wrap_messages_received, before + 5);
}

TEST(SealedConnection, ATamperedAnswerEndsTheConnectionAndIsNeverTaken) {
  auto [connection, server] = connect("auth-int", Misbehaviour::tamper, {RpcProtection::integrity});
  ASSERT_TRUE(connection);
  auto body = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 5s);
  ASSERT_FALSE(body.ok());
  EXPECT_EQ(body.error().kind, RpcError::Kind::protocol);
  EXPECT_EQ(body.error().message,
            "nm1:8041: a SASL-sealed message failed its integrity check: it was changed on the way; the connection "
            "is closed and nothing it said is used");
  EXPECT_TRUE(connection->broken());
}

TEST(SealedConnection, AReplayedAnswerEndsTheConnection) {
  auto [connection, server] = connect("auth-conf", Misbehaviour::replay, {RpcProtection::privacy});
  ASSERT_TRUE(connection);
  auto first = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 5s);
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto second = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 5s);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().message.find("sequence number 0 where 1 was due"), std::string::npos);
}

TEST(SealedConnection, AServerThatDropsTheLayerIsNotBelieved) {
  auto [connection, server] = connect("auth-conf", Misbehaviour::drop_layer, {RpcProtection::privacy});
  ASSERT_TRUE(connection);
  auto body = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 5s);
  ASSERT_FALSE(body.ok());
  EXPECT_EQ(body.error().message,
            "nm1:8041: sent an unsealed answer on a connection that agreed on RPC privacy; the connection is closed");
}

}  // namespace
}  // namespace spindle::yarn::ipc

// The IPC connection against a scripted server: framing, handshakes,
// concurrent calls, errors, resets, timeouts and pings.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <thread>

#include "ipc/digest_md5.h"
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

// Waits for `condition` under a bound far beyond any machine's slowness: it
// fails only when the awaited event never comes.
bool eventually(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}
namespace wire = spindle::wire::yarn;

constexpr const char* protocol = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";

ConnectionParams simple_params() {
  ConnectionParams params;
  params.peer = "rm:8032";
  params.protocol = protocol;
  params.user = "alice";
  params.client_id = std::string(16, '\x07');
  params.handshake_timeout = 2s;
  return params;
}

// Answers every getClusterMetrics call with `active` active NodeManagers.
void answer_metrics(const std::string& written, ScriptedTransport& server, int active = 2) {
  if (is_preamble(written)) return;
  const ClientFrame frame = parse_client_frame(written);
  if (frame.header.call_id() < 0) return;
  wire::GetClusterMetricsResponse response;
  response.mutable_cluster_metrics()->set_num_active_nms(active);
  server.send(response_frame(frame.header.call_id(), &response));
}

std::unique_ptr<RpcConnection> open(ScriptedTransport::Handler handler, ConnectionParams params = simple_params(),
                                    ScriptedTransport** raw = nullptr) {
  auto transport = std::make_unique<ScriptedTransport>(std::move(handler));
  if (raw) *raw = transport.get();
  auto connection = RpcConnection::open(std::move(transport), std::move(params));
  EXPECT_TRUE(connection.ok()) << (connection.ok() ? "" : connection.error().message);
  return connection.ok() ? std::move(*connection) : nullptr;
}

int active_nodes(const std::string& body) {
  wire::GetClusterMetricsResponse response;
  EXPECT_TRUE(response.ParseFromString(body));
  return response.cluster_metrics().num_active_nms();
}

TEST(FrameSplitter, ReassemblesFramesFromAnyPieces) {
  hadoop::RpcResponseHeader header;
  header.set_call_id(5);
  header.set_status(hadoop::RpcResponseHeader::SUCCESS);
  const std::string frame = encode_frame({&header});
  const std::string two = frame + frame;
  for (std::size_t piece : {1u, 2u, 3u, 7u, 100u}) {
    FrameSplitter splitter;
    int frames = 0;
    for (std::size_t i = 0; i < two.size(); i += piece) {
      splitter.append(two.substr(i, piece));
      while (true) {
        auto next = splitter.next();
        ASSERT_TRUE(next.ok());
        if (!*next) break;
        auto decoded = decode_response(**next);
        ASSERT_TRUE(decoded.ok());
        EXPECT_EQ(decoded->call_id(), 5);
        ++frames;
      }
    }
    EXPECT_EQ(frames, 2) << "piece size " << piece;
  }
}

TEST(FrameSplitter, RefusesImpossibleLengths) {
  FrameSplitter splitter(1024);
  splitter.append(std::string("\x00\x00\x10\x00", 4));
  auto next = splitter.next();
  ASSERT_FALSE(next.ok());
  EXPECT_NE(next.error().message.find("is this port a Hadoop RPC port?"), std::string::npos);
  FrameSplitter old_server;
  old_server.append("\xff\xff\xff\xff");
  EXPECT_NE(old_server.next().error().message.find("before 9"), std::string::npos);
}

TEST(FrameCodec, NegativeCallIdsArriveUnsigned) {
  // -33 travels as the uint32 varint DF FF FF FF 0F.
  const std::string frame = response_frame(sasl_call_id);
  EXPECT_NE(frame.find("\xdf\xff\xff\xff\x0f"), std::string::npos);
  auto decoded = decode_response(std::string_view(frame).substr(4));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->call_id(), -33);
}

TEST(FrameCodec, TruncatedHeaderIsAnError) {
  const std::string frame = response_frame(1);
  EXPECT_FALSE(decode_response(std::string_view(frame).substr(4, 3)).ok());
  std::string_view cut = "\x05\x01";
  hadoop::RpcSasl message;
  EXPECT_FALSE(read_delimited(cut, message).ok());
}

TEST(RpcConnection, SimpleHandshakeSendsPreambleAndContext) {
  ScriptedTransport* server = nullptr;
  auto connection =
      open([](const std::string& w, ScriptedTransport& s) { answer_metrics(w, s); }, simple_params(), &server);
  ASSERT_TRUE(connection);
  const auto writes = server->writes();
  ASSERT_GE(writes.size(), 2u);
  EXPECT_EQ(writes[0], std::string("hrpc\x09\x00\x00", 7));
  const ClientFrame context = parse_client_frame(writes[1]);
  EXPECT_EQ(context.header.call_id(), connection_context_call_id);
  EXPECT_EQ(context.header.client_id(), std::string(16, '\x07'));
  hadoop::IpcConnectionContext message;
  std::string_view rest = context.rest;
  ASSERT_TRUE(read_delimited(rest, message).ok());
  EXPECT_EQ(message.protocol(), protocol);
  EXPECT_EQ(message.user_info().effective_user(), "alice");
}

TEST(RpcConnection, CallCarriesMethodProtocolAndVersion) {
  ScriptedTransport* server = nullptr;
  auto connection =
      open([](const std::string& w, ScriptedTransport& s) { answer_metrics(w, s, 3); }, simple_params(), &server);
  auto body = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 2s);
  ASSERT_TRUE(body.ok()) << body.error().message;
  EXPECT_EQ(active_nodes(*body), 3);
  const ClientFrame call = parse_client_frame(server->writes().back());
  EXPECT_EQ(call.header.call_id(), 0);
  EXPECT_EQ(call.header.rpc_kind(), hadoop::RPC_PROTOCOL_BUFFER);
  hadoop::RequestHeader method;
  std::string_view rest = call.rest;
  ASSERT_TRUE(read_delimited(rest, method).ok());
  EXPECT_EQ(method.method_name(), "getClusterMetrics");
  EXPECT_EQ(method.declaring_class_protocol_name(), protocol);
  EXPECT_EQ(method.client_protocol_version(), 1u);
}

TEST(RpcConnection, AnswersInAnyOrderReachTheirCallers) {
  // The server holds the first call and answers both when the second arrives,
  // second first, each in one-byte pieces.
  std::mutex held_mutex;
  std::vector<std::int32_t> held;
  auto handler = [&](const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) return;
    const ClientFrame frame = parse_client_frame(written);
    if (frame.header.call_id() < 0) return;
    std::lock_guard lock(held_mutex);
    held.push_back(frame.header.call_id());
    if (held.size() < 2) return;
    for (auto it = held.rbegin(); it != held.rend(); ++it) {
      wire::GetClusterMetricsResponse response;
      response.mutable_cluster_metrics()->set_num_active_nms(100 + *it);
      server.send_in_pieces(response_frame(*it, &response), 1);
    }
  };
  auto connection = open(handler);
  auto first = std::async(std::launch::async,
                          [&] { return connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 5s); });
  // The second call goes out once the server holds the first, so their call ids are in order.
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(held_mutex);
    return held.size() == 1;
  }));
  auto second = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 5s);
  auto first_result = first.get();
  ASSERT_TRUE(first_result.ok() && second.ok());
  EXPECT_EQ(active_nodes(*first_result), 100);
  EXPECT_EQ(active_nodes(*second), 101);
}

TEST(RpcConnection, ErrorResponseKeepsTheConnection) {
  std::atomic<int> calls = 0;
  auto handler = [&](const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) return;
    const ClientFrame frame = parse_client_frame(written);
    if (frame.header.call_id() < 0) return;
    if (calls++ == 0) {
      server.send(response_frame(frame.header.call_id(), nullptr, hadoop::RpcResponseHeader::ERROR,
                                 "org.apache.hadoop.yarn.exceptions.YarnException",
                                 "Unknown queue: nope\n\tat org.apache.hadoop.Something(Something.java:1)"));
    } else {
      answer_metrics(written, server, 1);
    }
  };
  auto connection = open(handler);
  auto failed = connection->call("getQueueInfo", wire::GetQueueInfoRequest{}, 2s);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, RpcError::Kind::remote);
  EXPECT_EQ(failed.error().exception_class, "org.apache.hadoop.yarn.exceptions.YarnException");
  EXPECT_EQ(failed.error().message, "org.apache.hadoop.yarn.exceptions.YarnException: Unknown queue: nope");
  EXPECT_FALSE(connection->broken());
  auto next = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 2s);
  ASSERT_TRUE(next.ok());
}

TEST(RpcConnection, FatalResponseFailsEveryCallAndBreaksTheConnection) {
  auto handler = [](const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) return;
    if (parse_client_frame(written).header.call_id() < 0) return;
    server.send(response_frame(auth_failed_call_id, nullptr, hadoop::RpcResponseHeader::FATAL,
                               "org.apache.hadoop.security.AccessControlException",
                               "SIMPLE authentication is not enabled"));
    server.hang_up();
  };
  auto connection = open(handler);
  auto failed = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 2s);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, RpcError::Kind::remote);
  EXPECT_NE(failed.error().message.find("SIMPLE authentication is not enabled"), std::string::npos);
  // The reader marks the connection broken after handing out the answer.
  EXPECT_TRUE(eventually([&] { return connection->broken(); }));
  EXPECT_FALSE(connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 1s).ok());
}

TEST(RpcConnection, ResetMidResponseIsALostConnection) {
  auto handler = [](const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) return;
    const ClientFrame frame = parse_client_frame(written);
    if (frame.header.call_id() < 0) return;
    wire::GetClusterMetricsResponse response;
    const std::string whole = response_frame(frame.header.call_id(), &response);
    server.send(whole.substr(0, whole.size() / 2));
    server.hang_up();
  };
  auto connection = open(handler);
  auto failed = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 2s);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, RpcError::Kind::lost);
  EXPECT_NE(failed.error().message.find("rm:8032"), std::string::npos);
}

TEST(RpcConnection, NoAnswerTimesOut) {
  auto connection = open([](const std::string&, ScriptedTransport&) {});
  const auto start = std::chrono::steady_clock::now();
  auto failed = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 150ms);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, RpcError::Kind::timed_out);
  EXPECT_EQ(failed.error().message, "rm:8032 did not answer getClusterMetrics within 0.1 s");
  // Only a call that ignored its own timeout takes this long.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 60s);
}

TEST(RpcConnection, PingsAQuietLine) {
  std::atomic<int> pings = 0;
  auto handler = [&](const std::string& written, ScriptedTransport&) {
    if (!is_preamble(written) && parse_client_frame(written).header.call_id() == ping_call_id) ++pings;
  };
  ConnectionParams params = simple_params();
  params.ping_interval = 30ms;
  auto connection = open(handler, params);
  EXPECT_TRUE(eventually([&] { return pings.load() >= 2; })) << pings.load() << " pings";
}

TEST(RpcConnection, MalformedFrameBreaksTheConnection) {
  auto handler = [](const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written) || parse_client_frame(written).header.call_id() < 0) return;
    server.send(std::string("\x00\x00\x00\x03\x09\xff\xff", 7));
  };
  auto connection = open(handler);
  auto failed = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 2s);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, RpcError::Kind::protocol);
}

// A server that authenticates a token with DIGEST-MD5 as Hadoop's does.
class TokenServer {
 public:
  explicit TokenServer(std::string password_seen_by_server) : server_password_(std::move(password_seen_by_server)) {}

  void operator()(const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) {
      preamble = written;
      return;
    }
    const ClientFrame frame = parse_client_frame(written);
    std::string_view rest = frame.rest;
    if (frame.header.call_id() == sasl_call_id) {
      hadoop::RpcSasl message;
      ASSERT_TRUE(read_delimited(rest, message).ok());
      hadoop::RpcSasl reply;
      if (message.state() == hadoop::RpcSasl::NEGOTIATE) {
        reply = spindle::yarn::testing::digest_offer(
            "realm=\"default\",nonce=\"srvnonce\",qop=\"auth\",charset=utf-8,algorithm=md5-sess");
        auto* simple = reply.add_auths();
        simple->set_method("SIMPLE");
        simple->set_mechanism("");
      } else {
        initiate = message;
        // Check the client's proof with what the server knows.
        DigestMd5Client expected(base64("id-bytes"), base64(server_password_), "", "default", [] { return "fixed"; });
        auto expected_response =
            expected.respond("realm=\"default\",nonce=\"srvnonce\",qop=\"auth\",charset=utf-8,algorithm=md5-sess");
        if (message.token() != *expected_response) {
          server.send(response_frame(sasl_call_id, nullptr, hadoop::RpcResponseHeader::FATAL,
                                     "javax.security.sasl.SaslException",
                                     "DIGEST-MD5: digest response format violation"));
          server.hang_up();
          return;
        }
        reply.set_state(hadoop::RpcSasl::SUCCESS);
        reply.set_token("rspauth=" + rspauth(message.token()));
      }
      server.send(response_frame(sasl_call_id, &reply));
    } else if (frame.header.call_id() == connection_context_call_id) {
      ASSERT_TRUE(read_delimited(rest, context).ok());
    } else if (frame.header.call_id() >= 0) {
      answer_metrics(written, server, 4);
    }
  }

  std::string preamble;
  hadoop::RpcSasl initiate;
  hadoop::IpcConnectionContext context;

 private:
  // The proof the server gives: RFC 2831's rspauth for the same exchange.
  std::string rspauth(const std::string&) const {
    const std::string ha1 =
        md5_hex(raw_md5(base64("id-bytes") + ":default:" + base64(server_password_)) + ":srvnonce:fixed");
    return md5_hex(ha1 + ":srvnonce:00000001:fixed:auth:" + md5_hex(":/default"));
  }
  static std::string raw_md5(const std::string& text) {
    const std::string hex = md5_hex(text);
    std::string raw;
    for (std::size_t i = 0; i < hex.size(); i += 2)
      raw.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return raw;
  }
  std::string server_password_;
};

ConnectionParams token_params() {
  ConnectionParams params = simple_params();
  params.token = Token{"id-bytes", "pass-bytes", "YARN_AM_RM_TOKEN", ""};
  params.make_cnonce = [] { return "fixed"; };
  return params;
}

TEST(RpcConnection, TokenAuthenticationWithDigestMd5) {
  auto server = std::make_shared<TokenServer>("pass-bytes");
  auto connection = open([server](const std::string& w, ScriptedTransport& s) { (*server)(w, s); }, token_params());
  ASSERT_TRUE(connection);
  EXPECT_EQ(server->preamble, std::string("hrpc\x09\x00\xdf", 7));
  ASSERT_EQ(server->initiate.auths_size(), 1);
  EXPECT_EQ(server->initiate.auths(0).method(), "TOKEN");
  EXPECT_TRUE(server->initiate.auths(0).has_protocol());
  EXPECT_EQ(server->initiate.auths(0).server_id(), "default");
  EXPECT_FALSE(server->initiate.auths(0).has_challenge());
  EXPECT_NE(server->initiate.token().find("username=\"" + base64("id-bytes") + "\""), std::string::npos);
  EXPECT_NE(server->initiate.token().find("digest-uri=\"/default\""), std::string::npos);
  auto body = connection->call("getClusterMetrics", wire::GetClusterMetricsRequest{}, 2s);
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(active_nodes(*body), 4);
  // With a token, the context names no user: the server takes it from the token.
  EXPECT_TRUE(server->context.has_user_info());
  EXPECT_FALSE(server->context.user_info().has_effective_user());
}

TEST(RpcConnection, WrongTokenPasswordIsRefused) {
  auto server = std::make_shared<TokenServer>("other-password");
  auto transport =
      std::make_unique<ScriptedTransport>([server](const std::string& w, ScriptedTransport& s) { (*server)(w, s); });
  auto connection = RpcConnection::open(std::move(transport), token_params());
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.error().kind, RpcError::Kind::remote);
  EXPECT_NE(connection.error().message.find("SaslException"), std::string::npos);
}

TEST(RpcConnection, ServerWithoutTokensSaysWhatItOffers) {
  auto handler = [](const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) return;
    hadoop::RpcSasl reply;
    reply.set_state(hadoop::RpcSasl::NEGOTIATE);
    auto* kerberos = reply.add_auths();
    kerberos->set_method("KERBEROS");
    kerberos->set_mechanism("GSSAPI");
    server.send(response_frame(sasl_call_id, &reply));
  };
  auto connection = RpcConnection::open(std::make_unique<ScriptedTransport>(handler), token_params());
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.error().message, "rm:8032 does not accept TOKEN authentication (it offers KERBEROS/GSSAPI)");
}

TEST(RpcConnection, SilentServerFailsTheHandshakeInTime) {
  ConnectionParams params = token_params();
  params.handshake_timeout = 100ms;
  auto connection =
      RpcConnection::open(std::make_unique<ScriptedTransport>([](const std::string&, ScriptedTransport&) {}), params);
  ASSERT_FALSE(connection.ok());
  EXPECT_EQ(connection.error().kind, RpcError::Kind::timed_out);
}

}  // namespace
}  // namespace spindle::yarn::ipc

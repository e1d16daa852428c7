// The application master client against a scripted ResourceManager: response
// ids kept in step, NodeManager tokens cached, a rolled AMRM token used for
// the next connection.

#include <gtest/gtest.h>

#include <mutex>

#include "ipc/digest_md5.h"
#include "scripted_server.h"
#include "spindle/yarn/application_master_client.h"

namespace spindle::yarn {
namespace {

using namespace std::chrono_literals;
using spindle::yarn::testing::is_preamble;
using spindle::yarn::testing::parse_client_frame;
using spindle::yarn::testing::response_frame;
using spindle::yarn::testing::ScriptedTransport;
namespace hadoop = spindle::wire::hadoop;
namespace wire = spindle::wire::yarn;

// A scheduler that takes any token (it records who authenticated), answers
// register and allocate, rolls the AMRM token on the second allocate and then
// drops the connection.
class Scheduler {
 public:
  void operator()(const std::string& written, ScriptedTransport& server) {
    if (is_preamble(written)) return;
    const auto frame = parse_client_frame(written);
    std::string_view rest = frame.rest;
    if (frame.header.call_id() == ipc::sasl_call_id) {
      hadoop::RpcSasl message;
      ASSERT_TRUE(ipc::read_delimited(rest, message).ok());
      hadoop::RpcSasl reply;
      if (message.state() == hadoop::RpcSasl::NEGOTIATE) {
        reply.set_state(hadoop::RpcSasl::NEGOTIATE);
        auto* auth = reply.add_auths();
        auth->set_method("TOKEN");
        auth->set_mechanism("DIGEST-MD5");
        auth->set_protocol("");
        auth->set_server_id("default");
        auth->set_challenge("realm=\"default\",nonce=\"n\",qop=\"auth\",charset=utf-8,algorithm=md5-sess");
      } else {
        const std::string& token = message.token();
        const auto start = token.find("username=\"") + 10;
        std::lock_guard lock(mutex);
        users.push_back(token.substr(start, token.find('"', start) - start));
        reply.set_state(hadoop::RpcSasl::SUCCESS);
      }
      server.send(response_frame(ipc::sasl_call_id, &reply));
      return;
    }
    if (frame.header.call_id() < 0) return;
    hadoop::RequestHeader method;
    ASSERT_TRUE(ipc::read_delimited(rest, method).ok());
    if (method.method_name() == "registerApplicationMaster") {
      wire::RegisterApplicationMasterResponse response;
      response.set_queue("root.default");
      response.mutable_maximum_capability()->set_memory(8192);
      server.send(response_frame(frame.header.call_id(), &response));
      return;
    }
    wire::AllocateRequest request;
    ASSERT_TRUE(ipc::read_delimited(rest, request).ok());
    std::lock_guard lock(mutex);
    response_ids.push_back(request.response_id());
    wire::AllocateResponse response;
    response.set_response_id(request.response_id() + 1);
    if (response_ids.size() == 1) {
      auto* nm = response.add_nm_tokens();
      nm->mutable_node_id()->set_host("node1");
      nm->mutable_node_id()->set_port(45454);
      nm->mutable_token()->set_identifier("nm-id");
      nm->mutable_token()->set_password("nm-pw");
      nm->mutable_token()->set_kind("NMToken");
      nm->mutable_token()->set_service("10.0.0.1:45454");
    }
    if (response_ids.size() == 2) {
      auto* rolled = response.mutable_am_rm_token();
      rolled->set_identifier("rolled-id");
      rolled->set_password("rolled-pw");
      rolled->set_kind("YARN_AM_RM_TOKEN");
      rolled->set_service("");
    }
    server.send(response_frame(frame.header.call_id(), &response));
    if (response_ids.size() == 2) server.hang_up();
  }

  std::mutex mutex;
  std::vector<std::string> users;
  std::vector<int> response_ids;
};

TEST(ApplicationMasterClient, KeepsResponseIdsCachesTokensAndRollsTheAmrmToken) {
  auto scheduler = std::make_shared<Scheduler>();
  RpcOptions options;
  options.with_addresses({"rm:8030"})
      .with_token(Token{"first-id", "first-pw", "YARN_AM_RM_TOKEN", ""})
      .with_call_timeout(2s)
      .with_retry(fixed_retries(2, 1ms))
      .with_transport([scheduler](const std::string&, std::uint16_t,
                                  std::chrono::milliseconds) -> Result<std::unique_ptr<Transport>> {
        return std::unique_ptr<Transport>(std::make_unique<ScriptedTransport>(
            [scheduler](const std::string& written, ScriptedTransport& server) { (*scheduler)(written, server); }));
      });
  ApplicationMasterClient master(options);
  auto registration = master.register_master("am-host", 0, "http://am-host:1/");
  ASSERT_TRUE(registration.ok()) << registration.error().message;
  EXPECT_EQ(registration->queue, "root.default");
  EXPECT_EQ(registration->maximum.memory_mib, 8192);
  for (int round = 0; round < 3; ++round) {
    auto allocation = master.allocate({}, {}, 0.1f);
    ASSERT_TRUE(allocation.ok()) << allocation.error().message;
  }
  EXPECT_EQ(scheduler->response_ids, (std::vector<int>{0, 1, 2}));
  auto nm_token = master.node_manager_token("node1:45454");
  ASSERT_TRUE(nm_token.has_value());
  EXPECT_EQ(nm_token->identifier, "nm-id");
  EXPECT_FALSE(master.node_manager_token("node2:45454").has_value());
  // The first connection used the token YARN gave; the one after the roll, the new one.
  ASSERT_EQ(scheduler->users.size(), 2u);
  EXPECT_EQ(scheduler->users[0], ipc::base64("first-id"));
  EXPECT_EQ(scheduler->users[1], ipc::base64("rolled-id"));
}

TEST(ApplicationMasterClient, OutsideAContainerSaysWhatIsMissing) {
  ::unsetenv("HADOOP_TOKEN_FILE_LOCATION");
  auto master = ApplicationMasterClient::from_container(HadoopConfiguration{});
  ASSERT_FALSE(master.ok());
  EXPECT_NE(master.error().message.find("HADOOP_TOKEN_FILE_LOCATION is not set"), std::string::npos);
}

}  // namespace
}  // namespace spindle::yarn

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
    if (!refusal_class.empty()) {
      server.send(response_frame(frame.header.call_id(), nullptr, hadoop::RpcResponseHeader::ERROR, refusal_class,
                                 refusal_text));
      return;
    }
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
  // When set, every allocate is answered with this exception.
  std::string refusal_class;
  std::string refusal_text;
  std::vector<std::string> users;
  std::vector<int> response_ids;
};

RpcOptions options_for(std::shared_ptr<Scheduler> scheduler) {
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
  return options;
}

TEST(ApplicationMasterClient, KeepsResponseIdsCachesTokensAndRollsTheAmrmToken) {
  auto scheduler = std::make_shared<Scheduler>();
  ApplicationMasterClient master(options_for(scheduler));
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

// The master acts on what the scheduler's refusal means, known by its class:
// a request it can never grant ends the job; a lost registration is made again.
TEST(ApplicationMasterClient, TellsARequestRefusedForGoodFromALostRegistration) {
  auto scheduler = std::make_shared<Scheduler>();
  scheduler->refusal_class = "org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException";
  scheduler->refusal_text =
      "Invalid resource request! Cannot allocate containers as requested resource is greater than maximum allowed "
      "allocation. Requested resource type=[yarn.io/gpu], Requested resource=<memory:1024, vCores:1, yarn.io/gpu: "
      "3>, maximum allowed allocation=<memory:8192, vCores:4, yarn.io/gpu: 2>, please note that maximum allowed "
      "allocation is calculated by scheduler based on maximum resource of registered NodeManagers, which might be "
      "less than configured maximum allocation=<memory:8192, vCores:4, yarn.io/gpu: 2>\n\tat "
      "org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils.throwInvalidResourceException";
  ApplicationMasterClient master(options_for(scheduler));
  ASSERT_TRUE(master.register_master("am-host", 0, "").ok());
  auto refused = master.allocate({}, {}, 0.1f);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, Error::Kind::refused);
  EXPECT_EQ(refused.error().remote_exception, "InvalidResourceRequestException");
  EXPECT_EQ(refused.error().message,
            "the request <memory:1024, vCores:1, yarn.io/gpu: 3> is larger than the largest container the cluster "
            "grants (<memory:8192, vCores:4, yarn.io/gpu: 2>); ask for less");

  // Past the nodes registered now, but not past what the cluster is configured to grant: a node may come back.
  scheduler->refusal_text =
      "Invalid resource request! Cannot allocate containers as requested resource is greater than maximum allowed "
      "allocation. Requested resource type=[yarn.io/gpu], Requested resource=<memory:1024, vCores:1, yarn.io/gpu: "
      "1>, maximum allowed allocation=<memory:8192, vCores:4, yarn.io/gpu: 0>, please note that maximum allowed "
      "allocation is calculated by scheduler based on maximum resource of registered NodeManagers, which might be "
      "less than configured maximum allocation=<memory:8192, vCores:4, yarn.io/gpu: 2>";
  auto for_now = master.allocate({}, {}, 0.1f);
  ASSERT_FALSE(for_now.ok());
  EXPECT_EQ(for_now.error().kind, Error::Kind::other) << for_now.error().message;

  scheduler->refusal_class = "org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException";
  scheduler->refusal_text = "Application Master is not registered for known application: application_1_0001";
  auto lost = master.allocate({}, {}, 0.1f);
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.error().kind, Error::Kind::not_registered);
  EXPECT_EQ(lost.error().remote_exception, "ApplicationMasterNotRegisteredException");

  scheduler->refusal_class = "java.io.IOException";
  scheduler->refusal_text = "something else";
  auto other = master.allocate({}, {}, 0.1f);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().kind, Error::Kind::other);
  EXPECT_EQ(other.error().remote_exception, "IOException");
  EXPECT_NE(other.error().message.find("java.io.IOException: something else"), std::string::npos)
      << other.error().message;
}

TEST(ApplicationMasterClient, OutsideAContainerSaysWhatIsMissing) {
  ::unsetenv("HADOOP_TOKEN_FILE_LOCATION");
  auto master = ApplicationMasterClient::from_container(HadoopConfiguration{});
  ASSERT_FALSE(master.ok());
  EXPECT_NE(master.error().message.find("HADOOP_TOKEN_FILE_LOCATION is not set"), std::string::npos);
}

}  // namespace
}  // namespace spindle::yarn

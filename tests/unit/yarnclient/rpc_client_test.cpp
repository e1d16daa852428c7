// Retries, failover between ResourceManagers and reconnection, against
// scripted servers.

#include <gtest/gtest.h>

#include <atomic>

#include "ipc/rpc_client.h"
#include "scripted_server.h"

namespace spindle::yarn::ipc {
namespace {

using namespace std::chrono_literals;
using spindle::yarn::testing::is_preamble;
using spindle::yarn::testing::parse_client_frame;
using spindle::yarn::testing::response_frame;
using spindle::yarn::testing::ScriptedTransport;
namespace wire = spindle::wire::yarn;

// A cluster of scripted servers by address.
class FakeCluster {
 public:
  using Behaviour = std::function<void(std::int32_t call_id, ScriptedTransport& server)>;

  void add(const std::string& address, Behaviour behaviour) { servers_[address] = std::move(behaviour); }
  void refuse(const std::string& address) { servers_.erase(address); }

  TransportFactory factory() {
    return [this](const std::string& host, std::uint16_t port,
                  std::chrono::milliseconds) -> Result<std::unique_ptr<Transport>> {
      const std::string address = host + ":" + std::to_string(port);
      ++connects[address];
      auto found = servers_.find(address);
      if (found == servers_.end()) return make_error("cannot connect to " + address + ": Connection refused");
      Behaviour behaviour = found->second;
      return std::unique_ptr<Transport>(
          std::make_unique<ScriptedTransport>([behaviour](const std::string& written, ScriptedTransport& server) {
            if (is_preamble(written)) return;
            const auto frame = parse_client_frame(written);
            if (frame.header.call_id() >= 0) behaviour(frame.header.call_id(), server);
          }));
    };
  }

  std::map<std::string, int> connects;

 private:
  std::map<std::string, Behaviour> servers_;
};

void answers(std::int32_t call_id, ScriptedTransport& server) {
  wire::GetClusterMetricsResponse response;
  response.mutable_cluster_metrics()->set_num_active_nms(5);
  server.send(response_frame(call_id, &response));
}

void standby(std::int32_t call_id, ScriptedTransport& server) {
  server.send(response_frame(call_id, nullptr, hadoop::RpcResponseHeader::ERROR,
                             "org.apache.hadoop.ipc.StandbyException",
                             "Operation category READ is not supported in state standby"));
}

RpcOptions options(FakeCluster& cluster, std::vector<std::string> addresses, int retries) {
  RpcOptions result;
  result.with_addresses(std::move(addresses))
      .with_user("alice")
      .with_transport(cluster.factory())
      .with_call_timeout(2s)
      .with_retry(fixed_retries(retries, 1ms));
  return result;
}

TEST(RpcClient, FailsOverFromAStandbyResourceManager) {
  FakeCluster cluster;
  cluster.add("rm1:8032", standby);
  cluster.add("rm2:8032", answers);
  RpcClient client("p", options(cluster, {"rm1:8032", "rm2:8032"}, 3));
  auto answer = client.call_for<wire::GetClusterMetricsResponse>("getClusterMetrics", wire::GetClusterMetricsRequest{});
  ASSERT_TRUE(answer.ok()) << answer.error().message;
  EXPECT_EQ(answer->cluster_metrics().num_active_nms(), 5);
  // The active one is remembered.
  ASSERT_TRUE(client.call("getClusterMetrics", wire::GetClusterMetricsRequest{}).ok());
  EXPECT_EQ(cluster.connects["rm2:8032"], 1);
}

TEST(RpcClient, SkipsAnAddressThatRefuses) {
  FakeCluster cluster;
  cluster.add("rm2:8032", answers);
  RpcClient client("p", options(cluster, {"rm1:8032", "rm2:8032"}, 0));
  EXPECT_TRUE(client.call("getClusterMetrics", wire::GetClusterMetricsRequest{}).ok());
}

TEST(RpcClient, GivesUpAfterTheRetryPolicy) {
  FakeCluster cluster;
  RpcClient client("p", options(cluster, {"rm1:8032"}, 2));
  auto answer = client.call("getClusterMetrics", wire::GetClusterMetricsRequest{});
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, RpcError::Kind::unreachable);
  EXPECT_EQ(answer.error().message, "cannot connect to rm1:8032: Connection refused");
  EXPECT_EQ(cluster.connects["rm1:8032"], 3);  // the first try and two retries
}

TEST(RpcClient, ReconnectsAfterTheServerHangsUp) {
  FakeCluster cluster;
  std::atomic<int> calls = 0;
  cluster.add("rm1:8032", [&](std::int32_t call_id, ScriptedTransport& server) {
    if (calls++ == 0) {
      server.hang_up();  // the first connection dies with the call
    } else {
      answers(call_id, server);
    }
  });
  RpcClient client("p", options(cluster, {"rm1:8032"}, 2));
  auto answer = client.call("getClusterMetrics", wire::GetClusterMetricsRequest{});
  ASSERT_TRUE(answer.ok()) << answer.error().message;
  EXPECT_EQ(cluster.connects["rm1:8032"], 2);
}

TEST(RpcClient, ApplicationErrorsAreNotRetried) {
  FakeCluster cluster;
  std::atomic<int> calls = 0;
  cluster.add("rm1:8032", [&](std::int32_t call_id, ScriptedTransport& server) {
    ++calls;
    server.send(response_frame(call_id, nullptr, hadoop::RpcResponseHeader::ERROR,
                               "org.apache.hadoop.yarn.exceptions.YarnException", "no"));
  });
  RpcClient client("p", options(cluster, {"rm1:8032"}, 5));
  EXPECT_FALSE(client.call("getClusterMetrics", wire::GetClusterMetricsRequest{}).ok());
  EXPECT_EQ(calls.load(), 1);
}

TEST(RpcClient, MalformedAddressIsExplained) {
  FakeCluster cluster;
  RpcClient client("p", options(cluster, {"rm-without-port"}, 0));
  auto answer = client.call("getClusterMetrics", wire::GetClusterMetricsRequest{});
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().message, "\"rm-without-port\" has no port; write HOST:PORT, e.g. h1:2222");
}

}  // namespace
}  // namespace spindle::yarn::ipc

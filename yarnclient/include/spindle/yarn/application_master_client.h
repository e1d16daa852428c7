#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/application_types.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/rpc_options.h"

namespace spindle::yarn {

namespace ipc {
class RpcClient;
}

// Containers an application master wants: `count` of one shape, told apart
// from other asks by allocation request id and priority.
struct ContainerAsk {
  std::int64_t allocation_request_id = 0;
  int priority = 0;
  Resources resources;
  std::string node_label;  // empty: the queue's default partition
  int count = 0;
};

struct Registration {
  Resources maximum;
  std::string queue;
  std::vector<AllocatedContainer> previous_containers;  // kept across attempts
};

struct Allocation {
  std::vector<AllocatedContainer> allocated;
  std::vector<CompletedContainer> completed;
  std::vector<std::string> preempted;  // containers the scheduler wants back
  int cluster_nodes = 0;
  // What the scheduler would still grant this application now (its queue's
  // and its user's limits, and the cluster's free room), when it says.
  std::optional<Resources> headroom;
  bool must_resync = false;     // the ResourceManager restarted: register again
  bool must_shut_down = false;  // the ResourceManager no longer knows this attempt
};

enum class FinalStatus { succeeded, failed, killed };

// The application master's side of YARN's ApplicationMasterProtocol: it
// authenticates with the AMRM token YARN put in the container, keeps the
// allocate exchange's response ids in step, caches the NodeManager tokens it
// is given, and switches to a rolled AMRM token.
class ApplicationMasterClient {
 public:
  // Inside an application master's container: the token from
  // $HADOOP_TOKEN_FILE_LOCATION, the scheduler address from the configuration.
  static Result<std::unique_ptr<ApplicationMasterClient>> from_container(const HadoopConfiguration& configuration);

  explicit ApplicationMasterClient(RpcOptions options);
  ~ApplicationMasterClient();

  Result<Registration> register_master(const std::string& host, int rpc_port, const std::string& tracking_url);
  // Sends new asks (each replaces the outstanding count of its kind) and
  // releases; returns what changed since the last call.
  Result<Allocation> allocate(const std::vector<ContainerAsk>& asks, const std::vector<std::string>& release,
                              float progress);
  Result<void> finish(FinalStatus status, const std::string& diagnostics, const std::string& tracking_url);

  // The token for talking to a NodeManager ("host:port"), once the
  // ResourceManager has handed one out.
  std::optional<Token> node_manager_token(const std::string& node) const;
  // What this master's RPC may protect (hadoop.rpc.protection), for its
  // connections to the NodeManagers too.
  const std::vector<RpcProtection>& protection() const;

 private:
  template <typename Response, typename Request>
  Result<Response> ask(std::string_view method, const Request& request);

  std::unique_ptr<ipc::RpcClient> rpc_;
  int response_id_ = 0;
  std::map<std::string, Token> node_manager_tokens_;
};

}  // namespace spindle::yarn

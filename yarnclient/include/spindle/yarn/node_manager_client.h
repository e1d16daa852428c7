#pragma once

#include <memory>
#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/application_types.h"
#include "spindle/yarn/rpc_options.h"

namespace spindle::yarn {

namespace ipc {
class RpcClient;
}

struct ContainerState {
  std::string state;  // NEW, RUNNING, COMPLETE
  int exit_status = container_exit::invalid;
  std::string diagnostics;
};

// An application master's side of YARN's ContainerManagementProtocol, to one
// NodeManager, authenticated with the NodeManager token the
// ResourceManager handed out for that node.
class NodeManagerClient {
 public:
  // `base` gives timeouts and retries; its address and token are replaced.
  NodeManagerClient(const std::string& node, const Token& node_manager_token, RpcOptions base = {});
  ~NodeManagerClient();

  Result<void> start(const AllocatedContainer& container, const LaunchContext& context);
  Result<void> stop(const std::string& container_id);
  Result<ContainerState> status(const std::string& container_id);

 private:
  std::string node_;
  std::unique_ptr<ipc::RpcClient> rpc_;
};

}  // namespace spindle::yarn

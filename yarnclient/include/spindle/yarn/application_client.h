#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/application_types.h"
#include "spindle/yarn/cluster_types.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/rpc_options.h"
#include "spindle/yarn/token.h"

namespace spindle::yarn {

namespace ipc {
class RpcClient;
}

// The client side of YARN's ApplicationClientProtocol: what a user asks the
// ResourceManager. Every failure comes back as one sentence naming the
// ResourceManager's address and what to check.
class ApplicationClient {
 public:
  explicit ApplicationClient(RpcOptions options);
  ~ApplicationClient();
  ApplicationClient(ApplicationClient&&) noexcept;
  ApplicationClient& operator=(ApplicationClient&&) noexcept;

  // Options for the ResourceManager(s) a configuration names: Kerberos when
  // hadoop.security.authentication is "kerberos" (the server principal from
  // yarn.resourcemanager.principal, a keytab login from spindle.kerberos.keytab
  // and spindle.kerberos.principal when set, else the ticket cache), else
  // SIMPLE as the user running this process.
  static RpcOptions options_for(const HadoopConfiguration& configuration);

  Result<ClusterMetrics> cluster_metrics();
  // What SASL protects on the connection to the ResourceManager, as
  // negotiated from hadoop.rpc.protection and the server's offer; connects
  // when not yet connected.
  Result<RpcProtection> protection();
  Result<std::vector<NodeInfo>> nodes();
  // One queue, with its children when `recursive`; "root" for the whole tree.
  Result<QueueInfo> queue(const std::string& name, bool recursive);
  Result<std::vector<NodeLabelInfo>> node_labels();

  // An application id and the cluster's maximum allocation.
  Result<NewApplication> new_application();
  // Hands the application to the scheduler; the answer comes before it runs.
  Result<void> submit(const SubmissionRequest& request);
  Result<ApplicationReport> report(const ApplicationId& id);
  // Asks the ResourceManager to kill; true once the kill is complete.
  Result<bool> kill(const ApplicationId& id, const std::string& diagnostics);
  Result<std::vector<AttemptReport>> attempts(const ApplicationId& id);
  // The containers of one attempt ("appattempt_...").
  Result<std::vector<ContainerReport>> containers(const std::string& attempt_id);
  // Applications of a type (e.g. "SPINDLE"), all states when `states` is empty.
  Result<std::vector<ApplicationReport>> applications(const std::string& type, const std::vector<std::string>& states);

  // A ResourceManager delegation token that `renewer` (a user or principal)
  // may renew, with its service set to the ResourceManager addresses as
  // Hadoop's clients expect ("ip:port", comma-separated under HA). Only a
  // Kerberos-authenticated client gets one.
  Result<Token> delegation_token(const std::string& renewer);
  // Extends a delegation token; the new expiry in milliseconds since the epoch.
  Result<std::int64_t> renew_delegation_token(const Token& token);
  Result<void> cancel_delegation_token(const Token& token);

 private:
  template <typename Response, typename Request>
  Result<Response> ask(std::string_view method, const Request& request);

  std::unique_ptr<ipc::RpcClient> rpc_;
};

}  // namespace spindle::yarn

#include "spindle/yarn/node_manager_client.h"

#include "ipc/rpc_client.h"
#include "yarn/conversions.h"
#include "yarn/ids.h"

namespace spindle::yarn {
namespace {

constexpr std::string_view protocol_name = "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB";

std::string exception_text(const wire::yarn::SerializedException& exception) {
  std::string text = exception.message();
  if (text.empty()) text = exception.class_name();
  return text.substr(0, text.find('\n'));
}

std::string state_name(wire::yarn::ContainerState state) {
  switch (state) {
    case wire::yarn::C_NEW: return "NEW";
    case wire::yarn::C_RUNNING: return "RUNNING";
    case wire::yarn::C_COMPLETE: return "COMPLETE";
  }
  return "UNKNOWN";
}

}  // namespace

NodeManagerClient::NodeManagerClient(const std::string& node, const Token& node_manager_token, RpcOptions base)
    : node_(node) {
  base.addresses = {node};
  base.token = node_manager_token;
  rpc_ = std::make_unique<ipc::RpcClient>(std::string(protocol_name), std::move(base));
}

NodeManagerClient::~NodeManagerClient() = default;

Result<void> NodeManagerClient::start(const AllocatedContainer& container, const LaunchContext& context) {
  wire::yarn::StartContainersRequest request;
  auto* start = request.add_start_container_request();
  *start->mutable_container_launch_context() = to_proto(context);
  *start->mutable_container_token() = to_proto(container.container_token);
  auto response = rpc_->call_for<wire::yarn::StartContainersResponse>("startContainers", request);
  if (!response) {
    return response.error().to_error("the NodeManager at " + node_ + " did not start " + container.id + ": " +
                                     response.error().message);
  }
  for (const auto& failure : response->failed_requests()) {
    return make_error("the NodeManager at " + node_ + " refused to start " + container.id + ": " +
                      exception_text(failure.exception()));
  }
  return {};
}

Result<void> NodeManagerClient::stop(const std::string& container_id) {
  auto id = parse_container_id(container_id);
  if (!id) return id.error();
  wire::yarn::StopContainersRequest request;
  *request.add_container_id() = *id;
  auto response = rpc_->call_for<wire::yarn::StopContainersResponse>("stopContainers", request);
  if (!response) {
    return response.error().to_error("the NodeManager at " + node_ + " did not stop " + container_id + ": " +
                                     response.error().message);
  }
  for (const auto& failure : response->failed_requests()) {
    return make_error("the NodeManager at " + node_ + " could not stop " + container_id + ": " +
                      exception_text(failure.exception()));
  }
  return {};
}

Result<ContainerState> NodeManagerClient::status(const std::string& container_id) {
  auto id = parse_container_id(container_id);
  if (!id) return id.error();
  wire::yarn::GetContainerStatusesRequest request;
  *request.add_container_id() = *id;
  auto response = rpc_->call_for<wire::yarn::GetContainerStatusesResponse>("getContainerStatuses", request);
  if (!response) {
    return response.error().to_error("the NodeManager at " + node_ + " gave no status for " + container_id + ": " +
                                     response.error().message);
  }
  for (const auto& failure : response->failed_requests()) {
    return make_error("the NodeManager at " + node_ + " knows no container " + container_id + ": " +
                      exception_text(failure.exception()));
  }
  if (response->status_size() == 0) return make_error("the NodeManager at " + node_ + " returned no status");
  const auto& status = response->status(0);
  return ContainerState{state_name(status.state()), status.exit_status(),
                        status.diagnostics() == "N/A" ? "" : status.diagnostics()};
}

}  // namespace spindle::yarn

#include "spindle/yarn/application_master_client.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "ipc/rpc_client.h"
#include "spindle/yarn/credentials.h"
#include "yarn/conversions.h"
#include "yarn/ids.h"
#include "yarn/scheduler_refusals.h"

namespace spindle::yarn {
namespace {

constexpr std::string_view protocol_name = "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB";

wire::yarn::FinalApplicationStatus to_proto(FinalStatus status) {
  switch (status) {
    case FinalStatus::succeeded: return wire::yarn::APP_SUCCEEDED;
    case FinalStatus::failed: return wire::yarn::APP_FAILED;
    case FinalStatus::killed: return wire::yarn::APP_KILLED;
  }
  return wire::yarn::APP_UNDEFINED;
}

// The scheduler's exceptions a master acts on, by their class, never by their text.
Error::Kind kind_of_refusal(std::string_view exception_class, const std::string& text) {
  if (is_permanent_refusal(exception_class, text)) return Error::Kind::refused;
  if (exception_class == "ApplicationMasterNotRegisteredException") return Error::Kind::not_registered;
  return Error::Kind::other;
}

}  // namespace

Result<std::unique_ptr<ApplicationMasterClient>> ApplicationMasterClient::from_container(
    const HadoopConfiguration& configuration) {
  const char* token_file = std::getenv("HADOOP_TOKEN_FILE_LOCATION");
  if (!token_file || !*token_file) {
    return make_error(
        "HADOOP_TOKEN_FILE_LOCATION is not set; an application master runs in the container YARN "
        "starts for it, which sets it");
  }
  auto credentials = Credentials::read_file(token_file);
  if (!credentials) return credentials.error();
  const Token* token = credentials->find_kind("YARN_AM_RM_TOKEN");
  if (!token) {
    return make_error(std::string(token_file) +
                      " holds no YARN_AM_RM_TOKEN; the ResourceManager gives one to every "
                      "application master it starts");
  }
  RpcOptions options;
  options.addresses = configuration.resource_manager_addresses(RmService::scheduler);
  options.token = *token;
  options.connect_timeout = std::chrono::milliseconds(configuration.get_int("ipc.client.connect.timeout", 20'000));
  options.call_timeout = std::chrono::milliseconds(configuration.get_int("ipc.client.rpc-timeout.ms", 120'000));
  configure_rpc_protection(configuration, options);
  // Inside the cluster an application master outlives a ResourceManager
  // restart by retrying, as Hadoop's own does (yarn.resourcemanager.connect.*).
  const auto wait = configuration.get_int("yarn.resourcemanager.connect.max-wait.ms", 900'000);
  const auto pause = configuration.get_int("yarn.resourcemanager.connect.retry-interval.ms", 30'000);
  // Shorter pauses than Hadoop's 30 s, as many of them as fill the same window.
  const auto step = std::max<long long>(1, std::min<long long>(pause, 2'000));
  options.retry = fixed_retries(static_cast<int>(wait / step), std::chrono::milliseconds(step));
  return std::make_unique<ApplicationMasterClient>(std::move(options));
}

ApplicationMasterClient::ApplicationMasterClient(RpcOptions options)
    : rpc_(std::make_unique<ipc::RpcClient>(std::string(protocol_name), std::move(options))) {}
ApplicationMasterClient::~ApplicationMasterClient() = default;

const std::vector<RpcProtection>& ApplicationMasterClient::protection() const {
  return rpc_->options().protection;
}

template <typename Response, typename Request>
Result<Response> ApplicationMasterClient::ask(std::string_view method, const Request& request) {
  auto answer = rpc_->call_for<Response>(method, request);
  if (answer) return std::move(*answer);
  std::string where;
  for (const auto& address : rpc_->options().addresses) where += (where.empty() ? "" : ", ") + address;
  const auto& error = answer.error();
  Error result = error.to_error("the ResourceManager's scheduler at " + where + " did not take " + std::string(method) +
                                ": " + error.message);
  if (error.kind == ipc::RpcError::Kind::remote) result.kind = kind_of_refusal(result.remote_exception, error.message);
  if (result.kind == Error::Kind::refused) {
    result.message = explain_refusal(result.remote_exception, error.message, "");
  }
  return result;
}

Result<Registration> ApplicationMasterClient::register_master(const std::string& host, int rpc_port,
                                                              const std::string& tracking_url) {
  wire::yarn::RegisterApplicationMasterRequest request;
  request.set_host(host);
  request.set_rpc_port(rpc_port);
  request.set_tracking_url(tracking_url);
  auto response = ask<wire::yarn::RegisterApplicationMasterResponse>("registerApplicationMaster", request);
  if (!response) return response.error();
  response_id_ = 0;
  for (const auto& nm_token : response->nm_tokens_from_previous_attempts()) {
    node_manager_tokens_[nm_token.node_id().host() + ":" + std::to_string(nm_token.node_id().port())] =
        from_proto(nm_token.token());
  }
  Registration registration;
  registration.maximum = from_proto(response->maximum_capability());
  registration.queue = response->queue();
  for (const auto& container : response->containers_from_previous_attempts()) {
    registration.previous_containers.push_back(from_proto(container));
  }
  return registration;
}

Result<Allocation> ApplicationMasterClient::allocate(const std::vector<ContainerAsk>& asks,
                                                     const std::vector<std::string>& release, float progress) {
  wire::yarn::AllocateRequest request;
  request.set_response_id(response_id_);
  request.set_progress(progress);
  for (const auto& container_ask : asks) {
    auto* resource_request = request.add_ask();
    resource_request->mutable_priority()->set_priority(container_ask.priority);
    resource_request->set_resource_name("*");
    *resource_request->mutable_capability() = to_proto(container_ask.resources);
    resource_request->set_num_containers(container_ask.count);
    resource_request->set_relax_locality(true);
    if (!container_ask.node_label.empty()) resource_request->set_node_label_expression(container_ask.node_label);
    resource_request->set_allocation_request_id(container_ask.allocation_request_id);
  }
  for (const auto& id : release) {
    auto parsed = parse_container_id(id);
    if (!parsed) return parsed.error();
    *request.add_release() = *parsed;
  }
  auto response = ask<wire::yarn::AllocateResponse>("allocate", request);
  if (!response) return response.error();
  response_id_ = response->response_id();
  for (const auto& nm_token : response->nm_tokens()) {
    node_manager_tokens_[nm_token.node_id().host() + ":" + std::to_string(nm_token.node_id().port())] =
        from_proto(nm_token.token());
  }
  if (response->has_am_rm_token()) rpc_->replace_token(from_proto(response->am_rm_token()));

  Allocation allocation;
  for (const auto& container : response->allocated_containers()) allocation.allocated.push_back(from_proto(container));
  if (response->has_limit()) allocation.headroom = from_proto(response->limit());
  for (const auto& status : response->completed_container_statuses())
    allocation.completed.push_back(from_proto(status));
  for (const auto& container : response->preempt().strict_contract().container()) {
    allocation.preempted.push_back(container_id_string(container.id()));
  }
  for (const auto& container : response->preempt().contract().container()) {
    allocation.preempted.push_back(container_id_string(container.id()));
  }
  allocation.cluster_nodes = response->num_cluster_nodes();
  allocation.must_resync = response->a_m_command() == wire::yarn::AM_RESYNC && response->has_a_m_command();
  allocation.must_shut_down = response->a_m_command() == wire::yarn::AM_SHUTDOWN && response->has_a_m_command();
  return allocation;
}

Result<void> ApplicationMasterClient::finish(FinalStatus status, const std::string& diagnostics,
                                             const std::string& tracking_url) {
  wire::yarn::FinishApplicationMasterRequest request;
  request.set_final_application_status(to_proto(status));
  request.set_diagnostics(diagnostics);
  request.set_tracking_url(tracking_url);
  // The ResourceManager may take a few rounds to store the final state.
  for (int round = 0; round < 50; ++round) {
    auto response = ask<wire::yarn::FinishApplicationMasterResponse>("finishApplicationMaster", request);
    if (!response) return response.error();
    if (response->is_unregistered()) return {};
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return make_error("the ResourceManager did not confirm the application master's end within 5 s");
}

std::optional<Token> ApplicationMasterClient::node_manager_token(const std::string& node) const {
  auto found = node_manager_tokens_.find(node);
  if (found == node_manager_tokens_.end()) return std::nullopt;
  return found->second;
}

}  // namespace spindle::yarn

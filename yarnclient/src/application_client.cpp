#include "spindle/yarn/application_client.h"

#include "spindle/yarn/cluster_identity.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pwd.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>

#include <thread>

#include "ipc/rpc_client.h"
#include "spindle/core/cluster_spec.h"
#include "spindle/core/host_names.h"
#include "yarn/conversions.h"
#include "yarn/ids.h"
#include "yarn/scheduler_refusals.h"
#include "yarn_service.pb.h"

namespace spindle::yarn {
namespace {

constexpr std::string_view protocol_name = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";

// Hadoop names a token's service by the server's IP address and port
// (SecurityUtil.buildTokenService); a name that does not resolve stays as written.
std::string token_service_address(const std::string& address) {
  auto split = parse_host_port(address);
  if (!split) return address;
  auto found = resolve_host(split->host, split->port, AddressFamily::ipv4);
  if (!found) return address;
  const auto numeric = found->front().numeric();
  return numeric.empty() ? address : numeric + ":" + std::to_string(split->port);
}

std::string addresses_text(const RpcOptions& options) {
  std::string text;
  for (const auto& address : options.addresses) text += (text.empty() ? "" : ", ") + address;
  return text;
}

}  // namespace

ApplicationClient::ApplicationClient(RpcOptions options)
    : rpc_(std::make_unique<ipc::RpcClient>(std::string(protocol_name), std::move(options))) {}
ApplicationClient::~ApplicationClient() = default;
ApplicationClient::ApplicationClient(ApplicationClient&&) noexcept = default;
ApplicationClient& ApplicationClient::operator=(ApplicationClient&&) noexcept = default;

RpcOptions ApplicationClient::options_for(const HadoopConfiguration& configuration) {
  RpcOptions options;
  options.addresses = configuration.resource_manager_addresses(RmService::client);
  options.user = hadoop_user_name();
  options.connect_timeout = std::chrono::milliseconds(configuration.get_int("ipc.client.connect.timeout", 20'000));
  options.call_timeout = std::chrono::milliseconds(configuration.get_int("ipc.client.rpc-timeout.ms", 120'000));
  options.ping_interval = std::chrono::milliseconds(configuration.get_int("ipc.ping.interval", 60'000));
  configure_rpc_protection(configuration, options);
  // Hadoop's client waits up to 15 minutes for a ResourceManager; a person at a
  // terminal wants to know within seconds. Two short retries ride out a restart.
  options.retry = fixed_retries(static_cast<int>(configuration.get_int("spindle.client.connect.retries", 2)),
                                std::chrono::milliseconds(1'000));
  if (uses_kerberos(configuration)) {
    KerberosOptions kerberos;
    kerberos.server_principal = configuration.get_or("yarn.resourcemanager.principal", "");
    kerberos.server_principal_pattern = configuration.get_or("yarn.resourcemanager.principal.pattern", "");
    if (auto login = configured_keytab_login(configuration)) kerberos.login = std::move(*login);
    options.kerberos = std::move(kerberos);
  }
  return options;
}

namespace {

// The application id a ResourceManager's not-found message names, or "of that id".
std::string application_named_in(const std::string& message) {
  const auto start = message.find("application_");
  if (start == std::string::npos) return "of that id";
  auto end = start;
  while (end < message.size() && (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '_')) ++end;
  return message.substr(start, end - start);
}

}  // namespace

template <typename Response, typename Request>
Result<Response> ApplicationClient::ask(std::string_view method, const Request& request) {
  auto answer = rpc_->call_for<Response>(method, request);
  if (answer) return std::move(*answer);
  const auto& error = answer.error();
  const std::string where = addresses_text(rpc_->options());
  switch (error.kind) {
    case ipc::RpcError::Kind::unreachable:
      return make_error("cannot reach the ResourceManager at " + where + " (" + error.message +
                        "); check that it runs and that yarn.resourcemanager.address in yarn-site.xml names it");
    case ipc::RpcError::Kind::timed_out:
      return make_error("the ResourceManager at " + where + " did not answer in time (" + error.message + ")");
    case ipc::RpcError::Kind::remote:
      if (error.remote_exception() == "ApplicationNotFoundException" ||
          error.remote_exception() == "ApplicationAttemptNotFoundException") {
        Error unknown = not_found_error(
            "the ResourceManager at " + where + " knows no application " + application_named_in(error.message) +
            ": check the id (spindle list --all shows your jobs); a "
            "ResourceManager forgets finished applications after a restart without recovery or "
            "once yarn.resourcemanager.max-completed-applications newer ones have ended");
        unknown.remote_exception = error.remote_exception();
        return unknown;
      }
      return error.to_error("the ResourceManager at " + where + " refused " + std::string(method) + ": " +
                            error.message);
    case ipc::RpcError::Kind::authentication: return authentication_error(error.message);
    case ipc::RpcError::Kind::lost:
    case ipc::RpcError::Kind::protocol: break;
  }
  return make_error("talking to the ResourceManager at " + where + " failed: " + error.message +
                    "; is that address a ResourceManager's client port?");
}

Result<ClusterMetrics> ApplicationClient::cluster_metrics() {
  auto response =
      ask<wire::yarn::GetClusterMetricsResponse>("getClusterMetrics", wire::yarn::GetClusterMetricsRequest{});
  if (!response) return response.error();
  return from_proto(response->cluster_metrics());
}

Result<RpcProtection> ApplicationClient::protection() {
  auto negotiated = rpc_->protection();
  if (negotiated) return *negotiated;
  if (negotiated.error().kind == ipc::RpcError::Kind::authentication)
    return authentication_error(negotiated.error().message);
  return make_error("cannot reach the ResourceManager at " + addresses_text(rpc_->options()) + ": " +
                    negotiated.error().message);
}

Result<std::vector<NodeInfo>> ApplicationClient::nodes() {
  auto response = ask<wire::yarn::GetClusterNodesResponse>("getClusterNodes", wire::yarn::GetClusterNodesRequest{});
  if (!response) return response.error();
  std::vector<NodeInfo> nodes;
  for (const auto& report : response->node_reports()) nodes.push_back(from_proto(report));
  return nodes;
}

Result<QueueInfo> ApplicationClient::queue(const std::string& name, bool recursive) {
  wire::yarn::GetQueueInfoRequest request;
  request.set_queue_name(name);
  request.set_include_applications(false);
  request.set_include_child_queues(recursive);
  request.set_recursive(recursive);
  auto response = ask<wire::yarn::GetQueueInfoResponse>("getQueueInfo", request);
  if (!response) return response.error();
  if (!response->queue_info().queue_name().empty()) return from_proto(response->queue_info());
  // The ResourceManager answers an unknown queue with an empty record.
  std::string known;
  if (name != "root") {
    if (auto root = queue("root", true)) {
      std::vector<const QueueInfo*> stack{&*root};
      while (!stack.empty()) {
        const QueueInfo* current = stack.back();
        stack.pop_back();
        if (current->children.empty()) known += (known.empty() ? "" : ", ") + current->name;
        for (const auto& child : current->children) stack.push_back(&child);
      }
    }
  }
  return make_error("the cluster has no queue \"" + name + "\"" +
                    (known.empty() ? std::string() : "; its queues are " + known));
}

Result<std::vector<NodeLabelInfo>> ApplicationClient::node_labels() {
  auto response =
      ask<wire::yarn::GetClusterNodeLabelsResponse>("getClusterNodeLabels", wire::yarn::GetClusterNodeLabelsRequest{});
  if (!response) return response.error();
  std::vector<NodeLabelInfo> labels;
  for (const auto& label : response->node_labels()) labels.push_back({label.name(), label.is_exclusive()});
  return labels;
}

Result<NewApplication> ApplicationClient::new_application() {
  auto response =
      ask<wire::yarn::GetNewApplicationResponse>("getNewApplication", wire::yarn::GetNewApplicationRequest{});
  if (!response) return response.error();
  return NewApplication{from_proto(response->application_id()), from_proto(response->maximum_capability())};
}

Result<void> ApplicationClient::submit(const SubmissionRequest& request) {
  // An unknown queue is only found out after the submission; ask first.
  if (auto queue_info = queue(request.queue, false); !queue_info) return queue_info.error();
  wire::yarn::SubmitApplicationRequest message;
  auto* context = message.mutable_application_submission_context();
  *context->mutable_application_id() = to_proto(request.id);
  context->set_application_name(request.name);
  context->set_queue(request.queue);
  context->mutable_priority()->set_priority(request.priority);
  *context->mutable_am_container_spec() = to_proto(request.am);
  context->set_max_app_attempts(request.max_attempts);
  *context->mutable_resource() = to_proto(request.am_resources);
  context->set_application_type(request.type);
  context->set_keep_containers_across_application_attempts(request.keep_containers_across_attempts);
  if (!request.cancel_tokens_when_complete) context->set_cancel_tokens_when_complete(false);
  for (const auto& tag : request.tags) context->add_application_tags(tag);
  if (!request.am_node_label.empty()) context->set_node_label_expression(request.am_node_label);
  auto response = ask<wire::yarn::SubmitApplicationResponse>("submitApplication", message);
  if (!response) {
    Error refusal = response.error();
    refusal.message = explain_refusal(refusal.remote_exception, refusal.message, request.queue);
    return refusal;
  }
  // Some refusals come after the answer: wait until the scheduler decides.
  for (int round = 0; round < 100; ++round) {
    auto current = report(request.id);
    if (!current) return current.error();
    if (current->state == "FAILED" || current->state == "KILLED") {
      return make_error("YARN refused " + request.id.to_string() + ": " + current->diagnostics);
    }
    if (current->state != "NEW" && current->state != "NEW_SAVING" && current->state != "SUBMITTED") return {};
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return {};
}

Result<ApplicationReport> ApplicationClient::report(const ApplicationId& id) {
  wire::yarn::GetApplicationReportRequest request;
  *request.mutable_application_id() = to_proto(id);
  auto response = ask<wire::yarn::GetApplicationReportResponse>("getApplicationReport", request);
  if (!response) return response.error();
  return from_proto(response->application_report());
}

Result<bool> ApplicationClient::kill(const ApplicationId& id, const std::string& diagnostics) {
  wire::yarn::KillApplicationRequest request;
  *request.mutable_application_id() = to_proto(id);
  request.set_diagnostics(diagnostics);
  auto response = ask<wire::yarn::KillApplicationResponse>("forceKillApplication", request);
  if (!response) return response.error();
  return response->is_kill_completed();
}

Result<std::vector<AttemptReport>> ApplicationClient::attempts(const ApplicationId& id) {
  static const char* const states[] = {"",         "NEW",    "SUBMITTED", "SCHEDULED", "ALLOCATED_SAVING", "ALLOCATED",
                                       "LAUNCHED", "FAILED", "RUNNING",   "FINISHING", "FINISHED",         "KILLED"};
  wire::yarn::GetApplicationAttemptsRequest request;
  *request.mutable_application_id() = to_proto(id);
  auto response = ask<wire::yarn::GetApplicationAttemptsResponse>("getApplicationAttempts", request);
  if (!response) return response.error();
  std::vector<AttemptReport> attempts;
  for (const auto& attempt : response->application_attempts()) {
    AttemptReport report;
    report.id = attempt_id_string(attempt.application_attempt_id());
    const int state = attempt.yarn_application_attempt_state();
    report.state = state > 0 && state < 12 ? states[state] : "UNKNOWN";
    if (attempt.has_am_container_id()) report.am_container = container_id_string(attempt.am_container_id());
    report.host = attempt.host();
    report.tracking_url = attempt.tracking_url();
    report.diagnostics = readable_diagnostics(attempt.diagnostics());
    report.start_time = attempt.start_time();
    report.finish_time = attempt.finish_time();
    attempts.push_back(std::move(report));
  }
  return attempts;
}

Result<std::vector<ContainerReport>> ApplicationClient::containers(const std::string& attempt_id) {
  auto attempt = parse_attempt_id(attempt_id);
  if (!attempt) return attempt.error();
  wire::yarn::GetContainersRequest request;
  *request.mutable_application_attempt_id() = *attempt;
  auto response = ask<wire::yarn::GetContainersResponse>("getContainers", request);
  if (!response) return response.error();
  std::vector<ContainerReport> containers;
  for (const auto& container : response->containers()) {
    ContainerReport report;
    report.id = container_id_string(container.container_id());
    report.node = container.node_id().host() + ":" + std::to_string(container.node_id().port());
    report.node_http_address = container.node_http_address();
    const int state = container.container_state();
    report.state = state == 1 ? "NEW" : state == 2 ? "RUNNING" : state == 3 ? "COMPLETE" : "UNKNOWN";
    report.exit_status = container.container_exit_status();
    report.diagnostics = container.diagnostics_info() == "N/A" ? "" : container.diagnostics_info();
    report.log_url = container.log_url();
    report.resources = from_proto(container.resource());
    report.start_time = container.creation_time();
    report.finish_time = container.finish_time();
    containers.push_back(std::move(report));
  }
  return containers;
}

Result<std::vector<ApplicationReport>> ApplicationClient::applications(const std::string& type,
                                                                       const std::vector<std::string>& states) {
  static const std::map<std::string, wire::yarn::YarnApplicationState> by_name{
      {"NEW", wire::yarn::NEW},           {"NEW_SAVING", wire::yarn::NEW_SAVING}, {"SUBMITTED", wire::yarn::SUBMITTED},
      {"ACCEPTED", wire::yarn::ACCEPTED}, {"RUNNING", wire::yarn::RUNNING},       {"FINISHED", wire::yarn::FINISHED},
      {"FAILED", wire::yarn::FAILED},     {"KILLED", wire::yarn::KILLED}};
  wire::yarn::GetApplicationsRequest request;
  if (!type.empty()) request.add_application_types(type);
  for (const auto& state : states) {
    auto found = by_name.find(state);
    if (found == by_name.end()) return make_error("\"" + state + "\" is not a YARN application state");
    request.add_application_states(found->second);
  }
  auto response = ask<wire::yarn::GetApplicationsResponse>("getApplications", request);
  if (!response) return response.error();
  std::vector<ApplicationReport> reports;
  for (const auto& report : response->applications()) reports.push_back(from_proto(report));
  return reports;
}

Result<Token> ApplicationClient::delegation_token(const std::string& renewer) {
  wire::hadoop::GetDelegationTokenRequest request;
  request.set_renewer(renewer);
  auto response = ask<wire::hadoop::GetDelegationTokenResponse>("getDelegationToken", request);
  if (!response) return response.error();
  if (!response->has_token()) {
    return make_error("the ResourceManager at " + addresses_text(rpc_->options()) +
                      " issued no delegation token; it issues them only to Kerberos-authenticated clients");
  }
  const auto& token = response->token();
  // The ResourceManager leaves the service empty; clients name it.
  std::string service;
  for (const auto& address : rpc_->options().addresses) {
    service += (service.empty() ? "" : ",") + token_service_address(address);
  }
  return Token{token.identifier(), token.password(), token.kind(), service};
}

Result<std::int64_t> ApplicationClient::renew_delegation_token(const Token& token) {
  wire::hadoop::RenewDelegationTokenRequest request;
  *request.mutable_token() = to_proto(token);
  auto response = ask<wire::hadoop::RenewDelegationTokenResponse>("renewDelegationToken", request);
  if (!response) return response.error();
  return static_cast<std::int64_t>(response->new_expiry_time());
}

Result<void> ApplicationClient::cancel_delegation_token(const Token& token) {
  wire::hadoop::CancelDelegationTokenRequest request;
  *request.mutable_token() = to_proto(token);
  auto response = ask<wire::hadoop::CancelDelegationTokenResponse>("cancelDelegationToken", request);
  if (!response) return response.error();
  return {};
}

}  // namespace spindle::yarn

#include "yarn/conversions.h"

#include <cstdlib>
#include <string>
#include <string_view>

#include "yarn/ids.h"

namespace spindle::yarn {
namespace {

std::string node_state_name(wire::yarn::NodeState state) {
  switch (state) {
    case wire::yarn::NS_NEW: return "NEW";
    case wire::yarn::NS_RUNNING: return "RUNNING";
    case wire::yarn::NS_UNHEALTHY: return "UNHEALTHY";
    case wire::yarn::NS_DECOMMISSIONED: return "DECOMMISSIONED";
    case wire::yarn::NS_LOST: return "LOST";
    case wire::yarn::NS_REBOOTED: return "REBOOTED";
    case wire::yarn::NS_DECOMMISSIONING: return "DECOMMISSIONING";
    case wire::yarn::NS_SHUTDOWN: return "SHUTDOWN";
  }
  return "UNKNOWN";
}

std::string queue_state_name(wire::yarn::QueueState state) {
  switch (state) {
    case wire::yarn::Q_STOPPED: return "STOPPED";
    case wire::yarn::Q_RUNNING: return "RUNNING";
    case wire::yarn::Q_DRAINING: return "DRAINING";
  }
  return "UNKNOWN";
}

std::string application_state_name(wire::yarn::YarnApplicationState state) {
  switch (state) {
    case wire::yarn::NEW: return "NEW";
    case wire::yarn::NEW_SAVING: return "NEW_SAVING";
    case wire::yarn::SUBMITTED: return "SUBMITTED";
    case wire::yarn::ACCEPTED: return "ACCEPTED";
    case wire::yarn::RUNNING: return "RUNNING";
    case wire::yarn::FINISHED: return "FINISHED";
    case wire::yarn::FAILED: return "FAILED";
    case wire::yarn::KILLED: return "KILLED";
  }
  return "UNKNOWN";
}

std::string final_status_name(wire::yarn::FinalApplicationStatus status) {
  switch (status) {
    case wire::yarn::APP_UNDEFINED: return "UNDEFINED";
    case wire::yarn::APP_SUCCEEDED: return "SUCCEEDED";
    case wire::yarn::APP_FAILED: return "FAILED";
    case wire::yarn::APP_KILLED: return "KILLED";
    case wire::yarn::APP_ENDED: return "ENDED";
  }
  return "UNDEFINED";
}

}  // namespace

Resources from_proto(const wire::yarn::Resource& resource) {
  Resources out;
  out.memory_mib = resource.memory();
  out.vcores = resource.virtual_cores();
  for (const auto& info : resource.resource_value_map()) {
    // Memory and vcores come in fields of their own, which win.
    if (info.key() == "memory-mb" || info.key() == "vcores") continue;
    out.others[info.key()] = info.value();
  }
  return out;
}

ClusterMetrics from_proto(const wire::yarn::YarnClusterMetrics& metrics) {
  return ClusterMetrics{metrics.num_node_managers(), metrics.num_active_nms(),    metrics.num_decommissioned_nms(),
                        metrics.num_lost_nms(),      metrics.num_unhealthy_nms(), metrics.num_rebooted_nms()};
}

NodeInfo from_proto(const wire::yarn::NodeReport& report) {
  NodeInfo node;
  node.id = report.node_id().host() + ":" + std::to_string(report.node_id().port());
  node.http_address = report.http_address();
  node.rack = report.rack_name();
  node.state = node_state_name(report.node_state());
  node.health_report = report.health_report();
  node.containers = report.num_containers();
  node.used = from_proto(report.used());
  node.capability = from_proto(report.capability());
  node.labels.assign(report.node_labels().begin(), report.node_labels().end());
  return node;
}

QueueInfo from_proto(const wire::yarn::QueueInfo& queue) {
  QueueInfo out;
  out.name = queue.queue_name();
  out.path = queue.queue_path();
  out.state = queue_state_name(queue.state());
  out.capacity = queue.capacity();
  out.maximum_capacity = queue.maximum_capacity();
  out.current_capacity = queue.current_capacity();
  out.accessible_labels.assign(queue.accessible_node_labels().begin(), queue.accessible_node_labels().end());
  out.default_label_expression = queue.default_node_label_expression();
  if (queue.has_statistics()) {
    out.apps_running = queue.statistics().apps_running();
    out.apps_pending = queue.statistics().apps_pending();
  }
  for (const auto& child : queue.child_queues()) out.children.push_back(from_proto(child));
  return out;
}

ApplicationReport from_proto(const wire::yarn::ApplicationReport& report) {
  ApplicationReport out;
  out.id = from_proto(report.application_id());
  out.user = report.user();
  out.queue = report.queue();
  out.name = report.name();
  out.state = application_state_name(report.yarn_application_state());
  out.final_status = final_status_name(report.final_application_status());
  out.diagnostics = readable_diagnostics(report.diagnostics());
  out.tracking_url = report.tracking_url();
  out.am_host = report.host();
  out.am_rpc_port = report.rpc_port();
  out.start_time = report.start_time();
  out.finish_time = report.finish_time();
  out.progress = report.progress();
  out.tags.assign(report.application_tags().begin(), report.application_tags().end());
  return out;
}

std::string readable_diagnostics(const std::string& reported) {
  if (reported == "N/A") return {};
  // The RM appends to one buffer per attempt; these are the notes it writes with no end mark.
  static const std::string_view glued[] = {"Attempt recovered after RM restart"};
  std::string text = reported;
  for (const auto note : glued) {
    for (auto at = text.find(note); at != std::string::npos; at = text.find(note, at + note.size())) {
      const auto end = at + note.size();
      if (end < text.size() && text[end] != ';' && text[end] != '.' && text[end] != '\n') text.insert(end, "; ");
    }
  }
  return text;
}

Token from_proto(const wire::hadoop::Token& token) {
  return Token{token.identifier(), token.password(), token.kind(), token.service()};
}

AllocatedContainer from_proto(const wire::yarn::Container& container) {
  AllocatedContainer out;
  out.id = container_id_string(container.id());
  out.allocation_request_id = container.allocation_request_id();
  out.priority = container.priority().priority();
  out.node = container.node_id().host() + ":" + std::to_string(container.node_id().port());
  out.node_http_address = container.node_http_address();
  out.resources = from_proto(container.resource());
  out.container_token = from_proto(container.container_token());
  return out;
}

CompletedContainer from_proto(const wire::yarn::ContainerStatus& status) {
  return CompletedContainer{container_id_string(status.container_id()), status.exit_status(),
                            status.diagnostics() == "N/A" ? "" : status.diagnostics()};
}

wire::yarn::Resource to_proto(const Resources& resources) {
  wire::yarn::Resource proto;
  proto.set_memory(resources.memory_mib);
  proto.set_virtual_cores(resources.vcores);
  for (const auto& [name, value] : resources.others) {
    auto* info = proto.add_resource_value_map();
    info->set_key(name);
    info->set_value(value);
  }
  return proto;
}

wire::hadoop::Token to_proto(const Token& token) {
  wire::hadoop::Token proto;
  proto.set_identifier(token.identifier);
  proto.set_password(token.password);
  proto.set_kind(token.kind);
  proto.set_service(token.service);
  return proto;
}

wire::yarn::Url url_to_proto(const std::string& url) {
  wire::yarn::Url proto;
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) {
    proto.set_scheme("file");
    proto.set_file(url);
    return proto;
  }
  proto.set_scheme(url.substr(0, scheme_end));
  const auto authority_start = scheme_end + 3;
  const auto path_start = url.find('/', authority_start);
  const std::string authority = url.substr(authority_start, path_start - authority_start);
  proto.set_file(path_start == std::string::npos ? "/" : url.substr(path_start));
  std::string host = authority;
  std::string port;
  if (authority.starts_with('[')) {  // [v6]:port
    const auto close = authority.find(']');
    host = authority.substr(1, close == std::string::npos ? std::string::npos : close - 1);
    if (close != std::string::npos && close + 1 < authority.size() && authority[close + 1] == ':') {
      port = authority.substr(close + 2);
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (!host.empty()) proto.set_host(host);
  if (!port.empty()) proto.set_port(std::atoi(port.c_str()));
  return proto;
}

wire::yarn::ContainerLaunchContext to_proto(const LaunchContext& context) {
  wire::yarn::ContainerLaunchContext proto;
  for (const auto& file : context.files) {
    auto* entry = proto.add_local_resources();
    entry->set_key(file.name);
    auto* resource = entry->mutable_value();
    *resource->mutable_resource() = url_to_proto(file.url);
    resource->set_size(file.size);
    resource->set_timestamp(file.modification_time);
    resource->set_type(file.archive ? wire::yarn::ARCHIVE : wire::yarn::FILE);
    resource->set_visibility(file.kept_for_user ? wire::yarn::PRIVATE : wire::yarn::APPLICATION);
  }
  for (const auto& [name, value] : context.environment) {
    auto* entry = proto.add_environment();
    entry->set_key(name);
    entry->set_value(value);
  }
  for (const auto& command : context.commands) proto.add_command(command);
  if (!context.credentials.empty()) proto.set_tokens(context.credentials);
  return proto;
}

}  // namespace spindle::yarn

#include "master/job_api_messages.h"

#include <algorithm>
#include <type_traits>

#include "spindle/core/text_encodings.h"

namespace spindle::job_api {
namespace {

// A field of the wrong type reads as absent: the peer may be older or newer.
template <typename T>
T field_or(const nlohmann::json& body, const char* key, T fallback) {
  const auto found = body.find(key);
  if (found == body.end()) return fallback;
  if constexpr (std::is_same_v<T, std::string>) {
    return found->is_string() ? found->template get<std::string>() : fallback;
  } else if constexpr (std::is_same_v<T, bool>) {
    return found->is_boolean() ? found->template get<bool>() : fallback;
  } else {
    return found->is_number() ? found->template get<T>() : fallback;
  }
}

bool is_sha256_hex(std::string_view text) {
  return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

Result<std::string> container_of(const nlohmann::json& body) {
  if (!body.is_object() || !body.contains("container") || !body["container"].is_string()) {
    return make_error("a task's report is a JSON object with its \"container\"");
  }
  return body["container"].get<std::string>();
}

}  // namespace

nlohmann::json to_json(const Registration& registration) {
  nlohmann::json body{
      {"host", registration.address.host}, {"port", registration.address.port}, {"container", registration.container}};
  if (registration.reattachment.present) {
    const auto& reattachment = registration.reattachment;
    body["reattach"] = {{"restarts", reattachment.restarts},
                        {"lost", reattachment.lost},
                        {"cluster_version", reattachment.cluster_version},
                        {"command_ended", reattachment.command_ended}};
  }
  return body;
}

Result<Registration> registration_from_json(const nlohmann::json& body) {
  if (!body.is_object() || !body.contains("host") || !body["host"].is_string() || !body.contains("port") ||
      !body["port"].is_number_integer() || !body.contains("container") || !body["container"].is_string()) {
    return make_error("a registration is {\"host\": string, \"port\": number, \"container\": string}");
  }
  const auto port = body["port"].get<std::int64_t>();
  auto address = parse_host_port(body["host"].get<std::string>() + ":" + std::to_string(port));
  if (!address) return address.error();
  Registration registration{std::move(*address), body["container"].get<std::string>(), {}};
  if (const auto found = body.find("reattach"); found != body.end() && found->is_object()) {
    auto& reattachment = registration.reattachment;
    reattachment.present = true;
    reattachment.restarts = std::max(0, field_or<int>(*found, "restarts", 0));
    reattachment.lost = std::max(0, field_or<int>(*found, "lost", 0));
    reattachment.cluster_version = field_or<std::uint64_t>(*found, "cluster_version", 0);
    reattachment.command_ended = field_or<bool>(*found, "command_ended", false);
  }
  return registration;
}

nlohmann::json to_json(const TaskHeartbeat& heartbeat) {
  nlohmann::json body{{"container", heartbeat.container},
                      {"rss_bytes", heartbeat.rss_bytes},
                      {"cpu_seconds", heartbeat.cpu_seconds},
                      {"processes", heartbeat.processes},
                      {"log_bytes", heartbeat.log_bytes},
                      {"output_fingerprint", heartbeat.output_fingerprint},
                      {"cluster_version", heartbeat.cluster_version}};
  if (!heartbeat.certificate_sha256.empty()) body["certificate_sha256"] = heartbeat.certificate_sha256;
  return body;
}

Result<TaskHeartbeat> heartbeat_from_json(const nlohmann::json& body) {
  auto container = container_of(body);
  if (!container) return container.error();
  TaskHeartbeat heartbeat;
  heartbeat.container = std::move(*container);
  heartbeat.rss_bytes = field_or<std::uint64_t>(body, "rss_bytes", 0);
  heartbeat.cpu_seconds = field_or<double>(body, "cpu_seconds", 0);
  heartbeat.processes = field_or<int>(body, "processes", 0);
  heartbeat.log_bytes = field_or<std::uint64_t>(body, "log_bytes", 0);
  heartbeat.output_fingerprint = field_or<std::uint64_t>(body, "output_fingerprint", 0);
  heartbeat.cluster_version = field_or<std::uint64_t>(body, "cluster_version", 0);
  heartbeat.certificate_sha256 = field_or<std::string>(body, "certificate_sha256", "");
  if (!heartbeat.certificate_sha256.empty() && !is_sha256_hex(heartbeat.certificate_sha256)) {
    return make_error(
        "a heartbeat's \"certificate_sha256\" is 64 lower-case hex digits, the pin of the task's certificate");
  }
  return heartbeat;
}

nlohmann::json to_json(const TaskResult& result) {
  return {{"container", result.container},
          {"exit_code", result.exit_code},
          {"description", result.description},
          {"stderr_tail", result.stderr_tail}};
}

Result<TaskResult> result_from_json(const nlohmann::json& body) {
  auto container = container_of(body);
  if (!container) return container.error();
  if (!body.contains("exit_code") || !body["exit_code"].is_number_integer()) {
    return make_error("a task's result needs its \"exit_code\"");
  }
  TaskResult result;
  result.container = std::move(*container);
  result.exit_code = field_or<int>(body, "exit_code", 0);
  result.description = field_or<std::string>(body, "description", "");
  result.stderr_tail = field_or<std::string>(body, "stderr_tail", "");
  return result;
}

nlohmann::json events_to_json(const std::vector<JobEvent>& events, std::uint64_t last) {
  auto list = nlohmann::json::array();
  for (const auto& event : events) {
    list.push_back({{"sequence", event.sequence},
                    {"time_ms", event.time_ms},
                    {"kind", event.kind},
                    {"task", event.task},
                    {"message", event.message}});
  }
  return {{"events", std::move(list)}, {"last", last}};
}

Result<std::vector<JobEvent>> events_from_json(const nlohmann::json& body) {
  if (!body.is_object() || !body.contains("events") || !body["events"].is_array()) {
    return make_error("the application master's events answer is not {\"events\": [...]}");
  }
  std::vector<JobEvent> events;
  for (const auto& item : body["events"]) {
    if (!item.is_object()) continue;
    JobEvent event;
    event.sequence = field_or<std::uint64_t>(item, "sequence", 0);
    event.time_ms = field_or<std::int64_t>(item, "time_ms", 0);
    event.kind = field_or<std::string>(item, "kind", "");
    event.task = field_or<std::string>(item, "task", "");
    event.message = field_or<std::string>(item, "message", "");
    events.push_back(std::move(event));
  }
  return events;
}

nlohmann::json tokens_to_json(std::uint64_t generation, const std::string& credentials) {
  return {{"generation", generation}, {"credentials", base64_encode(credentials)}};
}

Result<TokenGeneration> tokens_from_json(const nlohmann::json& body) {
  const auto refused =
      make_error("the application master's tokens answer is not {\"generation\": <number>, \"credentials\": <base64>}");
  if (!body.is_object() || !body.contains("generation") || !body["generation"].is_number_unsigned() ||
      !body.contains("credentials") || !body["credentials"].is_string()) {
    return refused;
  }
  auto bytes = base64_decode(body["credentials"].get<std::string>());
  if (!bytes) return refused;
  return TokenGeneration{body["generation"].get<std::uint64_t>(), std::move(*bytes)};
}

std::string body_text(const nlohmann::json& body) {
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace spindle::job_api

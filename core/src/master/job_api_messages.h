#pragma once

// The job API's request and answer bodies, written and read by one codec
// that the application master's server and the executors' client share (see
// docs/container-binary.md, "The job API"). Readers take what an older or
// newer peer may add or leave out; each refusal is one sentence naming the
// shape the message should have.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spindle/core/cluster_spec.h"
#include "spindle/core/event_log.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/result.h"

namespace spindle::job_api {

// PUT /v1/tasks/<type>/<index>
struct Registration {
  HostPort address;
  std::string container;
  Reattachment reattachment;
};
nlohmann::json to_json(const Registration& registration);
Result<Registration> registration_from_json(const nlohmann::json& body);

// POST /v1/tasks/<type>/<index>/heartbeat and .../result
nlohmann::json to_json(const TaskHeartbeat& heartbeat);
Result<TaskHeartbeat> heartbeat_from_json(const nlohmann::json& body);
nlohmann::json to_json(const TaskResult& result);
Result<TaskResult> result_from_json(const nlohmann::json& body);

// GET /v1/events: the events after the asked sequence, and the newest one.
nlohmann::json events_to_json(const std::vector<JobEvent>& events, std::uint64_t last);
Result<std::vector<JobEvent>> events_from_json(const nlohmann::json& body);

// GET /v1/tokens: a generation of the job's tokens, the credentials
// (Hadoop's token storage format) in base64.
struct TokenGeneration {
  std::uint64_t generation = 0;
  std::string credentials;
};
nlohmann::json tokens_to_json(std::uint64_t generation, const std::string& credentials);
Result<TokenGeneration> tokens_from_json(const nlohmann::json& body);

// A JSON body as text: invalid UTF-8 is replaced, never thrown on.
std::string body_text(const nlohmann::json& body);

}  // namespace spindle::job_api

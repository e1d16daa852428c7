#pragma once

// The answers of `spindle serve`'s API, version 1 (docs/serve.md), as one
// codec: the server writes them with the `*_json` functions and the desktop
// app's DashboardClient reads them back with the `*_from_json` ones, so the
// two ends cannot drift apart. The browser page reads the same shapes.
// Readers never throw; nullopt means the answer is not of this shape.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spindle/client/dashboard_client.h"
#include "spindle/client/job_actions.h"
#include "spindle/client/will_it_fit.h"
#include "spindle/core/diagnostic.h"

namespace spindle::client::serve_api {

using Json = nlohmann::ordered_json;

// GET session
struct Session {
  std::string user;
  std::string version;
};
Json session_json(const Session& session);
std::optional<Session> session_from_json(const nlohmann::json& answer);

// GET jobs: the history's jobs, and why the cluster was not asked, if so.
struct JobsPage {
  std::vector<JobHistoryEntry> jobs;
  std::string cluster_problem;  // empty: the states are the cluster's own
};
Json jobs_page_json(const JobsPage& page);
std::optional<JobsPage> jobs_page_from_json(const nlohmann::json& answer);

// GET jobs/APP; `newest_point` is the wall time of the newest scalar the
// server has read (0: none), for the page to know when to fetch metrics.
Json remote_job_json(const RemoteJob& job, double newest_point);
// nullopt also when the job's status is there but not a status.
std::optional<RemoteJob> remote_job_from_json(const nlohmann::json& answer);

// GET jobs/APP/spec
Json spec_json(const std::string& spec_yaml);
std::optional<std::string> spec_from_json(const nlohmann::json& answer);

// GET jobs/APP/metrics?after=N: the points from the N-th on.
Json points_json(const RemotePoints& page);
std::optional<RemotePoints> points_from_json(const nlohmann::json& answer);

// GET jobs/APP/logs
struct LogPiece {
  std::string task;
  std::string file;
  std::string container;
  std::uint64_t offset = 0;  // where `log.text` starts in the file
  std::uint64_t size = 0;    // the whole file's size as read
  RemoteLog log;
};
Json log_piece_json(const LogPiece& piece);
std::optional<LogPiece> log_piece_from_json(const nlohmann::json& answer);

// POST jobs/APP/kill
Json killed_json(const std::string& application_id, const KilledJob& killed);

// GET cluster
Json cluster_json(const ClusterState& state);
std::optional<ClusterState> cluster_from_json(const nlohmann::json& answer);

// POST submit
Json submitted_json(const std::string& application_id);
std::optional<std::string> submitted_from_json(const nlohmann::json& answer);

// Any refusal: {"error": sentence}, with the spec's problems when there
// are some (each with line, column, field, message and its sentence).
Json refusal_json(const std::string& sentence);
Json problems_json(const Diagnostics& problems);
// The refusal's sentence, one more line per problem; "" when it holds none.
std::string refusal_sentence(const nlohmann::json& answer);

}  // namespace spindle::client::serve_api

#include "client/remote/dashboard_answers.h"

#include <nlohmann/json.hpp>

#include "spindle/client/serve_api.h"

namespace spindle::client {
namespace {

// Our own sentence for a server that answers in a shape we do not know.
Error unexpected(const std::string& server, std::string_view what) {
  return make_error("the Spindle server at " + server + " answered " + std::string(what) +
                    " in a shape this version does not know; use a spindle serve of the same version");
}

// The JSON of an answer; null when it is none.
nlohmann::json parsed(std::string_view body) {
  return nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
}

// The answer read by `read`, or the sentence naming `what` when it is not of its shape.
template <typename Read>
auto read_answer(std::string_view body, const std::string& server, std::string_view what, Read read)
    -> Result<typename decltype(read(nlohmann::json()))::value_type> {
  auto answer = read(parsed(body));
  if (!answer) return unexpected(server, what);
  return std::move(*answer);
}

}  // namespace

Result<std::string> read_session_user(std::string_view body, const std::string& server) {
  auto session = read_answer(body, server, "the session", serve_api::session_from_json);
  if (!session) return session.error();
  return session->user;
}

Result<std::vector<JobHistoryEntry>> read_jobs(std::string_view body, const std::string& server) {
  auto page = read_answer(body, server, "the jobs list", serve_api::jobs_page_from_json);
  if (!page) return page.error();
  return std::move(page->jobs);
}

Result<ClusterState> read_cluster(std::string_view body, const std::string& server) {
  return read_answer(body, server, "the cluster", serve_api::cluster_from_json);
}

Result<RemoteJob> read_job(std::string_view body, const std::string& server) {
  return read_answer(body, server, "the job", serve_api::remote_job_from_json);
}

Result<std::string> read_spec(std::string_view body, const std::string& server) {
  return read_answer(body, server, "the spec", serve_api::spec_from_json);
}

Result<RemotePoints> read_points(std::string_view body, const std::string& server) {
  return read_answer(body, server, "the metrics", serve_api::points_from_json);
}

Result<RemoteLog> read_log(std::string_view body, const std::string& server) {
  auto piece = read_answer(body, server, "the log", serve_api::log_piece_from_json);
  if (!piece) return piece.error();
  return std::move(piece->log);
}

Result<std::string> read_submitted(std::string_view body, const std::string& server) {
  return read_answer(body, server, "the submit", serve_api::submitted_from_json);
}

std::string read_refusal(std::string_view body) {
  return serve_api::refusal_sentence(parsed(body));
}

}  // namespace spindle::client

#include "dashboard_site.h"

#include <boost/asio/post.hpp>

#include <charconv>

#include "api_route.h"
#include "spindle/core/gzip.h"
#include "spindle/tbproxy/route.h"
#include "submit_request.h"

namespace spindle::serve {
namespace {

namespace http = boost::beast::http;
using tbproxy::SiteRequest;
using tbproxy::SiteResponder;
using tbproxy::SiteResponse;

// The page loads only its own files and talks only to this server; it may
// frame only this server's TensorBoards, and nobody may frame it.
constexpr const char* content_security_policy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

SiteResponse with_safety_fields(SiteResponse response) {
  response.set("X-Content-Type-Options", "nosniff");
  response.set("Referrer-Policy", "no-referrer");
  response.set("Content-Security-Policy", content_security_policy);
  return response;
}

// Answers as long as the jobs list (a history of many jobs) go compressed to clients that take gzip.
constexpr std::size_t smallest_compressed_answer = 1024;

SiteResponse json_response(const ApiReply& reply, bool gzip = false) {
  SiteResponse response(static_cast<http::status>(reply.status), 11);
  response.set(http::field::content_type, "application/json; charset=utf-8");
  response.set(http::field::cache_control, "no-store");
  response.set(http::field::vary, "Accept-Encoding");
  auto body = reply.body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  if (gzip && body.size() >= smallest_compressed_answer) {
    response.set(http::field::content_encoding, "gzip");
    body = gzip_compress(body);
  }
  response.body() = std::move(body);
  return with_safety_fields(std::move(response));
}

SiteResponse refused(const ApiRefusal& refusal) {
  auto response = json_response(serve::refusal(refusal.status, refusal.sentence));
  if (!refusal.allow.empty()) response.set(http::field::allow, refusal.allow);
  return response;
}

bool accepts_gzip(const http::fields& fields) {
  const auto accept = fields[http::field::accept_encoding];
  return std::string_view(accept.data(), accept.size()).find("gzip") != std::string_view::npos;
}

template <typename Number>
std::optional<Number> number_parameter(const ApiCall& call, const std::string& key, Number fallback) {
  const auto found = call.query.find(key);
  if (found == call.query.end()) return fallback;
  Number value{};
  const auto& text = found->second;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string parameter(const ApiCall& call, const std::string& key, std::string fallback = {}) {
  const auto found = call.query.find(key);
  return found == call.query.end() ? fallback : found->second;
}

ApiRefusal bad_number(const std::string& key) {
  return {400, "The query parameter " + key + " must be a number.", {}};
}

}  // namespace

DashboardSite::DashboardSite(std::shared_ptr<ClusterAccess> cluster, std::chrono::milliseconds refresh_interval,
                             std::chrono::milliseconds longest_wait, int worker_threads)
    : cluster_(std::move(cluster)),
      longest_wait_(longest_wait),
      workers_(static_cast<std::size_t>(std::max(1, worker_threads))),
      live_(*cluster_, refresh_interval) {}

DashboardSite::~DashboardSite() {
  stop();
}

void DashboardSite::stop() {
  live_.stop();
  workers_.join();
}

void DashboardSite::handle(SiteRequest request, SiteResponder respond) {
  if (request.target.starts_with("/api/")) {
    serve_api(std::move(request), std::move(respond));
  } else {
    serve_file(request, respond);
  }
}

void DashboardSite::serve_file(const SiteRequest& request, const SiteResponder& respond) const {
  if (request.method != http::verb::get && request.method != http::verb::head) {
    respond(refused({405, "The dashboard's pages take GET and HEAD only.", "GET, HEAD"}));
    return;
  }
  const auto path = std::string_view(request.target).substr(0, request.target.find('?'));
  const auto* asset = assets_.find(path);
  if (!asset) {
    respond(refused({404, "The dashboard has no " + std::string(path) + "; its page is /.", {}}));
    return;
  }
  if (request.fields[http::field::if_none_match] == asset->etag) {
    SiteResponse response(http::status::not_modified, 11);
    response.set(http::field::etag, asset->etag);
    respond(with_safety_fields(std::move(response)));
    return;
  }
  SiteResponse response(http::status::ok, 11);
  response.set(http::field::content_type, asset->content_type);
  response.set(http::field::etag, asset->etag);
  response.set(http::field::cache_control, "no-cache");
  response.set(http::field::vary, "Accept-Encoding");
  if (accepts_gzip(request.fields) && asset->gzip.size() < asset->plain.size()) {
    response.set(http::field::content_encoding, "gzip");
    response.body() = asset->gzip;
  } else {
    response.body() = std::string(asset->plain);
  }
  respond(with_safety_fields(std::move(response)));
}

void DashboardSite::serve_api(SiteRequest request, SiteResponder respond) {
  if (auto refusal = refuse_cross_site(request.method, request.fields)) {
    respond(refused(*refusal));
    return;
  }
  auto routed = route_api(request.method, request.target);
  if (auto* refusal = std::get_if<ApiRefusal>(&routed)) {
    respond(refused(*refusal));
    return;
  }
  auto call = std::get<ApiCall>(std::move(routed));
  const bool gzip = accepts_gzip(request.fields);
  switch (call.endpoint) {
    case Endpoint::updates: {
      const auto after = number_parameter<std::uint64_t>(call, "after", 0);
      const auto wait_ms = number_parameter<std::int64_t>(call, "wait_ms", longest_wait_.count());
      if (!after) return respond(refused(bad_number("after")));
      if (!wait_ms || *wait_ms < 0) return respond(refused(bad_number("wait_ms")));
      if (const auto job = parameter(call, "job"); !job.empty()) {
        if (!tbproxy::is_application_id(job)) {
          return respond(refused({400, "The query parameter job must be an application id.", {}}));
        }
        live_.follow(job);
      }
      const auto longest = std::min(std::chrono::milliseconds(*wait_ms), longest_wait_);
      live_.wait(*after, longest, [respond](std::uint64_t version) {
        respond(json_response({200, nlohmann::ordered_json{{"version", version}}}));
      });
      return;
    }
    case Endpoint::jobs:
      if (call.query.empty()) {
        if (auto cached = live_.jobs()) {
          cached->body["version"] = live_.version();
          return respond(json_response(*cached, gzip));
        }
      }
      break;
    case Endpoint::job:
      live_.follow(call.application_id);
      if (auto cached = live_.job(call.application_id)) return respond(json_response(*cached, gzip));
      break;
    default: break;
  }
  const auto type = request.fields[http::field::content_type];
  boost::asio::post(
      workers_, [this, call = std::move(call), body = std::move(request.body),
                 content_type = std::string(type.data(), type.size()), gzip, respond = std::move(respond)]() mutable {
        const auto& id = call.application_id;
        ApiReply reply;
        switch (call.endpoint) {
          case Endpoint::session: reply = cluster_->session(); break;
          case Endpoint::jobs: {
            reply = cluster_->jobs(parameter(call, "all", "1") != "0", parameter(call, "search"));
            reply.body["version"] = live_.version();
            break;
          }
          case Endpoint::job:
            reply = cluster_->job(id);
            live_.remember(id, reply);
            break;
          case Endpoint::job_spec: reply = cluster_->spec(id); break;
          case Endpoint::job_metrics: {
            const auto after = number_parameter<std::uint64_t>(call, "after", 0);
            reply = after ? cluster_->metrics(id, *after) : refusal(400, bad_number("after").sentence);
            break;
          }
          case Endpoint::job_logs: {
            const auto offset = number_parameter<std::uint64_t>(call, "offset", 0);
            const auto task = parameter(call, "task");
            if (!offset) {
              reply = refusal(400, bad_number("offset").sentence);
            } else if (task.empty()) {
              reply = refusal(400, "Name the task whose log to read: ?task=worker:0, or ?task=master.");
            } else {
              reply = cluster_->logs(id, task, parameter(call, "file", "stderr"), *offset);
            }
            break;
          }
          case Endpoint::job_kill:
            reply = cluster_->kill(id);
            // What the page reads next must not be the job as it was before the kill.
            if (reply.status == 200) live_.remember(id, cluster_->job(id));
            break;
          case Endpoint::cluster: reply = cluster_->cluster(); break;
          case Endpoint::validate: reply = cluster_->validate(body); break;
          case Endpoint::submit: {
            auto read = read_submit_request(std::move(body), content_type);
            if (auto* refused = std::get_if<ApiRefusal>(&read)) {
              reply = refusal(refused->status, refused->sentence);
            } else {
              const auto& request = std::get<SubmitRequest>(read);
              reply = cluster_->submit(request.spec_text, request.uploads, request.keytab);
            }
            break;
          }
          case Endpoint::sweeps: reply = cluster_->sweeps(); break;
          case Endpoint::sweep: reply = cluster_->sweep(id); break;
          case Endpoint::sweep_kill: reply = cluster_->sweep_kill(id); break;
          case Endpoint::trial_stop:
          case Endpoint::trial_kill:
            reply = cluster_->trial_end(id, call.trial, call.endpoint == Endpoint::trial_stop);
            break;
          case Endpoint::updates: break;
        }
        respond(json_response(reply, gzip));
      });
}

}  // namespace spindle::serve

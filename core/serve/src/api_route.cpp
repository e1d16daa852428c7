#include "api_route.h"

#include <boost/beast/http/field.hpp>

#include <algorithm>
#include <array>
#include <vector>

#include "spindle/core/text.h"
#include "spindle/tbproxy/route.h"

namespace spindle::serve {
namespace {

namespace http = boost::beast::http;
using verb = http::verb;

ApiRefusal not_found(std::string sentence) {
  return {404, std::move(sentence), {}};
}

ApiRefusal wrong_method(std::string_view path, const char* allowed) {
  return {405, std::string(path) + " takes " + allowed + " only.", allowed};
}

struct JobAction {
  std::string_view name;
  Endpoint endpoint;
  bool post;
};

constexpr std::array job_actions{
    JobAction{"", Endpoint::job, false},
    JobAction{"spec", Endpoint::job_spec, false},
    JobAction{"metrics", Endpoint::job_metrics, false},
    JobAction{"logs", Endpoint::job_logs, false},
    JobAction{"kill", Endpoint::job_kill, true},
};

struct PlainRoute {
  std::string_view path;
  Endpoint endpoint;
  bool post;
};

constexpr std::array plain_routes{
    PlainRoute{"/api/v1/session", Endpoint::session, false},  PlainRoute{"/api/v1/jobs", Endpoint::jobs, false},
    PlainRoute{"/api/v1/updates", Endpoint::updates, false},  PlainRoute{"/api/v1/cluster", Endpoint::cluster, false},
    PlainRoute{"/api/v1/validate", Endpoint::validate, true}, PlainRoute{"/api/v1/submit", Endpoint::submit, true},
    PlainRoute{"/api/v1/sweeps", Endpoint::sweeps, false},
};

bool method_fits(verb method, bool post) {
  return post ? method == verb::post : (method == verb::get || method == verb::head);
}

// "/api/v1/sweeps/<id>", ".../kill", ".../trials/<n>/stop", ".../trials/<n>/kill".
std::variant<ApiCall, ApiRefusal> route_sweep(verb method, std::string_view path, ApiCall call) {
  const auto rest = path.substr(std::string_view("/api/v1/sweeps/").size());
  const auto parts = split(rest, '/');
  if (parts.empty() || !tbproxy::is_application_id(parts[0])) {
    return ApiRefusal{400,
                      "\"" + std::string(parts.empty() ? rest : parts[0]) +
                          "\" is not a sweep's id; it is its controller's application id, such as "
                          "application_1700000000000_0001.",
                      {}};
  }
  call.application_id = std::string(parts[0]);
  auto post_only = [&](Endpoint endpoint) -> std::variant<ApiCall, ApiRefusal> {
    if (!method_fits(method, true)) return wrong_method(path, "POST");
    call.endpoint = endpoint;
    return call;
  };
  if (parts.size() == 1) {
    if (!method_fits(method, false)) return wrong_method(path, "GET and HEAD");
    call.endpoint = Endpoint::sweep;
    return call;
  }
  if (parts.size() == 2 && parts[1] == "kill") return post_only(Endpoint::sweep_kill);
  if (parts.size() == 4 && parts[1] == "trials" && (parts[3] == "stop" || parts[3] == "kill")) {
    const auto& number = parts[2];
    if (number.empty() || number.size() > 5 ||
        !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return ApiRefusal{400, "\"" + std::string(number) + "\" is not a trial's number; trials are 0, 1, 2, ...", {}};
    }
    call.trial = std::stoi(std::string(number));
    return post_only(parts[3] == "stop" ? Endpoint::trial_stop : Endpoint::trial_kill);
  }
  return not_found("A sweep has kill, and trials/<n>/stop and trials/<n>/kill; not " + std::string(rest) + ".");
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int high = hex(text[i + 1]);
      const int low = hex(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::variant<ApiCall, ApiRefusal> route_api(verb method, std::string_view target) {
  const auto question = target.find('?');
  const auto path = target.substr(0, question);
  ApiCall call;
  if (question != std::string_view::npos) {
    for (const auto pair : split(target.substr(question + 1), '&')) {
      if (pair.empty()) continue;
      const auto equals = pair.find('=');
      auto key = percent_decode(pair.substr(0, equals));
      auto value = percent_decode(equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1));
      if (!key || !value) {
        return ApiRefusal{400, "The query parameter \"" + std::string(pair) + "\" has a broken %-escape.", {}};
      }
      call.query[*key] = std::move(*value);
    }
  }
  if (!path.starts_with("/api/v1/")) {
    return not_found("This server's API is /api/v1/; " + std::string(path) + " is not part of it.");
  }
  for (const auto& route : plain_routes) {
    if (path != route.path) continue;
    if (!method_fits(method, route.post)) return wrong_method(path, route.post ? "POST" : "GET and HEAD");
    call.endpoint = route.endpoint;
    return call;
  }
  if (path.starts_with("/api/v1/sweeps/")) return route_sweep(method, path, std::move(call));
  constexpr std::string_view jobs_prefix = "/api/v1/jobs/";
  if (path.starts_with(jobs_prefix)) {
    const auto rest = path.substr(jobs_prefix.size());
    const auto slash = rest.find('/');
    const auto id = rest.substr(0, slash);
    if (!tbproxy::is_application_id(id)) {
      return ApiRefusal{
          400,
          "\"" + std::string(id) + "\" is not a YARN application id; they look like application_1700000000000_0001.",
          {}};
    }
    const auto action = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    for (const auto& known : job_actions) {
      if (action != known.name) continue;
      if (!method_fits(method, known.post)) return wrong_method(path, known.post ? "POST" : "GET and HEAD");
      call.endpoint = known.endpoint;
      call.application_id = std::string(id);
      return call;
    }
    return not_found("A job has no \"" + std::string(action) + "\"; it has spec, metrics, logs and kill.");
  }
  return not_found("The API has no " + std::string(path) + "; see docs/serve.md for its paths.");
}

std::optional<ApiRefusal> refuse_cross_site(verb method, const http::fields& fields) {
  if (method == verb::get || method == verb::head) return std::nullopt;
  if (fields["X-Spindle-Request"] != "1") {
    return ApiRefusal{403, "A request that changes something must carry the header X-Spindle-Request: 1.", {}};
  }
  const auto site = fields["Sec-Fetch-Site"];
  if (!site.empty() && site != "same-origin" && site != "none") {
    return ApiRefusal{403, "A request from another site may not change anything here.", {}};
  }
  const auto origin = fields[http::field::origin];
  if (!origin.empty()) {
    const auto host = fields[http::field::host];
    const std::string expected = "http://" + std::string(host);
    if (host.empty() || origin != expected) {
      return ApiRefusal{403, "A request from " + std::string(origin) + " may not change anything here.", {}};
    }
  }
  return std::nullopt;
}

}  // namespace spindle::serve

#include "spindle/client/dashboard_client.h"

#include <nlohmann/json.hpp>

#include "client/remote/dashboard_answers.h"
#include "spindle/core/text_encodings.h"
#include "spindle/tbproxy/kerberos_logins.h"
#include "spindle/yarn/http_client.h"

namespace spindle::client {

Result<DashboardAddress> parse_dashboard_address(std::string_view printed, std::string_view token) {
  std::string text(printed);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  const auto scheme_end = text.find("://");
  if (scheme_end == std::string::npos ||
      (text.substr(0, scheme_end) != "http" && text.substr(0, scheme_end) != "https")) {
    return make_error("\"" + text +
                      "\" is not the address spindle serve printed; paste the line that starts with "
                      "http:// or https://");
  }
  DashboardAddress address;
  const auto path = text.find_first_of("/?#", scheme_end + 3);
  address.url = text.substr(0, path);
  if (address.url.size() == scheme_end + 3)
    return make_error("\"" + text + "\" names no host; paste the whole address");
  if (const auto query = text.find("token="); query != std::string::npos && path != std::string::npos) {
    address.token = text.substr(query + 6, text.find_first_of("&#", query) - query - 6);
  }
  if (!token.empty()) address.token = std::string(token);
  return address;
}

DashboardClient::DashboardClient(DashboardAddress address)
    : address_(std::move(address)), login_cookies_(std::make_shared<yarn::http::AuthCookies>()) {}

std::string DashboardClient::browser_url(std::string_view path) const {
  if (address_.token.empty()) return address_.url + std::string(path);
  return address_.url + std::string(path) + "?token=" + address_.token;
}

Result<std::string> DashboardClient::call(std::string_view method, std::string_view path, const std::string& body,
                                          long* status, std::string_view content_type) const {
  if (status) *status = 0;
  yarn::http::Request request;
  request.method = std::string(method);
  request.url = address_.url + "/api/v1/" + std::string(path);
  const bool kerberos = address_.token.empty();
  if (kerberos) {
    request.negotiate = true;
    request.cookies = static_cast<yarn::http::AuthCookies*>(login_cookies_.get());
    request.login_cookie = std::string(tbproxy::login_cookie_name);
  } else {
    request.headers.emplace_back("Authorization", "Bearer " + address_.token);
  }
  request.headers.emplace_back("Accept", "application/json");
  if (method == "POST") {
    request.headers.emplace_back("X-Spindle-Request", "1");
    request.headers.emplace_back("Content-Type", std::string(content_type));
    request.body = body;
  }
  request.connect_timeout = std::chrono::seconds(10);
  request.timeout = std::chrono::seconds(120);
  yarn::WebTrust trust{address_.certificate_pem, "the Spindle server's certificate in the app's settings"};
  if (!address_.certificate_pem.empty()) request.trust = &trust;
  auto response = yarn::http::perform(request);
  if (!response && response.error().kind == Error::Kind::authentication) {
    return make_error("the Spindle server at " + address_.url + " asks for a Kerberos login, and " +
                      response.error().message + "; or give its address with the token spindle serve printed");
  }
  if (!response) {
    return make_error("cannot reach the Spindle server at " + address_.url + ": " + response.error().message +
                      "; check that spindle serve runs there and that the SSH tunnel to it is open");
  }
  if (status) *status = response->status;
  if (response->status >= 200 && response->status < 300) return std::move(response->body);
  std::string sentence = read_refusal(response->body);
  // The server's screen refuses a missing or wrong token with a page of its own, not JSON.
  const bool bare = sentence.empty();
  if (bare) sentence = "the Spindle server at " + address_.url + " answered HTTP " + std::to_string(response->status);
  if (bare && (response->status == 401 || response->status == 403)) {
    sentence += kerberos ? "; it refused the Kerberos login: run kinit as the user the server acts for, or give its "
                           "address with the token spindle serve printed"
                         : "; it refused the token: paste the address spindle serve printed again, with its ?token=";
  }
  return make_error(sentence);
}

Result<std::string> DashboardClient::user() const {
  auto answer = call("GET", "session");
  if (!answer) return answer.error();
  return read_session_user(*answer, address_.url);
}

Result<std::vector<JobHistoryEntry>> DashboardClient::jobs() const {
  auto answer = call("GET", "jobs");
  if (!answer) return answer.error();
  return read_jobs(*answer, address_.url);
}

Result<ClusterState> DashboardClient::cluster() const {
  auto answer = call("GET", "cluster");
  if (!answer) return answer.error();
  return read_cluster(*answer, address_.url);
}

Result<RemoteJob> DashboardClient::job(const std::string& application_id) const {
  auto answer = call("GET", "jobs/" + application_id);
  if (!answer) return answer.error();
  return read_job(*answer, address_.url);
}

Result<std::string> DashboardClient::spec(const std::string& application_id) const {
  long status = 0;
  auto answer = call("GET", "jobs/" + application_id + "/spec", {}, &status);
  // Jobs submitted elsewhere have no spec there; that is no failure.
  if (!answer) return status == 404 ? Result<std::string>(std::string()) : Result<std::string>(answer.error());
  return read_spec(*answer, address_.url);
}

Result<RemotePoints> DashboardClient::metrics(const std::string& application_id, std::uint64_t after) const {
  auto answer = call("GET", "jobs/" + application_id + "/metrics?after=" + std::to_string(after));
  if (!answer) return answer.error();
  return read_points(*answer, address_.url);
}

Result<RemoteLog> DashboardClient::log(const std::string& application_id, const std::string& task,
                                       const std::string& file) const {
  auto answer = call("GET", "jobs/" + application_id + "/logs?task=" + yarn::http::escape(task) +
                                "&file=" + yarn::http::escape(file) + "&offset=0");
  if (!answer) return answer.error();
  return read_log(*answer, address_.url);
}

Result<void> DashboardClient::kill(const std::string& application_id) const {
  auto answer = call("POST", "jobs/" + application_id + "/kill");
  if (!answer) return answer.error();
  return {};
}

Result<std::string, SubmitError> DashboardClient::submit(const std::string& spec_yaml,
                                                         const std::vector<FileToSend>& files) const {
  long status = 0;
  Result<std::string> answer = std::string();
  if (files.empty()) {
    answer = call("POST", "submit", spec_yaml, &status);
  } else {
    nlohmann::json envelope{{"spec", spec_yaml}, {"files", nlohmann::json::array()}};
    for (const auto& file : files) {
      envelope["files"].push_back({{"name", file.name}, {"content", base64_encode(file.bytes)}});
    }
    answer = call("POST", "submit", envelope.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), &status,
                  "application/json");
  }
  if (!answer) {
    return SubmitError{status == 400 ? SubmitError::Kind::bad_input : SubmitError::Kind::cluster,
                       answer.error().message};
  }
  auto id = read_submitted(*answer, address_.url);
  if (!id) return SubmitError{SubmitError::Kind::cluster, id.error().message};
  return *id;
}

}  // namespace spindle::client

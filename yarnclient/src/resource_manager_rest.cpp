#include "spindle/yarn/resource_manager_rest.h"

#include <algorithm>
#include <charconv>

#include "spindle/yarn/cluster_identity.h"

#include "spindle/yarn/http_client.h"
#include "spindle/yarn/token_service.h"
#include "spindle/yarn/token_url_string.h"

namespace spindle::yarn {

ResourceManagerRest::ResourceManagerRest(Options options)
    : options_(std::move(options)),
      cookies_(std::make_shared<http::AuthCookies>()),
      active_(std::make_shared<std::atomic<std::size_t>>(0)) {}

ResourceManagerRest ResourceManagerRest::from_configuration(const HadoopConfiguration& configuration) {
  Options options;
  options.https = https_only(configuration, WebService::yarn);
  options.web_addresses =
      configuration.resource_manager_addresses(options.https ? RmService::webapp_https : RmService::webapp);
  if (options.https) {
    auto trust = web_trust(configuration);
    if (trust) {
      options.trust = std::move(*trust);
    } else {
      options.configuration_problem = trust.error().message;
    }
  }
  options.user = hadoop_user_name();
  options.kerberos = uses_kerberos(configuration);
  // Should the keytab login fail, the requests are refused and say so.
  (void)use_configured_keytab(configuration);
  options.connect_timeout = std::chrono::milliseconds(configuration.get_int("ipc.client.connect.timeout", 20'000));
  return ResourceManagerRest(std::move(options));
}

Result<http::Request> ResourceManagerRest::new_request(const std::string& authority_and_path) const {
  if (!options_.configuration_problem.empty()) return make_error(options_.configuration_problem);
  http::Request request;
  request.url = with_user((options_.https ? "https://" : "http://") + authority_and_path);
  request.trust = options_.trust.get();
  request.negotiate = true;
  request.cookies = cookies_.get();
  request.connect_timeout = options_.connect_timeout;
  request.timeout = options_.timeout;
  return request;
}

// Under Kerberos the servers know who we are from SPNEGO; user.name would
// only be checked against it.
std::string ResourceManagerRest::with_user(const std::string& url) const {
  if (options_.kerberos) return url;
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "user.name=" + http::escape(options_.user);
}

Result<nlohmann::json> ResourceManagerRest::get(const std::string& path) {
  return exchange("GET", path, "");
}

Result<nlohmann::json> ResourceManagerRest::exchange_at(const std::string& address, const std::string& method,
                                                        const std::string& path, const std::string& body,
                                                        bool& unreachable, std::string& problem) {
  unreachable = false;
  auto made = new_request(address + path);
  if (!made) return made.error();
  auto& request = *made;
  request.method = method;
  request.headers.emplace_back("Accept", "application/json");
  if (!body.empty()) {
    request.body = body;
    request.headers.emplace_back("Content-Type", "application/json");
  }
  request.follow_redirects = true;  // a standby ResourceManager may redirect to the active one
  auto response = http::perform(request);
  if (!response) {
    if (response.error().kind == Error::Kind::authentication) return response.error();
    unreachable = true;
    problem = response.error().message;
    return response.error();
  }
  if (response->status >= 300) {
    auto refusal = nlohmann::json::parse(response->body, nullptr, false);
    std::string message = "HTTP " + std::to_string(response->status);
    std::string exception_class;
    if (refusal.is_object() && refusal.contains("RemoteException") && refusal["RemoteException"].is_object()) {
      const auto& exception = refusal["RemoteException"];
      if (exception.contains("message") && exception["message"].is_string()) {
        message = exception["message"].get<std::string>();
      }
      if (exception.contains("exception") && exception["exception"].is_string()) {
        exception_class = exception["exception"].get<std::string>();
        exception_class.erase(0, exception_class.rfind('.') + 1);
      }
    }
    Error error = make_error("the ResourceManager at " + address + " answered " + path + " with " + message);
    error.remote_exception = std::move(exception_class);
    if (response->status == 401) error.kind = Error::Kind::authentication;
    if (response->status == 404) error.kind = Error::Kind::not_found;
    return error;
  }
  auto parsed = nlohmann::json::parse(response->body, nullptr, false);
  if (parsed.is_discarded()) {
    return make_error("the ResourceManager at " + address + " answered " + path + " with something not JSON");
  }
  return parsed;
}

std::vector<std::string> ResourceManagerRest::active_first() {
  auto addresses = options_.web_addresses;
  if (addresses.size() < 2) return addresses;
  const std::size_t last = active_->load() % addresses.size();
  for (std::size_t tried = 0; tried < addresses.size(); ++tried) {
    const std::size_t index = (last + tried) % addresses.size();
    auto info = cluster_info_at(addresses[index]);
    // Whatever the answer holds: only a string "ACTIVE" where Hadoop puts it counts.
    const auto active = [](const nlohmann::json& answer) {
      const auto cluster = answer.find("clusterInfo");
      if (cluster == answer.end() || !cluster->is_object()) return false;
      const auto state = cluster->find("haState");
      return state != cluster->end() && state->is_string() && state->get<std::string>() == "ACTIVE";
    };
    if (info && active(*info)) {
      active_->store(index);
      std::rotate(addresses.begin(), addresses.begin() + static_cast<std::ptrdiff_t>(index), addresses.end());
      return addresses;
    }
  }
  return addresses;  // none says it is active (failing over): each in turn
}

Result<nlohmann::json> ResourceManagerRest::cluster_info_at(const std::string& web_address) {
  bool unreachable = false;
  std::string problem;
  return exchange_at(web_address, "GET", "/ws/v1/cluster/info", "", unreachable, problem);
}

Result<nlohmann::json> ResourceManagerRest::exchange(const std::string& method, const std::string& path,
                                                     const std::string& body) {
  std::string problems;
  for (const auto& address : active_first()) {
    bool unreachable = false;
    std::string problem;
    auto answer = exchange_at(address, method, path, body, unreachable, problem);
    if (unreachable) {
      problems += (problems.empty() ? "" : "; ") + problem;
      continue;
    }
    return answer;
  }
  return make_error("cannot reach the ResourceManager's web server (" + problems +
                    "); check yarn.resourcemanager.webapp.address in yarn-site.xml");
}

Result<nlohmann::json> ResourceManagerRest::cluster_info() {
  return get("/ws/v1/cluster/info");
}

Result<nlohmann::json> ResourceManagerRest::applications(const std::string& type) {
  return get("/ws/v1/cluster/apps" + (type.empty() ? std::string() : "?applicationTypes=" + http::escape(type)));
}

Result<nlohmann::json> ResourceManagerRest::application(const std::string& application_id) {
  return get("/ws/v1/cluster/apps/" + http::escape(application_id));
}

Result<nlohmann::json> ResourceManagerRest::attempts(const std::string& application_id) {
  return get("/ws/v1/cluster/apps/" + http::escape(application_id) + "/appattempts");
}

Result<nlohmann::json> ResourceManagerRest::containers(const std::string& application_id,
                                                       const std::string& attempt_id) {
  return get("/ws/v1/cluster/apps/" + http::escape(application_id) + "/appattempts/" + http::escape(attempt_id) +
             "/containers");
}

Result<nlohmann::json> ResourceManagerRest::nodes() {
  return get("/ws/v1/cluster/nodes");
}
Result<nlohmann::json> ResourceManagerRest::scheduler() {
  return get("/ws/v1/cluster/scheduler");
}
Result<nlohmann::json> ResourceManagerRest::node_labels() {
  return get("/ws/v1/cluster/get-node-labels");
}

Result<Token> ResourceManagerRest::delegation_token(const std::string& renewer) {
  auto answer = exchange("POST", "/ws/v1/cluster/delegation-token", nlohmann::json{{"renewer", renewer}}.dump());
  if (!answer) return answer.error();
  const auto token = answer->find("token");
  if (token == answer->end() || !token->is_string()) {
    return make_error(
        "the ResourceManager's answer to a delegation token request holds no token; is Kerberos enabled on its web "
        "server (hadoop.http.authentication.type)?");
  }
  return decode_token_url_string(token->get<std::string>());
}

Result<HadoopConfiguration> ResourceManagerRest::server_configuration() {
  std::string problems;
  for (const auto& address : active_first()) {
    auto made = new_request(address + "/conf");
    if (!made) return made.error();
    made->headers.emplace_back("Accept", "application/xml");
    made->follow_redirects = true;
    auto response = http::perform(*made);
    if (response && response->status == 200) {
      HadoopConfiguration configuration;
      if (auto read = configuration.add_xml(response->body, "the ResourceManager's /conf at " + address); !read) {
        return read.error();
      }
      return configuration;
    }
    if (!response && response.error().kind == Error::Kind::authentication) return response.error();
    problems += std::string(problems.empty() ? "" : "; ") + address + ": " +
                (response ? "HTTP " + std::to_string(response->status) : response.error().message);
  }
  return make_error("no ResourceManager showed its configuration (" + problems + ")");
}

Result<std::string> ResourceManagerRest::container_log(const std::string& node_http_address,
                                                       const std::string& container_id, const std::string& file,
                                                       std::size_t limit) {
  auto made = new_request(node_http_address + "/ws/v1/node/containerlogs/" + http::escape(container_id) + "/" +
                          http::escape(file));
  if (!made) return made.error();
  auto& request = *made;
  std::string text;
  request.write = [&](std::string_view chunk) {
    if (text.size() + chunk.size() > limit) return false;
    text.append(chunk);
    return true;
  };
  auto response = http::perform(request);
  if (!response) return response.error();
  if (response->status == 401 || response->status == 403) {
    return authentication_error("the NodeManager at " + node_http_address + " refused to show " + file + " of " +
                                container_id + " (HTTP " + std::to_string(response->status) +
                                "); only the job's owner and YARN administrators may read its logs");
  }
  if (response->status == 404) {
    // The application has left the node (its logs were aggregated or removed), or the file never existed.
    return not_found_error("the NodeManager at " + node_http_address + " no longer has " + file + " of " +
                           container_id);
  }
  if (response->status != 200) {
    return make_error("the NodeManager at " + node_http_address + " has no " + file + " for " + container_id +
                      " (HTTP " + std::to_string(response->status) + ")");
  }
  // Recent NodeManagers wrap the file in a header that gives its length, and
  // a trailer; keep exactly the file, even when it holds a trailer's words.
  constexpr std::string_view contents_start = "LogContents:\n";
  const auto start = text.find(contents_start);
  if (start == std::string::npos) return text;
  const auto begin = start + contents_start.size();
  constexpr std::string_view length_field = "LogLength:";
  const auto length_at = text.rfind(length_field, start);
  if (length_at != std::string::npos) {
    std::size_t length = 0;
    const char* first = text.data() + length_at + length_field.size();
    const auto [stop, error] = std::from_chars(first, text.data() + start, length);
    if (error == std::errc{} && begin + length <= text.size()) return text.substr(begin, length);
  }
  const auto end = text.find("\nEnd of LogType:", begin);
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

Result<std::vector<std::string>> ResourceManagerRest::container_log_files(const std::string& node_http_address,
                                                                          const std::string& container_id) {
  auto made = new_request(node_http_address + "/ws/v1/node/containers/" + http::escape(container_id) + "/logs");
  if (!made) return made.error();
  auto& request = *made;
  request.headers.emplace_back("Accept", "application/json");
  std::string body;
  request.write = [&](std::string_view chunk) {
    if (body.size() + chunk.size() > 4 * 1024 * 1024) return false;
    body.append(chunk);
    return true;
  };
  auto response = http::perform(request);
  if (!response) return response.error();
  // Once the application has left the node, NodeManagers answer 404 or 500 here.
  if (response->status == 404 || response->status == 500) {
    return not_found_error("the NodeManager at " + node_http_address + " no longer lists the logs of " + container_id);
  }
  if (response->status != 200) {
    return make_error("the NodeManager at " + node_http_address + " did not list the logs of " + container_id +
                      " (HTTP " + std::to_string(response->status) + ")");
  }
  auto parsed = nlohmann::json::parse(body, nullptr, false);
  std::vector<std::string> files;
  // One entry per place the logs are (LOCAL, AGGREGATED); a single one may come unwrapped.
  std::vector<const nlohmann::json*> places;
  if (parsed.is_array()) {
    for (const auto& place : parsed) places.push_back(&place);
  } else if (parsed.is_object() && parsed.contains("containerLogsInfo")) {
    const auto& inner = parsed["containerLogsInfo"];
    if (inner.is_array()) {
      for (const auto& place : inner) places.push_back(&place);
    } else {
      places.push_back(&inner);
    }
  } else if (parsed.is_object()) {
    places.push_back(&parsed);
  } else {
    return make_error("the NodeManager at " + node_http_address + " listed the logs of " + container_id +
                      " in something not JSON");
  }
  for (const auto* place : places) {
    if (!place->is_object()) continue;
    const auto kind = place->find("logAggregationType");
    if (kind != place->end() && !(kind->is_string() && kind->get<std::string>() == "LOCAL")) continue;
    const auto info = place->find("containerLogInfo");
    if (info == place->end()) continue;
    auto add = [&](const nlohmann::json& entry) {
      if (entry.is_object() && entry.contains("fileName") && entry["fileName"].is_string()) {
        files.push_back(entry["fileName"].get<std::string>());
      }
    };
    if (info->is_array()) {
      for (const auto& entry : *info) add(entry);
    } else {
      add(*info);
    }
  }
  return files;
}

}  // namespace spindle::yarn

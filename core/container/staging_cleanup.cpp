#include "container/staging_cleanup.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <filesystem>

#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/token_service.h"
#include "spindle/yarn/token_url_string.h"
#include "src/net/asio_endpoints.h"

namespace spindle::container {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

// host and port of an http:// location.
std::pair<std::string, std::string> host_and_port(const std::string& location) {
  const auto rest = location.substr(std::string_view("http://").size());
  const auto authority = rest.substr(0, rest.find('/'));
  const auto colon = authority.rfind(':');
  return {authority.substr(0, colon), colon == std::string::npos ? "80" : authority.substr(colon + 1)};
}

std::string resolved_address(const std::string& host) {
  auto found = resolve_host(host, 0, AddressFamily::ipv4);
  return found ? found->front().numeric() : host;
}

// `elsewhere` says whether another NameNode of the same nameservice might do it.
Result<void> remove_over_webhdfs(const std::string& location, const std::optional<yarn::Token>& delegation,
                                 bool& elsewhere) {
  elsewhere = false;
  // http://host:port/path?query
  const auto rest = location.substr(std::string_view("http://").size());
  const auto slash = rest.find('/');
  if (slash == std::string::npos) return make_error("the staging location " + location + " has no path");
  const auto authority = rest.substr(0, slash);
  const auto colon = authority.rfind(':');
  const auto host = authority.substr(0, colon);
  const auto port = colon == std::string::npos ? "80" : authority.substr(colon + 1);
  const auto path_and_query = rest.substr(slash);
  const auto target =
      delegation ? path_and_query.substr(0, path_and_query.find('?')) +
                       "?op=DELETE&recursive=true&delegation=" + yarn::encode_token_url_string(*delegation)
                 : path_and_query + (rest.find('?') == std::string::npos ? "?" : "&") + "op=DELETE&recursive=true";
  try {
    net::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(30));
    auto addresses = resolve_host(host, static_cast<std::uint16_t>(std::stoi(port)));
    if (!addresses) return addresses.error();
    stream.connect(endpoints_of(*addresses));
    http::request<http::empty_body> request{http::verb::delete_, target, 11};
    request.set(http::field::host, authority);
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    if (response.result_int() != 200) {
      if (response.body().find("StandbyException") != std::string::npos) {
        elsewhere = true;
        return make_error("the NameNode at " + authority + " is standby");
      }
      return make_error("WebHDFS at " + authority + " refused to remove the staging directory: HTTP " +
                        std::to_string(response.result_int()) + " " +
                        yarn::redact_token_parameters(response.body().substr(0, 300)));
    }
  } catch (const std::exception& e) {
    elsewhere = true;
    return make_error("cannot remove the staging directory through WebHDFS at " + authority + ": " + e.what());
  }
  return {};
}

// The HTTP host:port of each NameNode of an HA nameservice, as
// hdfs-site.xml gives them (WebHdfs reads them the same way; the container
// binary links no HTTP client library, so it does not use WebHdfs).
std::vector<std::string> nameservice_http_addresses(const yarn::HadoopConfiguration& configuration,
                                                    const std::string& nameservice) {
  std::vector<std::string> addresses;
  for (const auto& id : configuration.get_list("dfs.ha.namenodes." + nameservice)) {
    if (auto http = configuration.get("dfs.namenode.http-address." + nameservice + "." + id)) {
      addresses.push_back(*http);
    }
  }
  return addresses;
}

// The location names the NameNode that was active at submission; after an
// HA failover it is standby (or gone), and the other NameNodes of its
// nameservice, as the container's HADOOP_CONF_DIR lists them, are tried.
Result<void> remove_over_ha_webhdfs(const std::string& location, const std::optional<yarn::Token>& delegation) {
  bool elsewhere = false;
  auto removed = remove_over_webhdfs(location, delegation, elsewhere);
  if (removed || !elsewhere) return removed;
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) return removed;
  const auto rest = location.substr(std::string_view("http://").size());
  const auto authority = rest.substr(0, rest.find('/'));
  for (const auto& nameservice : configuration->get_list("dfs.nameservices")) {
    const auto namenodes = nameservice_http_addresses(*configuration, nameservice);
    if (std::find(namenodes.begin(), namenodes.end(), authority) == namenodes.end()) continue;
    for (const auto& other : namenodes) {
      if (other == authority) continue;
      auto again = remove_over_webhdfs("http://" + other + rest.substr(authority.size()), delegation, elsewhere);
      if (again) return again;
    }
  }
  return removed;
}

}  // namespace

std::optional<yarn::Token> staging_token(const std::map<std::string, yarn::Token>& tokens,
                                         const std::string& location) {
  if (!location.starts_with("http://")) return std::nullopt;
  const auto address = resolved_address(host_and_port(location).first);
  const yarn::Token* only = nullptr;
  int hdfs_tokens = 0;
  for (const auto& [alias, token] : tokens) {
    if (token.kind != yarn::hdfs_delegation_kind) continue;
    if (token.service.substr(0, token.service.rfind(':')) == address) return token;
    only = &token;
    ++hdfs_tokens;
  }
  if (hdfs_tokens == 1) return *only;
  return std::nullopt;
}

Result<void> remove_staging(const std::string& location, const std::optional<yarn::Token>& delegation) {
  if (location.empty()) return {};
  if (location.starts_with("file://")) {
    std::error_code ec;
    std::filesystem::remove_all(location.substr(std::string_view("file://").size()), ec);
    if (ec) return make_error("cannot remove the staging directory " + location + ": " + ec.message());
    return {};
  }
  if (location.starts_with("http://")) return remove_over_ha_webhdfs(location, delegation);
  return make_error("the staging location \"" + location + "\" is neither file:// nor a WebHDFS http:// URL");
}

}  // namespace spindle::container

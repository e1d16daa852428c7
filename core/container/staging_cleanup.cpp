#include "container/staging_cleanup.h"

#include <boost/asio.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <algorithm>
#include <filesystem>

#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/token_service.h"
#include "spindle/yarn/token_url_string.h"
#include "spindle/yarn/web_tls.h"
#include "src/net/asio_endpoints.h"

namespace spindle::container {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace ssl = boost::asio::ssl;

bool is_https(const std::string& location) {
  return location.starts_with("https://");
}

// What follows "http://" or "https://".
std::string after_scheme(const std::string& location) {
  return location.substr(location.find("://") + 3);
}

// host and port of a WebHDFS location.
std::pair<std::string, std::string> host_and_port(const std::string& location) {
  const auto rest = after_scheme(location);
  const auto authority = rest.substr(0, rest.find('/'));
  const auto colon = authority.rfind(':');
  return {authority.substr(0, colon),
          colon == std::string::npos ? (is_https(location) ? "443" : "80") : authority.substr(colon + 1)};
}

// One request and its answer over a connected socket, in clear or TLS.
template <typename Stream>
http::response<http::string_body> exchange(Stream& stream, http::request<http::empty_body>& request) {
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  return response;
}

// TLS to a NameNode of an HTTPS-only cluster, trusting what the node's
// ssl-client.xml names and checking the server's name.
http::response<http::string_body> exchange_over_tls(beast::tcp_stream& tcp, const std::string& host,
                                                    http::request<http::empty_body>& request) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) throw std::runtime_error(configuration.error().message);
  auto trust = yarn::web_trust(*configuration);
  if (!trust) throw std::runtime_error(trust.error().message);
  ssl::context context(ssl::context::tls_client);
  context.set_verify_mode(ssl::verify_peer);
  if ((*trust)->ca_pem.empty()) {
    context.set_default_verify_paths();
  } else {
    context.add_certificate_authority(net::buffer((*trust)->ca_pem));
  }
  beast::ssl_stream<beast::tcp_stream&> stream(tcp, context);
  SSL_set_tlsext_host_name(stream.native_handle(), host.c_str());
  stream.set_verify_callback(ssl::host_name_verification(host));
  stream.handshake(ssl::stream_base::client);
  auto response = exchange(stream, request);
  beast::error_code ignored;
  stream.shutdown(ignored);
  return response;
}

std::string resolved_address(const std::string& host) {
  auto found = resolve_host(host, 0, AddressFamily::ipv4);
  return found ? found->front().numeric() : host;
}

// `elsewhere` says whether another NameNode of the same nameservice might do it.
Result<void> remove_over_webhdfs(const std::string& location, const std::optional<yarn::Token>& delegation,
                                 bool& elsewhere) {
  elsewhere = false;
  // http(s)://host:port/path?query
  const auto rest = after_scheme(location);
  const auto slash = rest.find('/');
  if (slash == std::string::npos) return make_error("the staging location " + location + " has no path");
  const auto authority = rest.substr(0, slash);
  const auto colon = authority.rfind(':');
  const auto host = authority.substr(0, colon);
  const auto port = colon == std::string::npos ? (is_https(location) ? "443" : "80") : authority.substr(colon + 1);
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
    const auto response = is_https(location) ? exchange_over_tls(stream, host, request) : exchange(stream, request);
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

// The web host:port of each NameNode of an HA nameservice, as
// hdfs-site.xml gives them (WebHdfs reads them the same way; the container
// binary links no HTTP client library, so it does not use WebHdfs).
std::vector<std::string> nameservice_http_addresses(const yarn::HadoopConfiguration& configuration,
                                                    const std::string& nameservice, bool https) {
  std::vector<std::string> addresses;
  const std::string key = https ? "dfs.namenode.https-address." : "dfs.namenode.http-address.";
  for (const auto& id : configuration.get_list("dfs.ha.namenodes." + nameservice)) {
    if (auto http = configuration.get(key + nameservice + "." + id)) {
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
  const auto scheme = location.substr(0, location.find("://") + 3);
  const auto rest = after_scheme(location);
  const auto authority = rest.substr(0, rest.find('/'));
  for (const auto& nameservice : configuration->get_list("dfs.nameservices")) {
    const auto namenodes = nameservice_http_addresses(*configuration, nameservice, is_https(location));
    if (std::find(namenodes.begin(), namenodes.end(), authority) == namenodes.end()) continue;
    for (const auto& other : namenodes) {
      if (other == authority) continue;
      auto again = remove_over_webhdfs(scheme + other + rest.substr(authority.size()), delegation, elsewhere);
      if (again) return again;
    }
  }
  return removed;
}

}  // namespace

std::optional<yarn::Token> staging_token(const std::map<std::string, yarn::Token>& tokens,
                                         const std::string& location) {
  if (!location.starts_with("http://") && !is_https(location)) return std::nullopt;
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
  if (location.starts_with("http://") || is_https(location)) return remove_over_ha_webhdfs(location, delegation);
  return make_error("the staging location \"" + location + "\" is neither file:// nor a WebHDFS http(s):// URL");
}

}  // namespace spindle::container

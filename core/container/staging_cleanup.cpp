#include "container/staging_cleanup.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <filesystem>

namespace spindle::container {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

Result<void> remove_over_webhdfs(const std::string& location) {
  // http://host:port/path?query
  const auto rest = location.substr(std::string_view("http://").size());
  const auto slash = rest.find('/');
  if (slash == std::string::npos) return make_error("the staging location " + location + " has no path");
  const auto authority = rest.substr(0, slash);
  const auto colon = authority.rfind(':');
  const auto host = authority.substr(0, colon);
  const auto port = colon == std::string::npos ? "80" : authority.substr(colon + 1);
  const auto target =
      rest.substr(slash) + (rest.find('?') == std::string::npos ? "?" : "&") + "op=DELETE&recursive=true";
  try {
    net::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(30));
    stream.connect(net::ip::tcp::resolver(io).resolve(host, port));
    http::request<http::empty_body> request{http::verb::delete_, target, 11};
    request.set(http::field::host, authority);
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    if (response.result_int() != 200) {
      return make_error("WebHDFS at " + authority + " refused to remove the staging directory: HTTP " +
                        std::to_string(response.result_int()) + " " + response.body().substr(0, 300));
    }
  } catch (const std::exception& e) {
    return make_error("cannot remove the staging directory through WebHDFS at " + authority + ": " + e.what());
  }
  return {};
}

}  // namespace

Result<void> remove_staging(const std::string& location) {
  if (location.empty()) return {};
  if (location.starts_with("file://")) {
    std::error_code ec;
    std::filesystem::remove_all(location.substr(std::string_view("file://").size()), ec);
    if (ec) return make_error("cannot remove the staging directory " + location + ": " + ec.message());
    return {};
  }
  if (location.starts_with("http://")) return remove_over_webhdfs(location);
  return make_error("the staging location \"" + location + "\" is neither file:// nor a WebHDFS http:// URL");
}

}  // namespace spindle::container

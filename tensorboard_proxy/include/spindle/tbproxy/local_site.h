#pragma once

#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <functional>
#include <string>

namespace spindle::tbproxy {

// A request the proxy does not forward to a TensorBoard (its target is not
// under /tb/), whole, after the proxy's screen let it through.
struct SiteRequest {
  boost::beast::http::verb method = boost::beast::http::verb::get;
  std::string target;
  boost::beast::http::fields fields;
  std::string body;
  std::string client_address;
  unsigned version = 11;
};

using SiteResponse = boost::beast::http::response<boost::beast::http::string_body>;

// Called exactly once per request, from any thread, at any later time (a
// long poll answers when something changed).
using SiteResponder = std::function<void(SiteResponse)>;

// What serves the targets outside /tb/ on the proxy's port: the dashboard of
// `spindle serve`. Without one the proxy answers them 404.
class LocalSite {
 public:
  virtual ~LocalSite() = default;
  // Must not block: work that waits goes elsewhere and answers through `respond`.
  virtual void handle(SiteRequest request, SiteResponder respond) = 0;
};

}  // namespace spindle::tbproxy

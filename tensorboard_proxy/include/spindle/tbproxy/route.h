#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace spindle::tbproxy {

// Whether text is a YARN application id: application_<cluster start>_<sequence>.
bool is_application_id(std::string_view text);

// A request for one job's TensorBoard.
struct ProxyRoute {
  std::string application_id;
  std::string upstream_target;  // path and query as TensorBoard sees them
};

// Maps "/tb/<application id>/<rest>" to the job and "/<rest>". Anything else,
// including absolute-form targets naming another host, is no route: the proxy
// never forwards to an address the request chose.
std::optional<ProxyRoute> route_request_target(std::string_view target);

// Rewrites an upstream Location header so redirects stay under the job's
// prefix: "/x" and "http://<upstream authority>/x" become "/tb/<id>/x";
// locations elsewhere pass unchanged.
std::string rewrite_location(std::string_view location, std::string_view application_id,
                             std::string_view upstream_authority);

}  // namespace spindle::tbproxy

#pragma once

#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/verb.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace spindle::serve {

enum class Endpoint {
  session,
  jobs,
  job,
  job_spec,
  job_metrics,
  job_logs,
  job_kill,
  updates,
  cluster,
  validate,
  submit,
  sweeps,
  sweep,
  sweep_kill,
  trial_stop,
  trial_kill
};

// One call of the versioned API, its parts decoded.
struct ApiCall {
  Endpoint endpoint = Endpoint::session;
  std::string application_id;                // for the job's and the sweep's endpoints
  int trial = -1;                            // for a trial's
  std::map<std::string, std::string> query;  // percent-decoded
};

// Why a request gets no call, as one sentence.
struct ApiRefusal {
  int status = 404;
  std::string sentence;
  std::string allow;  // for 405
};

// Maps "/api/v1/..." with its method to a call. Unknown paths, other
// versions, wrong methods and unreadable queries are refused.
std::variant<ApiCall, ApiRefusal> route_api(boost::beast::http::verb method, std::string_view target);

// Cross-site request protection for everything that changes something: a
// POST must carry "X-Spindle-Request: 1" (which a form of another site
// cannot send, and a script of another site cannot send without a CORS
// permission this server never gives), and an Origin or Sec-Fetch-Site, when
// the browser sends one, must say the request comes from this very site.
std::optional<ApiRefusal> refuse_cross_site(boost::beast::http::verb method, const boost::beast::http::fields& fields);

// "a%20b+c" -> "a b c"; nothing when an escape is broken.
std::optional<std::string> percent_decode(std::string_view text);

}  // namespace spindle::serve

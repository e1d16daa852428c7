// The dashboard's reading of a request: whatever bytes arrive, the head is
// screened (token, framing), refused or routed to one API call with decoded
// parameters, and nothing that changes state passes without the proof that
// it comes from the dashboard's own page. A submit's body is read as the
// server reads it: the spec, or the JSON that carries the spec's files.

#include <boost/beast/http.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <variant>

#include "api_route.h"
#include "spindle/tbproxy/request_screen.h"
#include "spindle/tbproxy/route.h"
#include "submit_request.h"

namespace {

namespace http = boost::beast::http;

void require(bool condition) {
  if (!condition) std::abort();
}

bool is_change(spindle::serve::Endpoint endpoint) {
  using spindle::serve::Endpoint;
  return endpoint == Endpoint::job_kill || endpoint == Endpoint::validate || endpoint == Endpoint::submit;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  http::request_parser<http::string_body> parser;
  parser.header_limit(16 * 1024);
  parser.body_limit(64 * 1024);
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(bytes.data(), bytes.size()), ec);
  if (!parser.is_header_done()) return 0;
  const auto& head = parser.get();
  spindle::tbproxy::ScreenPolicy policy;
  policy.access_token = "t0ken";
  policy.loopback_hosts_only = false;
  policy.has_site = true;
  const auto verdict = spindle::tbproxy::screen_request(head, policy);
  if (!std::holds_alternative<spindle::tbproxy::ToSite>(verdict)) return 0;
  const std::string_view target(head.target().data(), head.target().size());
  if (!target.starts_with("/api/")) return 0;
  const auto cross_site = spindle::serve::refuse_cross_site(head.method(), head);
  auto routed = spindle::serve::route_api(head.method(), target);
  if (const auto* refusal = std::get_if<spindle::serve::ApiRefusal>(&routed)) {
    require(!refusal->sentence.empty());
    require(refusal->status >= 400 && refusal->status < 500);
    return 0;
  }
  const auto& call = std::get<spindle::serve::ApiCall>(routed);
  if (!call.application_id.empty()) require(spindle::tbproxy::is_application_id(call.application_id));
  if (is_change(call.endpoint)) {
    require(head.method() == http::verb::post);
    // What gets through the cross-site check carries the dashboard's own header.
    if (!cross_site) require(head["X-Spindle-Request"] == "1");
  } else {
    require(head.method() == http::verb::get || head.method() == http::verb::head);
  }
  for (const auto& [key, value] : call.query) {
    // Decoding never grows a text.
    require(key.size() <= target.size() && value.size() <= target.size());
  }
  if (call.endpoint == spindle::serve::Endpoint::submit) {
    const auto type = head[http::field::content_type];
    const auto read = spindle::serve::read_submit_request(head.body(), std::string_view(type.data(), type.size()));
    if (const auto* refusal = std::get_if<spindle::serve::ApiRefusal>(&read)) {
      require(refusal->status == 400 && !refusal->sentence.empty());
    } else {
      std::size_t carried = 0;
      const auto& request = std::get<spindle::serve::SubmitRequest>(read);
      for (const auto& upload : request.uploads) carried += upload.bytes.size() + upload.name.size();
      if (request.keytab) {
        require(!request.keytab->principal.empty() && !request.keytab->bytes.empty() &&
                request.keytab->bytes.size() <= spindle::serve::max_keytab_bytes);
        carried += request.keytab->bytes.size() + request.keytab->principal.size();
      }
      // Base64 only ever shrinks what it carries.
      require(carried <= head.body().size());
    }
  }
  return 0;
}

// Any request target: a route only for /tb/<application id>/..., and a
// rewritten Location that never leaves the job's prefix for an upstream path.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "spindle/tbproxy/route.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view target(reinterpret_cast<const char*>(data), size);
  if (auto route = spindle::tbproxy::route_request_target(target)) {
    if (!target.starts_with("/tb/application_")) std::abort();
    if (!spindle::tbproxy::is_application_id(route->application_id)) std::abort();
    if (route->upstream_target.empty() || route->upstream_target.front() != '/') std::abort();
  }
  const std::string location = spindle::tbproxy::rewrite_location(target, "application_1_0001", "h:6006");
  if (target.starts_with("/") && !target.starts_with("//") && !location.starts_with("/tb/application_1_0001/")) {
    std::abort();
  }
  return 0;
}

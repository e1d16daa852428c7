#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "api_route.h"
#include "spindle/serve/cluster_access.h"

namespace spindle::serve {

// What POST /api/v1/submit carries: the spec as YAML (text/plain), or, from
// a client on another machine, {"spec": "<yaml>", "files": [{"name",
// "content" (base64)}], "keytab": {"principal", "content" (base64)}}
// (application/json) with the local files the spec names, which the server
// could not read itself, and the keytab of a job that outlives its tokens.
struct SubmitRequest {
  std::string spec_text;
  std::vector<UploadedFile> uploads;
  std::optional<UploadedKeytab> keytab;
};

// A keytab holds a few keys; anything larger is not one.
inline constexpr std::size_t max_keytab_bytes = 64 * 1024;

std::variant<SubmitRequest, ApiRefusal> read_submit_request(std::string body, std::string_view content_type);

}  // namespace spindle::serve

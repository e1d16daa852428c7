#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"

namespace spindle::yarn::http {

struct Request {
  std::string method = "GET";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  // A body held in memory, or one read in pieces (`read` fills up to `size`
  // bytes and returns how many; 0 ends it) of `body_size` bytes.
  std::optional<std::string> body;
  std::function<std::size_t(char* buffer, std::size_t size)> read;
  std::int64_t body_size = -1;
  // Where the response body goes; return false to stop. Unset: kept in memory.
  std::function<bool(std::string_view chunk)> write;
  std::function<void(std::int64_t done, std::int64_t total)> progress;
  std::chrono::milliseconds connect_timeout{20'000};
  std::chrono::milliseconds timeout{0};  // whole transfer; 0: none
  bool follow_redirects = false;
};

struct Response {
  long status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;                            // when the request had no `write`

  std::string header(const std::string& name) const {
    auto found = headers.find(name);
    return found == headers.end() ? std::string() : found->second;
  }
};

// One HTTP exchange through libcurl. A transport failure (refused, timed
// out, reset) is an error naming the URL; any HTTP status is a response.
Result<Response> perform(const Request& request);

// "a b/c" -> "a%20b%2Fc"
std::string escape(std::string_view text);

}  // namespace spindle::yarn::http

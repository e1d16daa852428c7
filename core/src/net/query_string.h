#pragma once

#include <algorithm>
#include <optional>
#include <string_view>

namespace spindle {

// The value of `key` in a URL's query ("a=1&key=value"), as written (no
// percent-decoding: our keys and values need none); nothing when absent.
inline std::optional<std::string_view> query_value(std::string_view query, std::string_view key) {
  std::size_t start = 0;
  while (start < query.size()) {
    const auto end = std::min(query.find('&', start), query.size());
    const auto pair = query.substr(start, end - start);
    if (pair.size() > key.size() && pair.starts_with(key) && pair[key.size()] == '=') {
      return pair.substr(key.size() + 1);
    }
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace spindle

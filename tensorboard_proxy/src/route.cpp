#include "spindle/tbproxy/route.h"

#include <algorithm>
#include <cctype>

namespace spindle::tbproxy {
namespace {

constexpr std::string_view prefix = "/tb/";

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

bool is_application_id(std::string_view text) {
  constexpr std::string_view head = "application_";
  if (!text.starts_with(head)) return false;
  text.remove_prefix(head.size());
  const auto underscore = text.find('_');
  if (underscore == std::string_view::npos) return false;
  const auto cluster = text.substr(0, underscore);
  const auto sequence = text.substr(underscore + 1);
  // YARN pads the sequence to at least four digits.
  return all_digits(cluster) && cluster.size() <= 20 && all_digits(sequence) && sequence.size() >= 4 &&
         sequence.size() <= 20;
}

std::optional<ProxyRoute> route_request_target(std::string_view target) {
  if (!target.starts_with(prefix)) return std::nullopt;
  target.remove_prefix(prefix.size());
  const auto end_of_id = target.find_first_of("/?");
  const auto id = target.substr(0, end_of_id);
  if (!is_application_id(id)) return std::nullopt;
  std::string rest = end_of_id == std::string_view::npos ? "/" : std::string(target.substr(end_of_id));
  if (rest.front() == '?') rest.insert(0, "/");
  return ProxyRoute{std::string(id), std::move(rest)};
}

std::string rewrite_location(std::string_view location, std::string_view application_id,
                             std::string_view upstream_authority) {
  const std::string job_prefix = std::string(prefix) + std::string(application_id);
  if (location.starts_with("/") && !location.starts_with("//")) return job_prefix + std::string(location);
  const std::string upstream = "http://" + std::string(upstream_authority);
  if (location.starts_with(upstream)) {
    auto rest = location.substr(upstream.size());
    if (rest.empty()) return job_prefix + "/";
    if (rest.front() == '/') return job_prefix + std::string(rest);
  }
  return std::string(location);
}

}  // namespace spindle::tbproxy

#include "yarn/scheduler_refusals.h"

#include <charconv>
#include <map>
#include <system_error>

namespace spindle::yarn {
namespace {

// Pulls "key=value" out of the ResourceManager's long refusals.
std::string field_after(const std::string& text, const std::string& key, const std::string& stop) {
  const auto start = text.find(key);
  if (start == std::string::npos) return {};
  const auto begin = start + key.size();
  return text.substr(begin, text.find(stop, begin) - begin);
}

// "<memory:1024, vCores:1, yarn.io/gpu: 3>" as amounts by resource name.
std::map<std::string, long long> amounts_in(const std::string& text) {
  std::map<std::string, long long> amounts;
  std::string_view rest(text);
  if (rest.starts_with('<')) rest.remove_prefix(1);
  if (rest.ends_with('>')) rest.remove_suffix(1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const auto colon = item.find(':');
    if (colon == std::string_view::npos) continue;
    auto name = item.substr(0, colon);
    while (name.starts_with(' ')) name.remove_prefix(1);
    auto number = item.substr(colon + 1);
    while (number.starts_with(' ')) number.remove_prefix(1);
    long long value = 0;
    if (std::from_chars(number.data(), number.data() + number.size(), value).ec == std::errc()) {
      amounts[std::string(name)] = value;
    }
  }
  return amounts;
}

}  // namespace

bool is_permanent_refusal(std::string_view exception_class, const std::string& text) {
  if (exception_class == "InvalidLabelResourceRequestException" || exception_class == "ResourceNotFoundException") {
    return true;
  }
  if (exception_class != "InvalidResourceRequestException") return false;
  const std::string configured_text = field_after(text, "configured maximum allocation=", ">");
  if (text.find("maximum allowed allocation") == std::string::npos || configured_text.empty()) return true;
  // Larger than the registered nodes allow: permanent only past what the cluster is configured to grant.
  const auto requested = amounts_in(field_after(text, "Requested resource=", ">"));
  const auto configured = amounts_in(configured_text);
  for (const auto& [name, amount] : requested) {
    const auto limit = configured.find(name);
    if (limit != configured.end() && amount > limit->second) return true;
  }
  return false;
}

std::string explain_refusal(std::string_view exception_class, const std::string& text, const std::string& queue) {
  if (exception_class == "InvalidLabelResourceRequestException") {
    std::string labels = field_after(text, "Queue labels=", "\n");
    while (!labels.empty() && (labels.back() == ' ' || labels.back() == '.')) labels.pop_back();
    return (queue.empty() ? std::string("this job's queue") : "queue " + queue) +
           " cannot place containers on node label \"" +
           field_after(text, "labelExpression of resource request=", ".") + "\" (it may use " +
           (labels.empty() ? std::string("no labels") : "only " + labels) +
           "); submit to a queue that can, or drop the label";
  }
  if (exception_class == "InvalidResourceRequestException" &&
      text.find("maximum allowed allocation") != std::string::npos) {
    return "the request " + field_after(text, "Requested resource=", ", maximum") +
           " is larger than the largest container the cluster grants (" +
           field_after(text, "maximum allowed allocation=", ", please") + "); ask for less";
  }
  return text;
}

}  // namespace spindle::yarn

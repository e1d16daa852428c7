#include "spindle/core/text.h"

namespace spindle {
namespace {

char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

char ascii_upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

}  // namespace

std::string_view trim(std::string_view text, std::string_view whitespace) {
  const auto first = text.find_first_not_of(whitespace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(whitespace) - first + 1);
}

std::string to_lower(std::string_view text) {
  std::string result(text);
  for (auto& c : result) c = ascii_lower(c);
  return result;
}

std::string to_upper(std::string_view text) {
  std::string result(text);
  for (auto& c : result) c = ascii_upper(c);
  return result;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

bool istarts_with(std::string_view text, std::string_view head) {
  return text.size() >= head.size() && iequals(text.substr(0, head.size()), head);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const auto end = text.find(separator);
    parts.push_back(text.substr(0, end));
    if (end == std::string_view::npos) return parts;
    text.remove_prefix(end + 1);
  }
}

std::vector<std::string_view> split_list(std::string_view text, char separator, std::string_view whitespace) {
  std::vector<std::string_view> items;
  for (const auto part : split(text, separator)) {
    const auto item = trim(part, whitespace);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

bool same_secret(std::string_view given, std::string_view expected) {
  if (given.size() != expected.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < given.size(); ++i) difference |= static_cast<unsigned char>(given[i] ^ expected[i]);
  return difference == 0;
}

}  // namespace spindle

#pragma once

#include <string_view>
#include <vector>

namespace spindle::tbproxy {

// Without spaces and tabs at either end, as HTTP field values are compared.
inline std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

inline char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// Compares secrets (tokens, signatures) in a time that says nothing of where they differ.
inline bool same_secret(std::string_view given, std::string_view expected) {
  if (given.size() != expected.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < given.size(); ++i) difference |= static_cast<unsigned char>(given[i] ^ expected[i]);
  return difference == 0;
}

inline bool istarts_with(std::string_view text, std::string_view head) {
  return text.size() >= head.size() && iequals(text.substr(0, head.size()), head);
}

// The trimmed, non-empty items of "a, b,c" (or of another separator's list).
inline std::vector<std::string_view> split_list(std::string_view text, char separator = ',') {
  std::vector<std::string_view> items;
  while (!text.empty()) {
    const auto end = text.find(separator);
    const auto item = trim(text.substr(0, end));
    if (!item.empty()) items.push_back(item);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return items;
}

}  // namespace spindle::tbproxy

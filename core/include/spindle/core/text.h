#pragma once

#include <string>
#include <string_view>
#include <vector>

// Small helpers on ASCII text. They never consult the locale: what they read
// (configuration keys, host names, HTTP fields, YARN ids) is ASCII whatever
// language the user's terminal speaks.
namespace spindle {

inline constexpr std::string_view ascii_whitespace = " \t\n\v\f\r";
// The optional whitespace around HTTP field values and list items.
inline constexpr std::string_view http_whitespace = " \t";

// `text` without the given characters at either end.
std::string_view trim(std::string_view text, std::string_view whitespace = ascii_whitespace);

std::string to_lower(std::string_view text);
std::string to_upper(std::string_view text);

// Equal, or starting with `head`, when letters are compared without case.
bool iequals(std::string_view a, std::string_view b);
bool istarts_with(std::string_view text, std::string_view head);

// Every piece between separators, empty ones included: "a__b" gives
// ["a", "", "b"], and "" gives [""].
std::vector<std::string_view> split(std::string_view text, char separator);

// The trimmed, non-empty items of a list such as "a, b,c".
std::vector<std::string_view> split_list(std::string_view text, char separator = ',',
                                         std::string_view whitespace = ascii_whitespace);

// Compares secrets (tokens, signatures) in a time that says nothing of where
// they differ.
bool same_secret(std::string_view given, std::string_view expected);

}  // namespace spindle

#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace spindle::detail {

// Number of single-character edits (insert, delete, replace, swap of
// neighbours) between two words.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate a misspelt word most likely meant, if any is close enough.
std::optional<std::string> closest_match(std::string_view word, std::span<const std::string_view> candidates);

// ", did you mean \"worker\"?" or "" when nothing is close.
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

// "a, b or c"
std::string list_choices(std::span<const std::string_view> choices);

}  // namespace spindle::detail

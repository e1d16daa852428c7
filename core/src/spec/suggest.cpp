#include "spec/suggest.h"

#include <algorithm>
#include <vector>

namespace spindle::detail {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance, so "wroker" is one edit from "worker".
  const std::size_t rows = a.size() + 1;
  const std::size_t cols = b.size() + 1;
  std::vector<std::size_t> d(rows * cols);
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * cols + j]; };
  for (std::size_t i = 0; i < rows; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j < cols; ++j) at(0, j) = j;
  for (std::size_t i = 1; i < rows; ++i) {
    for (std::size_t j = 1; j < cols; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
      }
    }
  }
  return at(rows - 1, cols - 1);
}

std::optional<std::string> closest_match(std::string_view word, std::span<const std::string_view> candidates) {
  // Long words tolerate more typos; very short ones only one.
  const std::size_t tolerance = std::max<std::size_t>(1, std::min<std::size_t>(3, word.size() / 3));
  std::optional<std::string> best;
  std::size_t best_distance = tolerance + 1;
  for (auto candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = std::string(candidate);
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  if (auto match = closest_match(word, candidates)) return ", did you mean \"" + *match + "\"?";
  return "";
}

std::string list_choices(std::span<const std::string_view> choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += i + 1 == choices.size() ? " or " : ", ";
    out += choices[i];
  }
  return out;
}

}  // namespace spindle::detail

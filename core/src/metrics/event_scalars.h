#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/core/tfevents.h"

namespace spindle::tfevents {

// Which tags TensorBoard's scalar dashboard charts. As in TensorBoard, the
// first value of a tag that carries metadata decides for all its values,
// and a simple_value counts as metadata naming the scalars plugin.
class ScalarTags {
 public:
  // Whether `tag` charts as scalars; nothing while no value has decided.
  std::optional<bool> decided(std::string_view tag) const {
    const auto known = charted_.find(tag);
    return known == charted_.end() ? std::nullopt : std::optional<bool>(known->second);
  }
  void decide(std::string_view tag, bool charted) { charted_.emplace(std::string(tag), charted); }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  std::unordered_map<std::string, bool, Hash, std::equal_to<>> charted_;
};

// Appends the scalars of one serialized tensorflow.Event to `points`. A
// malformed event appends nothing; its error is a clause saying what is
// wrong ("a field key is cut short") for the caller to place in a sentence.
Result<void> append_event_scalars(std::string_view event, ScalarTags& tags, std::vector<ScalarPoint>& points);

}  // namespace spindle::tfevents

#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "spindle/core/diagnostic.h"

namespace spindle::detail {

// Reads typed values out of a YAML tree, recording a diagnostic with the
// node's position for everything it cannot accept. Readers return nullopt
// after recording the problem, so callers keep their default and go on, and
// the user sees every problem in one pass.
class YamlFields {
 public:
  explicit YamlFields(std::string source_name) : source_name_(std::move(source_name)) {}

  // Where a field was found, so later rules can point at it.
  struct Place {
    int line = 0;
    int column = 0;
  };

  void error(const YAML::Node& node, const std::string& field, std::string message);
  void error_at(Place place, const std::string& field, std::string message);
  void error_at(const YAML::Mark& mark, const std::string& field, std::string message);

  using KeyHandler = std::function<void(const std::string& key, const YAML::Node& key_node, const YAML::Node& value,
                                        const std::string& field)>;

  // Calls `handle` for each key of a mapping. With a non-empty `allowed`,
  // unknown keys are reported with a suggestion and skipped. Duplicate keys
  // are reported (YAML forbids them; the later value would silently win).
  // Returns false when `node` is not a mapping.
  bool for_each_key(const YAML::Node& node, const std::string& field, std::span<const std::string_view> allowed,
                    const KeyHandler& handle);

  std::optional<std::string> string(const YAML::Node& node, const std::string& field);
  std::optional<std::string> non_empty_string(const YAML::Node& node, const std::string& field);
  std::optional<std::int64_t> integer(const YAML::Node& node, const std::string& field, std::int64_t min,
                                      std::int64_t max, std::string_view what_it_is);
  std::optional<bool> boolean(const YAML::Node& node, const std::string& field);
  std::optional<std::uint64_t> memory(const YAML::Node& node, const std::string& field);
  std::optional<std::int64_t> seconds(const YAML::Node& node, const std::string& field);
  std::optional<std::map<std::string, std::string>> environment(const YAML::Node& node, const std::string& field);
  std::optional<std::string> command(const YAML::Node& node, const std::string& field);

  // The position of a field recorded by remember(), or of its closest parent.
  Place place_of(const std::string& field) const;
  void remember(const std::string& field, const YAML::Node& node);

  const std::string& source_name() const { return source_name_; }
  Diagnostics& diagnostics() { return diagnostics_; }

 private:
  static Place place(const YAML::Node& node);

  std::string source_name_;
  Diagnostics diagnostics_;
  std::map<std::string, Place> places_;
};

// "\"abc\"" for a scalar, "a list" / "a mapping" / "nothing" otherwise.
std::string describe(const YAML::Node& node);

}  // namespace spindle::detail

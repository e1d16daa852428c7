#include "spec/yaml_fields.h"

#include <charconv>
#include <regex>
#include <set>

#include "spec/suggest.h"
#include "spindle/core/environment.h"
#include "spindle/core/quantities.h"
#include "spindle/core/shell_quote.h"
#include "spindle/core/text.h"

namespace spindle::detail {
namespace {

bool is_quoted(const YAML::Node& node) {
  return node.Tag() == "!";
}

// yaml-cpp gives a node without a source position (e.g. an empty value) the
// mark -1; such nodes are reported at their key instead.
bool has_position(const YAML::Mark& mark) {
  return mark.line >= 0 && mark.column >= 0;
}

bool is_valid_env_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

}  // namespace

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return "\"" + node.Scalar() + "\"";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    default: return "nothing";
  }
}

YamlFields::Place YamlFields::place(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  if (!has_position(mark)) return {};
  return {mark.line + 1, mark.column + 1};
}

void YamlFields::error(const YAML::Node& node, const std::string& field, std::string message) {
  Place where = place(node);
  // An empty value's position is the next token's; its own field is more telling.
  if (where.line == 0 || node.IsNull()) where = place_of(field);
  error_at(where, field, std::move(message));
}

void YamlFields::error_at(Place place, const std::string& field, std::string message) {
  diagnostics_.push_back(Diagnostic{source_name_, place.line, place.column, field, std::move(message)});
}

void YamlFields::error_at(const YAML::Mark& mark, const std::string& field, std::string message) {
  Place where = has_position(mark) ? Place{mark.line + 1, mark.column + 1} : Place{};
  error_at(where, field, std::move(message));
}

void YamlFields::remember(const std::string& field, const YAML::Node& node) {
  places_[field] = place(node);
}

YamlFields::Place YamlFields::place_of(const std::string& field) const {
  std::string name = field;
  while (!name.empty()) {
    if (auto found = places_.find(name); found != places_.end() && found->second.line > 0) return found->second;
    const auto dot = name.rfind('.');
    if (dot == std::string::npos) break;
    name.resize(dot);
  }
  return {};
}

bool YamlFields::for_each_key(const YAML::Node& node, const std::string& field,
                              std::span<const std::string_view> allowed, const KeyHandler& handle) {
  if (!node.IsMap()) {
    error(node, field, "must be a mapping of keys to values, not " + describe(node));
    return false;
  }
  std::set<std::string> seen;
  for (const auto& pair : node) {
    // Copies, not references: yaml-cpp hands out its pairs as temporaries.
    const YAML::Node key_node = pair.first;
    const YAML::Node value = pair.second;
    if (!key_node.IsScalar()) {
      error(key_node, field, "has a key that is " + describe(key_node) + "; keys must be plain words");
      continue;
    }
    const std::string key = key_node.Scalar();
    const std::string child = field.empty() ? key : field + "." + key;
    if (!seen.insert(key).second) {
      error(key_node, child, "appears twice in the same mapping; keep one (YAML does not allow duplicate keys)");
      continue;
    }
    remember(child, key_node);
    if (!allowed.empty()) {
      bool known = false;
      for (auto name : allowed) known = known || name == key;
      if (!known) {
        std::string message = "is not a known key" + did_you_mean(key, allowed);
        if (message.back() != '?') message += "; allowed keys are " + list_choices(allowed);
        error(key_node, child, std::move(message));
        continue;
      }
    }
    handle(key, key_node, value, child);
  }
  return true;
}

std::optional<std::string> YamlFields::string(const YAML::Node& node, const std::string& field) {
  if (!node.IsScalar()) {
    error(node, field, "must be a text value, not " + describe(node));
    return std::nullopt;
  }
  return node.Scalar();
}

std::optional<std::string> YamlFields::non_empty_string(const YAML::Node& node, const std::string& field) {
  auto text = string(node, field);
  if (text && text->empty()) {
    error(node, field, "is empty; give it a value or leave the key out");
    return std::nullopt;
  }
  return text;
}

std::optional<std::int64_t> YamlFields::integer(const YAML::Node& node, const std::string& field, std::int64_t min,
                                                std::int64_t max, std::string_view what_it_is) {
  const std::string range = std::string(what_it_is) + " from " + std::to_string(min) + " to " + std::to_string(max);
  if (!node.IsScalar()) {
    error(node, field, "must be " + range + ", not " + describe(node));
    return std::nullopt;
  }
  const std::string& text = node.Scalar();
  if (is_quoted(node)) {
    error(node, field, "is the text \"" + text + "\"; write " + range + " without quotes");
    return std::nullopt;
  }
  std::int64_t value = 0;
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
  auto [ptr, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    error(node, field, text + " is out of range; it must be " + range);
    return std::nullopt;
  }
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) {
    error(node, field, "\"" + text + "\" is not a whole number; it must be " + range);
    return std::nullopt;
  }
  if (value < min || value > max) {
    error(node, field, std::to_string(value) + " is out of range; it must be " + range);
    return std::nullopt;
  }
  return value;
}

std::optional<bool> YamlFields::boolean(const YAML::Node& node, const std::string& field) {
  if (node.IsScalar() && !is_quoted(node)) {
    const std::string text = to_lower(node.Scalar());
    if (text == "true" || text == "yes") return true;
    if (text == "false" || text == "no") return false;
  }
  error(node, field, describe(node) + " is not true or false");
  return std::nullopt;
}

std::optional<std::uint64_t> YamlFields::memory(const YAML::Node& node, const std::string& field) {
  if (!node.IsScalar()) {
    error(node, field, "must be a memory size such as 2048, 2g or 2 GiB, not " + describe(node));
    return std::nullopt;
  }
  auto parsed = parse_memory_mib(node.Scalar());
  if (!parsed) {
    error(node, field, parsed.error().message);
    return std::nullopt;
  }
  return *parsed;
}

std::optional<std::int64_t> YamlFields::seconds(const YAML::Node& node, const std::string& field) {
  if (!node.IsScalar()) {
    error(node, field, "must be a duration such as 3600, 90m or 2h, not " + describe(node));
    return std::nullopt;
  }
  auto parsed = parse_duration(node.Scalar());
  if (!parsed) {
    error(node, field, parsed.error().message);
    return std::nullopt;
  }
  return parsed->count();
}

std::optional<std::map<std::string, std::string>> YamlFields::environment(const YAML::Node& node,
                                                                          const std::string& field) {
  std::map<std::string, std::string> env;
  bool ok = true;
  const bool is_map = for_each_key(
      node, field, {},
      [&](const std::string& name, const YAML::Node& key_node, const YAML::Node& value, const std::string& child) {
        if (!is_valid_env_name(name)) {
          error(key_node, child, "is not a valid variable name; use letters, digits and _, not starting with a digit");
          ok = false;
          return;
        }
        if (is_reserved_variable(name)) {
          error(key_node, child,
                "is set by Spindle for every task (see the environment contract) and cannot be overridden; "
                "choose another name");
          ok = false;
          return;
        }
        if (!value.IsScalar()) {
          error(value, child, "must be a text value, not " + describe(value) + "; quote it if it is meant as text");
          ok = false;
          return;
        }
        env[name] = value.Scalar();
      });
  if (!is_map || !ok) return std::nullopt;
  return env;
}

std::optional<std::string> YamlFields::command(const YAML::Node& node, const std::string& field) {
  if (node.IsSequence()) {
    std::string joined;
    for (std::size_t i = 0; i < node.size(); ++i) {
      if (!node[i].IsScalar()) {
        error(node[i], field,
              "item " + std::to_string(i + 1) + " is " + describe(node[i]) + "; a command list holds only words");
        return std::nullopt;
      }
      if (!joined.empty()) joined += ' ';
      joined += shell_quote(node[i].Scalar());
    }
    if (joined.empty()) {
      error(node, field, "is an empty list; give the command to run, e.g. python train.py");
      return std::nullopt;
    }
    return joined;
  }
  if (!node.IsScalar()) {
    error(node, field, "must be a shell command (text) or a list of words, not " + describe(node));
    return std::nullopt;
  }
  if (node.Scalar().find_first_not_of(" \t\n") == std::string::npos) {
    error(node, field, "is empty; give the command to run, e.g. python train.py");
    return std::nullopt;
  }
  return node.Scalar();
}

}  // namespace spindle::detail

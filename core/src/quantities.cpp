#include "spindle/core/quantities.h"
#include "spindle/core/text.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

namespace spindle {
namespace {

// Splits "1.5 GiB" into the number "1.5" and the unit "GiB".
std::pair<std::string_view, std::string_view> split_number(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
  return {text.substr(0, end), trim(text.substr(end))};
}

std::optional<double> to_number(std::string_view digits) {
  if (digits.empty() || digits.front() == '.' || digits.back() == '.') return std::nullopt;
  double value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  return value;
}

struct MemoryUnit {
  std::string_view name;
  double mib;
};

constexpr std::array<MemoryUnit, 16> memory_units{{
    {"k", 1.0 / 1024},
    {"K", 1.0 / 1024},
    {"KiB", 1.0 / 1024},
    {"Ki", 1.0 / 1024},
    {"m", 1},
    {"M", 1},
    {"MiB", 1},
    {"Mi", 1},
    {"g", 1024},
    {"G", 1024},
    {"GiB", 1024},
    {"Gi", 1024},
    {"t", 1024.0 * 1024},
    {"T", 1024.0 * 1024},
    {"TiB", 1024.0 * 1024},
    {"Ti", 1024.0 * 1024},
}};

constexpr std::string_view memory_help =
    "write a whole number of MiB (2048) or a number with a unit: 2g, 2G, 2 GiB, 512 MiB, 1.5 GiB";

// Far above any node, far below overflow.
constexpr double max_memory_mib = 1024.0 * 1024 * 1024;

}  // namespace

Result<std::uint64_t> parse_memory_mib(std::string_view raw) {
  const std::string_view text = trim(raw);
  const std::string quoted = "\"" + std::string(raw) + "\"";
  if (text.empty()) return make_error("memory is empty; " + std::string(memory_help));
  if (text.front() == '-') return make_error(quoted + " is negative; memory must be more than 0");
  auto [digits, unit] = split_number(text);
  const auto number = to_number(digits);
  if (!number) return make_error(quoted + " is not a memory size; " + std::string(memory_help));

  double mib_per_unit = 0;
  if (unit.empty()) {
    if (digits.find('.') != std::string_view::npos) {
      return make_error(quoted + " has a fraction but no unit; a bare number is whole MiB, so write " +
                        "e.g. 1.5 GiB or 1536");
    }
    mib_per_unit = 1;
  } else {
    for (const auto& candidate : memory_units) {
      if (candidate.name == unit) mib_per_unit = candidate.mib;
    }
    if (mib_per_unit == 0) {
      if (unit == "GB" || unit == "gb" || unit == "MB" || unit == "mb" || unit == "KB" || unit == "kb" ||
          unit == "TB" || unit == "tb") {
        const std::string binary = std::string(1, static_cast<char>(std::toupper(unit[0]))) + "iB";
        return make_error(quoted + " uses the decimal unit " + std::string(unit) + ", which YARN does not use; write " +
                          std::string(digits) + " " + binary + " (binary) instead");
      }
      return make_error(quoted + " has the unknown unit \"" + std::string(unit) + "\"; " + std::string(memory_help));
    }
  }
  const double mib = std::ceil(*number * mib_per_unit);
  if (mib <= 0) return make_error(quoted + " is zero; memory must be more than 0");
  if (mib > max_memory_mib) return make_error(quoted + " is larger than any node could offer (over 1 PiB)");
  return static_cast<std::uint64_t>(mib);
}

std::string format_memory_mib(std::uint64_t mib) {
  if (mib % 1024 == 0) return std::to_string(mib / 1024) + " GiB";
  return std::to_string(mib) + " MiB";
}

namespace {

constexpr std::string_view duration_help = "write seconds (600) or parts with units d, h, m, s: 90s, 30m, 1h30m, 2d";

std::optional<std::int64_t> seconds_per(char unit) {
  switch (unit) {
    case 'd': return 86400;
    case 'h': return 3600;
    case 'm': return 60;
    case 's': return 1;
    default: return std::nullopt;
  }
}

}  // namespace

Result<std::chrono::seconds> parse_duration(std::string_view raw) {
  const std::string_view text = trim(raw);
  const std::string quoted = "\"" + std::string(raw) + "\"";
  if (text.empty()) return make_error("duration is empty; " + std::string(duration_help));
  if (text.front() == '-') return make_error(quoted + " is negative; " + std::string(duration_help));
  constexpr std::int64_t limit = std::int64_t{10} * 365 * 86400;  // ten years
  std::int64_t total = 0;
  std::string_view rest = text;
  bool bare = true;
  while (!rest.empty()) {
    std::size_t end = 0;
    while (end < rest.size() && std::isdigit(static_cast<unsigned char>(rest[end]))) ++end;
    if (end == 0 || end > 12) return make_error(quoted + " is not a duration; " + std::string(duration_help));
    std::int64_t value = 0;
    std::from_chars(rest.data(), rest.data() + end, value);
    rest.remove_prefix(end);
    std::int64_t scale = 1;
    if (!rest.empty()) {
      const auto unit = seconds_per(rest.front());
      if (!unit) return make_error(quoted + " is not a duration; " + std::string(duration_help));
      scale = *unit;
      rest.remove_prefix(1);
      bare = false;
    } else if (!bare) {
      return make_error(quoted + " ends in a number without a unit; " + std::string(duration_help));
    }
    total += value * scale;
    if (total > limit) return make_error(quoted + " is longer than ten years; " + std::string(duration_help));
  }
  return std::chrono::seconds(total);
}

std::string format_duration(std::chrono::seconds duration) {
  std::int64_t left = duration.count();
  if (left == 0) return "0s";
  std::string out;
  for (char unit : {'d', 'h', 'm', 's'}) {
    const std::int64_t size = *seconds_per(unit);
    if (left >= size) {
      out += std::to_string(left / size) + unit;
      left %= size;
    }
  }
  return out;
}

}  // namespace spindle

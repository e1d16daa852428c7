#include "cli/time_format.h"

#include <ctime>

namespace spindle::cli {
namespace {

std::string formatted(std::int64_t ms, const char* format) {
  if (ms <= 0) return "-";
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm local{};
  localtime_r(&seconds, &local);
  char text[32];
  std::strftime(text, sizeof(text), format, &local);
  return text;
}

}  // namespace

std::string clock_time(std::int64_t ms_since_epoch) {
  return formatted(ms_since_epoch, "%H:%M:%S");
}

std::string local_time(std::int64_t ms_since_epoch) {
  return formatted(ms_since_epoch, "%Y-%m-%d %H:%M:%S");
}

}  // namespace spindle::cli

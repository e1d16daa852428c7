#include <cctype>
#include <cstdio>

#include "spindle/core/text.h"
#include "spindle/yarn/aggregated_logs.h"

namespace spindle::yarn {
namespace {

std::string without_trailing_slash(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// The application's sequence number modulo 10,000, as Hadoop names buckets.
std::string bucket_of(const std::string& application_id) {
  const auto last = application_id.rfind('_');
  if (last == std::string::npos) return "0000";
  long long number = 0;
  for (std::size_t i = last + 1; i < application_id.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(application_id[i]))) return "0000";
    number = (number * 10 + (application_id[i] - '0')) % 10000;
  }
  char bucket[8];
  std::snprintf(bucket, sizeof bucket, "%04lld", number);
  return bucket;
}

}  // namespace

bool log_aggregation_enabled(const HadoopConfiguration& configuration) {
  return configuration.get_bool("yarn.log-aggregation-enable", false);
}

std::vector<AggregatedLogDirectory> aggregated_log_directories(const HadoopConfiguration& configuration,
                                                               const std::string& owner,
                                                               const std::string& application_id) {
  auto formats = configuration.get_list("yarn.log-aggregation.file-formats");
  if (formats.empty()) formats = {"TFile"};
  const std::string default_root = configuration.get_or("yarn.nodemanager.remote-app-log-dir", "/tmp/logs");
  const std::string base_suffix = configuration.get_or("yarn.nodemanager.remote-app-log-dir-suffix", "logs");
  const std::string bucket = bucket_of(application_id);
  std::vector<AggregatedLogDirectory> newer;
  std::vector<AggregatedLogDirectory> older;
  auto add = [](std::vector<AggregatedLogDirectory>& into, std::string path, const std::string& format) {
    for (const auto& known : into) {
      if (known.path == path) return;
    }
    into.push_back({std::move(path), format});
  };
  for (const auto& format : formats) {
    const auto root = without_trailing_slash(
        configuration.get_or("yarn.log-aggregation." + format + ".remote-app-log-dir", default_root));
    const auto suffix = configuration.get_or("yarn.log-aggregation." + format + ".remote-app-log-dir-suffix",
                                             base_suffix + "-" + to_lower(format));
    const auto user_dir = root + "/" + owner;
    add(newer, user_dir + "/bucket-" + suffix + "/" + bucket + "/" + application_id, format);
    add(older, user_dir + "/" + suffix + "/" + application_id, format);
    // Before Hadoop 3.2.1 the suffix carried no format, and before 3.3 there were no buckets.
    add(older, user_dir + "/" + base_suffix + "/" + application_id, format);
    add(older, user_dir + "/bucket-" + base_suffix + "/" + bucket + "/" + application_id, format);
  }
  newer.insert(newer.end(), older.begin(), older.end());
  return newer;
}

}  // namespace spindle::yarn

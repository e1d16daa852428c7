// How fast the history store takes metric points: N points of a few series,
// written in batches as `spindle metrics` and the desktop app write them.
//
//   history_ingest [--points N] [--batch B] [--file PATH]
//
// Prints one JSON line: points, seconds, points_per_second.

#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "spindle/client/history_store.h"

namespace {

long long option(int argc, char** argv, const std::string& name, long long fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) return std::atoll(argv[i + 1]);
  }
  return fallback;
}

std::string text_option(int argc, char** argv, const std::string& name, const std::string& fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) return argv[i + 1];
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const long long total = option(argc, argv, "--points", 1'000'000);
  const long long batch = option(argc, argv, "--batch", 10'000);
  const std::filesystem::path file = text_option(
      argc, argv, "--file",
      (std::filesystem::temp_directory_path() / ("history-ingest-" + std::to_string(::getpid()) + ".sqlite")).string());
  std::filesystem::remove(file);
  auto store = spindle::client::HistoryStore::open(file);
  if (!store) {
    std::cerr << store.error().message << '\n';
    return 1;
  }
  const char* tags[] = {"loss", "accuracy", "learning_rate", "memory_bytes"};
  const auto started = std::chrono::steady_clock::now();
  std::vector<spindle::client::MetricPoint> points;
  points.reserve(static_cast<std::size_t>(batch));
  for (long long written = 0; written < total;) {
    points.clear();
    for (long long i = 0; i < batch && written < total; ++i, ++written) {
      points.push_back({"tfevents", "train", tags[written % 4], written / 4, 1.7e9 + static_cast<double>(written),
                        1.0 / static_cast<double>(written + 1)});
    }
    if (auto recorded = store->record_metrics("application_1_0001", points); !recorded) {
      std::cerr << recorded.error().message << '\n';
      return 1;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "{\"points\": " << total << ", \"batch\": " << batch << ", \"seconds\": " << seconds
            << ", \"points_per_second\": " << static_cast<double>(total) / seconds << "}\n";
  std::filesystem::remove(file);
  std::filesystem::remove(file.string() + "-wal");
  std::filesystem::remove(file.string() + "-shm");
  return 0;
}

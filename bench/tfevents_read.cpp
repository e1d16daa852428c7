// Reads one event file from start to end with EventFileReader, as the
// desktop app and the history store do, several times over; prints the best
// time as one JSON line. The file should sit in the page cache already, as
// it does for every reader it is compared with.
// usage: tfevents_read FILE [REPEATS]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "spindle/core/tfevents.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tfevents_read FILE [REPEATS]\n");
    return 2;
  }
  const std::string path = argv[1];
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (ec) {
    std::fprintf(stderr, "cannot read %s: %s\n", path.c_str(), ec.message().c_str());
    return 1;
  }

  spindle::LocalLogFileSystem files;
  double best = 1e300;
  std::size_t points = 0;
  for (int run = 0; run < repeats; ++run) {
    const auto start = std::chrono::steady_clock::now();
    spindle::EventFileReader reader(files, path);
    auto read = reader.poll();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (!read) {
      std::fprintf(stderr, "%s\n", read.error().message.c_str());
      return 1;
    }
    points = read->size();
    best = std::min(best, took.count());
  }
  std::printf("{\"reader\": \"spindle\", \"bytes\": %llu, \"points\": %zu, \"seconds\": %.6f, \"mb_per_s\": %.1f}\n",
              static_cast<unsigned long long>(bytes), points, best, static_cast<double>(bytes) / best / 1e6);
  return 0;
}

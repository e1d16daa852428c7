// The output mirror of the task executor, alone, against the HDFS of
// HADOOP_CONF_DIR: linked as the container binary is (Beast, statically), so
// its figures are the ones a task gets. bench/output-mirror/run puts them
// beside Hadoop's own client in one run.
//
//   output_mirror_copy out LOCAL_DIR HDFS_DIR       a task's directory to HDFS: start, then the last pass
//   output_mirror_copy in HDFS_DIR LOCAL_DIR        a restarted task's restore
//   output_mirror_copy latency LOCAL_DIR HDFS_DIR MB  from a file's close to its whole presence in HDFS
//
// Each prints one line: "<seconds> <files> <bytes>".
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "container/output_mirror.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/webhdfs.h"

namespace {

using spindle::container::OutputMirror;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int fail(const std::string& message) {
  std::cerr << "output_mirror_copy: " << message << '\n';
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr
        << "usage: output_mirror_copy out LOCAL_DIR HDFS_DIR | in HDFS_DIR LOCAL_DIR | latency LOCAL_DIR HDFS_DIR "
           "MB\n";
    return 2;
  }
  const std::string mode = argv[1];
  auto configuration = spindle::yarn::HadoopConfiguration::from_environment();
  if (!configuration) return fail(configuration.error().message);
  const char* user = std::getenv("USER");
  auto hdfs = spindle::yarn::WebHdfs::for_container(*configuration, user ? user : "root", {});
  if (!hdfs) return fail(hdfs.error().message);
  OutputMirror::Options options;
  options.writer = "bench";
  options.log = [](const std::string& line) { std::cerr << line << '\n'; };
  options.local = mode == "in" ? argv[3] : argv[2];
  options.remote = mode == "in" ? argv[2] : argv[3];

  const auto start = Clock::now();
  auto mirror = OutputMirror::start(*hdfs, options);
  if (!mirror) return fail(mirror.error().message);
  if (mode == "in") {
    const double took = seconds_since(start);
    const auto totals = (*mirror)->totals();
    std::cout << took << ' ' << totals.files_in << ' ' << totals.bytes_in << '\n';
    return (*mirror)->finish() ? 0 : 1;
  }
  if (mode == "out") {
    auto finished = (*mirror)->finish(std::chrono::seconds(3600));
    if (!finished) return fail(finished.error().message);
    const auto totals = (*mirror)->totals();
    std::cout << seconds_since(start) << ' ' << totals.files_out << ' ' << totals.bytes_out << '\n';
    return 0;
  }
  if (mode == "latency" && argc == 5) {
    const std::int64_t bytes = std::stoll(argv[4]) * 1024 * 1024;
    const std::string name = "checkpoint.data";
    {
      std::ofstream out(options.local / name, std::ios::binary | std::ios::trunc);
      std::vector<char> block(1 << 20);
      for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>(i * 2654435761u >> 24);
      for (std::int64_t written = 0; written < bytes; written += static_cast<std::int64_t>(block.size())) {
        out.write(block.data(), static_cast<std::streamsize>(block.size()));
      }
    }
    const auto closed = Clock::now();
    auto watcher = *hdfs;
    while (seconds_since(closed) < 600) {
      if (auto status = watcher.status(options.remote + "/" + name); status && status->length == bytes) {
        std::cout << seconds_since(closed) << " 1 " << bytes << '\n';
        return (*mirror)->finish() ? 0 : 1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return fail("the file never appeared whole in HDFS within 600 s");
  }
  return fail("unknown mode " + mode);
}

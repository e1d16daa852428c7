// getApplicationReport round trips against the ResourceManager of
// $HADOOP_CONF_DIR: one caller, then several sharing one connection.
// usage: rpc_round_trips [SECONDS [PROTECTION]]
// PROTECTION (authentication, integrity or privacy) replaces what the
// configuration's hadoop.rpc.protection allows, for a cluster that accepts
// several levels; the level the connection negotiated is printed first.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "spindle/yarn/application_client.h"

using namespace spindle::yarn;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 5.0;
  auto configuration = HadoopConfiguration::from_environment();
  if (!configuration) {
    std::fprintf(stderr, "%s\n", configuration.error().message.c_str());
    return 2;
  }
  auto options = ApplicationClient::options_for(*configuration);
  if (argc > 2) {
    auto wanted = parse_rpc_protection(argv[2], "the command line");
    if (!wanted) {
      std::fprintf(stderr, "%s\n", wanted.error().message.c_str());
      return 2;
    }
    options.protection = *wanted;
  }
  ApplicationClient client(options);
  auto negotiated = client.protection();
  if (!negotiated) {
    std::fprintf(stderr, "%s\n", negotiated.error().message.c_str());
    return 3;
  }
  std::printf("protection %s\n", std::string(to_string(*negotiated)).c_str());
  // Any application will do; make one if the cluster has none.
  auto apps = client.applications("", {});
  if (!apps) {
    std::fprintf(stderr, "%s\n", apps.error().message.c_str());
    return 3;
  }
  ApplicationId id;
  if (!apps->empty()) {
    id = apps->front().id;
  } else {
    auto created = client.new_application();
    SubmissionRequest request;
    request.id = created->id;
    request.name = "rpc-bench";
    request.am.commands = {"true"};
    if (auto submitted = client.submit(request); !submitted) {
      std::fprintf(stderr, "%s\n", submitted.error().message.c_str());
      return 3;
    }
    id = created->id;
  }

  std::printf("%-10s %12s %12s %12s\n", "callers", "calls/s", "p50 us", "p99 us");
  for (int callers : {1, 4, 16}) {
    std::atomic<bool> stop = false;
    std::vector<std::vector<double>> latencies(static_cast<std::size_t>(callers));
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (int c = 0; c < callers; ++c) {
      threads.emplace_back([&, c] {
        auto& mine = latencies[static_cast<std::size_t>(c)];
        while (!stop) {
          const auto before = Clock::now();
          if (!client.report(id)) return;
          mine.push_back(std::chrono::duration<double, std::micro>(Clock::now() - before).count());
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (auto& thread : threads) thread.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::vector<double> all;
    for (const auto& mine : latencies) all.insert(all.end(), mine.begin(), mine.end());
    if (all.empty()) {
      std::fprintf(stderr, "no call succeeded\n");
      return 3;
    }
    std::sort(all.begin(), all.end());
    std::printf("%-10d %12.0f %12.0f %12.0f\n", callers, static_cast<double>(all.size()) / elapsed, all[all.size() / 2],
                all[all.size() * 99 / 100]);
  }
  return 0;
}

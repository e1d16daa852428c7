// What one poll of `spindle status`, `spindle watch` or the desktop app costs
// for a job of many tasks, on both sides of the job API: the application
// master makes the status of every task and encodes it; the client parses
// it, prints the CLI's table and records it in the history store, in one
// transaction. Every task runs and has reported its usage; medians of 20
// polls, from one process (the network is not counted).
// usage: status_scale [TASKS...]   (default 2000 10000)

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/job_follow.h"
#include "spindle/client/history_store.h"
#include "spindle/core/job_lifecycle.h"
#include "spindle/core/job_status.h"
#include "spindle/core/spec_parser.h"

namespace {

using Clock = std::chrono::steady_clock;

double median_ms(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double timed_ms(const std::function<void()>& work) {
  const auto start = Clock::now();
  work();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

int run(int tasks, const std::filesystem::path& directory) {
  spindle::SpecParseOptions options;
  options.check_files = false;
  auto spec = spindle::parse_job_spec(
      "command: x\nname: scale\ntasks: {chief: {}, worker: {instances: " + std::to_string(tasks - 1) + "}}\n", options);
  if (!spec) return 1;
  spindle::Rendezvous rendezvous(*spec);
  spindle::EventLog events;
  spindle::JobLifecycle lifecycle(*spec, rendezvous, events);
  int container = 0;
  for (const auto& [type, count] : lifecycle.containers_wanted()) {
    for (int i = 0; i < count; ++i) {
      const auto id = "container_1_0001_01_" + std::to_string(++container);
      auto task = lifecycle.assign_container(type, id, "node" + std::to_string(container % 50) + ":8041",
                                             "node" + std::to_string(container % 50) + ":8042",
                                             "http://node:8042/node/containerlogs/" + id + "/alice");
      if (!task) return 1;
      const spindle::HostPort address{"node" + std::to_string(container % 50),
                                      static_cast<std::uint16_t>(20000 + container % 40000)};
      if (!lifecycle.register_task(*task, address, id).ok()) return 1;
    }
  }
  lifecycle.cluster_published(rendezvous.current()->version);
  for (const auto& record : lifecycle.tasks()) {
    spindle::TaskHeartbeat heartbeat;
    heartbeat.container = record.container;
    heartbeat.rss_bytes = 512'000'000;
    heartbeat.cpu_seconds = 42.5;
    heartbeat.processes = 3;
    heartbeat.cluster_version = 1;
    if (!lifecycle.heartbeat(record.id, heartbeat).ok()) return 1;
  }

  auto history = spindle::client::HistoryStore::open(directory / ("history-" + std::to_string(tasks) + ".sqlite"));
  if (!history) {
    std::fprintf(stderr, "%s\n", history.error().message.c_str());
    return 1;
  }
  spindle::client::JobHistoryEntry entry;
  entry.application_id = "application_1_0001";
  entry.name = "scale";
  entry.state = "running";
  if (!history->record_job(entry).ok()) return 1;

  std::vector<double> make, parse, print, record;
  std::size_t json_bytes = 0;
  std::size_t table_lines = 0;
  for (int poll = 0; poll < 20; ++poll) {
    std::string json;
    make.push_back(timed_ms(
        [&] { json = spindle::to_json(spindle::job_status(lifecycle, "application_1_0001", 1, 1'700'000'000'000)); }));
    json_bytes = json.size();
    spindle::Result<spindle::JobStatus> status = spindle::make_error("not parsed");
    parse.push_back(timed_ms([&] { status = spindle::parse_job_status(json); }));
    if (!status) return 1;
    std::ostringstream table;
    print.push_back(timed_ms([&] { spindle::cli::print_status_table(*status, table); }));
    const auto text = table.str();
    table_lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    bool recorded = false;
    record.push_back(timed_ms([&] { recorded = history->record_status(*status).ok(); }));
    if (!recorded) return 1;
  }
  std::printf(
      "%d tasks: status %.0f KB of JSON; master makes and encodes it in %.1f ms; the client parses it in %.1f ms, "
      "prints %zu lines in %.1f ms and records it in the history in %.1f ms (one transaction); %.1f ms a poll\n",
      tasks, json_bytes / 1024.0, median_ms(make), median_ms(parse), table_lines, median_ms(print), median_ms(record),
      median_ms(make) + median_ms(parse) + median_ms(print) + median_ms(record));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {2000, 10000};
  // A history store of its own, in the system's temporary directory ($TMPDIR), removed at the end.
  std::string pattern = (std::filesystem::temp_directory_path() / "status-scale-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    std::fprintf(stderr, "cannot make a directory like %s for the history store\n", pattern.c_str());
    return 1;
  }
  const std::filesystem::path directory(pattern);
  int failed = 0;
  for (const int tasks : sizes) {
    if (tasks < 2 || tasks > 10'001) {
      std::fprintf(stderr, "%d tasks: a size between 2 and 10001 (one chief and up to 10,000 workers)\n", tasks);
      failed = 1;
      continue;
    }
    if (run(tasks, directory) != 0) {
      std::fprintf(stderr, "%d tasks: the run failed\n", tasks);
      failed = 1;
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
  return failed;
}

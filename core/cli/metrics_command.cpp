#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/exit_codes.h"
#include "cli/job_commands.h"
#include "spindle/client/hdfs_log_files.h"
#include "spindle/client/history_store.h"
#include "spindle/client/job_connection.h"
#include "spindle/client/json_shapes.h"
#include "spindle/core/tfevents.h"

namespace spindle::cli {
namespace {

struct MetricsOptions {
  std::string application;
  std::string tag;
  bool json = false;
  bool follow = false;
};

// The job's event files, as the history keeps their points.
class TrainingScalars {
 public:
  static Result<TrainingScalars> open(const std::string& directory) {
    auto opened = client::JobLogDirectory::open(directory);
    if (!opened) return opened.error();
    return TrainingScalars(std::move(*opened));
  }

  // New points since the last call.
  std::vector<client::MetricPoint> poll(std::ostream& warnings) {
    auto update = directory_.poll();
    if (!update) {
      warnings << "warning: " << update.error().message << '\n';
      return {};
    }
    for (const auto& problem : update->problems) warnings << "warning: " << problem.message << '\n';
    return client::training_points(*update);
  }

 private:
  explicit TrainingScalars(client::JobLogDirectory directory) : directory_(std::move(directory)) {}
  client::JobLogDirectory directory_;
};

void print_point_line(const client::MetricPoint& point) {
  std::cout << std::left << std::setw(10) << point.source << std::setw(16) << point.run << std::setw(24) << point.tag
            << std::right << std::setw(8) << point.step << "  " << std::fixed << std::setprecision(3) << point.wall_time
            << "  " << std::defaultfloat << std::setprecision(6) << point.value << '\n';
}

void print_summary(const std::vector<client::MetricPoint>& points) {
  struct Series {
    std::size_t count = 0;
    const client::MetricPoint* last = nullptr;
    double low = 0, high = 0;
  };
  std::map<std::tuple<std::string, std::string, std::string>, Series> series;
  for (const auto& point : points) {
    auto& one = series[{point.source, point.run, point.tag}];
    if (one.count++ == 0) one.low = one.high = point.value;
    one.low = std::min(one.low, point.value);
    one.high = std::max(one.high, point.value);
    if (!one.last || point.wall_time >= one.last->wall_time) one.last = &point;
  }
  std::cout << std::left << std::setw(10) << "SOURCE" << std::setw(16) << "RUN" << std::setw(24) << "TAG" << std::right
            << std::setw(8) << "POINTS" << std::setw(10) << "LAST STEP" << std::setw(14) << "LAST" << std::setw(14)
            << "MIN" << std::setw(14) << "MAX" << '\n';
  for (const auto& [key, one] : series) {
    const auto& [source, run, tag] = key;
    std::cout << std::left << std::setw(10) << source << std::setw(16) << run << std::setw(24) << tag << std::right
              << std::setw(8) << one.count << std::setw(10) << one.last->step << std::setw(14) << one.last->value
              << std::setw(14) << one.low << std::setw(14) << one.high << '\n';
  }
}

nlohmann::json points_json(const std::vector<client::MetricPoint>& points) {
  auto out = nlohmann::json::array();
  for (const auto& point : points) out.push_back(nlohmann::json(client::metric_point_json(point)));
  return out;
}

int run_metrics(const MetricsOptions& options) {
  auto history = client::HistoryStore::open();
  if (!history) {
    std::cerr << history.error().message << '\n';
    return exit_bad_input;
  }
  // While the job runs its application master adds its containers' use.
  std::optional<client::JobConnection> job;
  if (auto configuration = yarn::HadoopConfiguration::from_environment()) {
    if (auto opened = client::JobConnection::open(*configuration, options.application)) job.emplace(std::move(*opened));
  }
  auto look_at_job = [&]() -> bool {
    if (!job) return false;
    auto report = job->report();
    if (!report) return false;
    if (!report->finished()) (void)job->live_status();
    return !report->finished();
  };
  bool running = look_at_job();
  auto known = history->job(options.application);
  if (!known || !known->has_value()) {
    std::cerr << options.application << " is not in the job history " << history->path().string()
              << "; `spindle list --all` shows the jobs there are\n";
    return exit_bad_input;
  }
  const auto directory = (*known)->output_location();
  std::optional<TrainingScalars> scalars;
  if (directory.empty()) {
    std::cerr << "note: the job's spec names no output directory, so there are no training scalars to read\n";
  } else if (auto opened = TrainingScalars::open(directory)) {
    scalars.emplace(std::move(*opened));
  } else {
    std::cerr << "warning: " << opened.error().message << '\n';
  }
  auto ingest = [&]() -> std::vector<client::MetricPoint> {
    if (!scalars) return {};
    auto points = scalars->poll(std::cerr);
    if (auto recorded = history->record_metrics(options.application, points); !recorded) {
      std::cerr << "warning: " << recorded.error().message << '\n';
    }
    return points;
  };
  (void)ingest();

  auto points = history->metrics(options.application, options.tag);
  if (!points) {
    std::cerr << points.error().message << '\n';
    return exit_bad_input;
  }
  if (options.json && !options.follow) {
    std::cout << points_json(*points).dump(2) << '\n';
    return exit_done;
  }
  if (!options.follow) {
    if (points->empty()) {
      std::cout << "no metrics recorded for " << options.application
                << (options.tag.empty() ? "" : " with tag " + options.tag) << '\n';
    } else {
      print_summary(*points);
    }
    return exit_done;
  }
  // --follow: every point as one line (or one JSON object per line), new
  // ones as they come, until the job ends.
  auto emit = [&](const std::vector<client::MetricPoint>& batch) {
    for (const auto& point : batch) {
      if (!options.tag.empty() && point.tag != options.tag) continue;
      if (options.json) {
        std::cout << points_json({point})[0].dump() << '\n';
      } else {
        print_point_line(point);
      }
    }
    std::cout.flush();
  };
  emit(*points);
  while (running) {
    std::this_thread::sleep_for(std::chrono::seconds(5));
    running = look_at_job();
    emit(ingest());
  }
  return exit_done;
}

}  // namespace

void add_metrics_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<MetricsOptions>();
  CLI::App* command = app.add_subcommand(
      "metrics", "A job's training scalars (from its event files) and its containers' memory and CPU");
  command->add_option("application", options->application, "The application id")->required();
  command->add_option("--tag", options->tag, "Only this tag (loss, memory_bytes, ...)");
  command->add_flag("--json", options->json, "Print the points as JSON");
  command->add_flag("-f,--follow", options->follow, "Print every point, then new ones until the job ends");
  command->callback([options, &exit_code] { exit_code = run_metrics(*options); });
}

}  // namespace spindle::cli

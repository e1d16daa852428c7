#include "container/trial_scalars.h"

#include <algorithm>

namespace spindle::container {

TrialScalars::TrialScalars(yarn::WebHdfs hdfs, std::string output, SweepMetric metric)
    : files_(std::make_unique<client::HdfsLogFileSystem>(std::move(hdfs))),
      reader_(std::make_unique<LogDirectoryReader>(*files_, std::move(output))),
      metric_(std::move(metric)),
      run_(metric_.run) {}

std::vector<std::string> TrialScalars::poll() {
  std::vector<std::string> problems;
  auto update = reader_->poll();
  if (!update) {
    // A trial that has not written yet has no directory: nothing to read, no problem.
    if (update.error().remote_exception != "FileNotFoundException") problems.push_back(update.error().message);
    return problems;
  }
  for (const auto& problem : update->problems) problems.push_back(problem.message);
  bool added = false;
  for (const auto& run : update->runs) {
    for (const auto& point : run.points) {
      all_points_.push_back({"tfevents", run.run, point.tag, point.step, point.wall_time, point.value});
      if (point.tag != metric_.tag) continue;
      // Without a run named, the first run that logs the tag is the metric's.
      if (run_.empty()) run_ = run.run;
      if (run.run != run_) continue;
      samples_.push_back({point.step, point.value});
      added = true;
    }
  }
  if (added) {
    std::stable_sort(samples_.begin(), samples_.end(),
                     [](const MetricSample& a, const MetricSample& b) { return a.step < b.step; });
    // A trial that resumed from a checkpoint logs some steps again: the later value stands.
    std::vector<MetricSample> unique;
    for (const auto& sample : samples_) {
      if (!unique.empty() && unique.back().step == sample.step) {
        unique.back() = sample;
      } else {
        unique.push_back(sample);
      }
    }
    samples_ = std::move(unique);
  }
  return problems;
}

}  // namespace spindle::container

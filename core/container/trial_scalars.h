#pragma once

#include <memory>
#include <string>
#include <vector>

#include "spindle/client/hdfs_log_files.h"
#include "spindle/core/sweep_spec.h"
#include "spindle/core/sweep_trials.h"
#include "spindle/core/tfevents.h"

namespace spindle::container {

// One trial's values of the sweep's metric, read as they are written from
// the event files under its output directory on HDFS.
class TrialScalars {
 public:
  TrialScalars(yarn::WebHdfs hdfs, std::string output, SweepMetric metric);

  // Reads what was added since the last call; a problem is returned as a
  // sentence for the log, and what could be read is kept.
  std::vector<std::string> poll();

  // Every value so far, by step (a step logged twice keeps its last value).
  const std::vector<MetricSample>& samples() const { return samples_; }
  // The run the values come from: the metric's, or the first that logged its tag.
  const std::string& run() const { return run_; }
  // Every scalar of every run read so far, the metric's and the others,
  // for the trial's MLflow run.
  const std::vector<client::MetricPoint>& all_points() const { return all_points_; }

 private:
  std::unique_ptr<client::HdfsLogFileSystem> files_;
  std::unique_ptr<LogDirectoryReader> reader_;
  SweepMetric metric_;
  std::string run_;
  std::vector<MetricSample> samples_;
  std::vector<client::MetricPoint> all_points_;
};

}  // namespace spindle::container

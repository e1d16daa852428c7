#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "container/container_context.h"
#include "container/run_scalars.h"
#include "spindle/client/hdfs_log_files.h"
#include "spindle/client/mlflow_client.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/tfevents.h"

namespace spindle::container {

// A job's MLflow run charts its training scalars while it trains
// (docs/mlflow.md, "While a job trains"): the application master reads what
// the tasks' event files added under the job's output in HDFS and sends it
// to the run. The client that closes the run sends every scalar once more;
// MLflow keeps each point once. MLflow or HDFS being away never holds the
// job: it is said once in the master's log, and what was read is sent later.
class JobScalarsFeed {
 public:
  using Log = std::function<void(const std::string&)>;

  JobScalarsFeed(yarn::WebHdfs hdfs, std::string output, std::string tracking_uri, std::string run_id, Log log,
                 std::chrono::seconds every);
  ~JobScalarsFeed();
  JobScalarsFeed(const JobScalarsFeed&) = delete;
  JobScalarsFeed& operator=(const JobScalarsFeed&) = delete;

  void start();
  // Ends the loop after one last pass, so the run has every scalar written
  // before the job's end; bounded by the MLflow client's timeouts.
  void stop();

 private:
  void pass();
  void say_once(bool& said, const std::string& line);

  std::unique_ptr<client::HdfsLogFileSystem> files_;
  std::unique_ptr<LogDirectoryReader> reader_;
  client::MlflowClient client_;
  RunScalars scalars_;
  Log log_;
  std::chrono::seconds every_;
  bool read_failing_ = false;
  bool dropped_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// The feed of a job whose client named its run (SPINDLE_MLFLOW_RUN), started;
// nothing for a job without one. The MLflow credentials the client carried
// are put in this process's environment first.
std::unique_ptr<JobScalarsFeed> start_job_scalars_feed(const ContainerContext& context, const JobSpec& spec,
                                                       const JobScalarsFeed::Log& log);

}  // namespace spindle::container

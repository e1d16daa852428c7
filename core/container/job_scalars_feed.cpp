#include "container/job_scalars_feed.h"

#include <cstdlib>

#include "container/hdfs_access.h"
#include "container/mlflow_credentials.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/environment.h"
#include "spindle/yarn/credentials.h"

namespace spindle::container {
namespace {

// What the run may wait for while MLflow is away; the client's close sends
// everything anyway.
constexpr std::size_t most_unsent = 200'000;

}  // namespace

JobScalarsFeed::JobScalarsFeed(yarn::WebHdfs hdfs, std::string output, std::string tracking_uri, std::string run_id,
                               Log log, std::chrono::seconds every)
    : files_(std::make_unique<client::HdfsLogFileSystem>(std::move(hdfs))),
      reader_(std::make_unique<LogDirectoryReader>(*files_, std::move(output))),
      client_(std::move(tracking_uri)),
      scalars_(run_id, "the job's run " + run_id),
      log_(std::move(log)),
      every_(every) {}

JobScalarsFeed::~JobScalarsFeed() {
  stop();
}

void JobScalarsFeed::start() {
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      wake_.wait_for(lock, every_, [this] { return stopping_; });
      lock.unlock();
      pass();
      lock.lock();
    }
  });
}

void JobScalarsFeed::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void JobScalarsFeed::say_once(bool& said, const std::string& line) {
  if (!said) log_(line);
  said = true;
}

void JobScalarsFeed::pass() {
  auto update = reader_->poll();
  if (!update) {
    // Nothing written yet: no directory, and nothing to say.
    if (update.error().remote_exception != "FileNotFoundException") {
      say_once(read_failing_,
               "MLflow: the job's scalars cannot be read from its output for now: " + update.error().message);
    }
    return;
  }
  read_failing_ = false;
  for (const auto& run : update->runs) {
    for (const auto& point : run.points) scalars_.add(run.run, point.tag, point.step, point.wall_time, point.value);
  }
  if (scalars_.keep_newest(most_unsent) > 0) {
    say_once(dropped_, "MLflow: the oldest scalars the run did not take are left to the client that closes it");
  }
  (void)scalars_.send(client_, log_);
}

std::unique_ptr<JobScalarsFeed> start_job_scalars_feed(const ContainerContext& context, const JobSpec& spec,
                                                       const JobScalarsFeed::Log& log) {
  const char* run_id = std::getenv(container_contract::mlflow_run_variable);
  const auto tracking_uri = spec.env.find("MLFLOW_TRACKING_URI");
  if (!run_id || !*run_id || tracking_uri == spec.env.end() || !is_hdfs_location(spec.output)) return nullptr;
  auto credentials = yarn::Credentials::read_file(context.token_file);
  if (!credentials) {
    log("MLflow: the job's scalars go to its run when it ends, not while it trains: " + credentials.error().message);
    return nullptr;
  }
  use_mlflow_credentials(*credentials, log);
  auto hdfs = container_hdfs(context);
  if (!hdfs) {
    log("MLflow: the job's scalars go to its run when it ends, not while it trains: " + hdfs.error().message);
    return nullptr;
  }
  auto feed = std::make_unique<JobScalarsFeed>(std::move(*hdfs), spec.output, tracking_uri->second, run_id, log,
                                               std::chrono::seconds(10));
  feed->start();
  return feed;
}

}  // namespace spindle::container

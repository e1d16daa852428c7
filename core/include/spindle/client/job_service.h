#pragma once

// What a front end asks of the cluster, answered one way whether this
// machine talks to YARN and HDFS itself or through a Spindle server
// (`spindle serve`). The desktop app holds one service, chosen once from its
// settings; no view knows which one it has. Calls block, may run on any
// thread, and one service may be used from several threads at once.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spindle/client/container_logs.h"
#include "spindle/client/dashboard_client.h"
#include "spindle/client/history_store.h"
#include "spindle/client/submit.h"
#include "spindle/client/sweeps.h"
#include "spindle/client/will_it_fit.h"
#include "spindle/core/job_status.h"
#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

struct ScalarPage {
  std::vector<MetricPoint> points;    // what the job's code wrote, not its containers' usage
  std::vector<std::string> problems;  // files that could not be read, each in a sentence
};

// The cluster as a job designer needs it: where it is asked, its nodes and
// queues, and the largest container it grants.
struct ClusterOverview {
  std::string resource_manager;  // the ResourceManager's address, or the server's
  ClusterState state;
  std::int64_t max_memory_mib = 0;
  std::int64_t max_vcores = 0;
  std::optional<std::int64_t> max_gpus;  // the scheduler's own maximum, when it was told
};

struct JobOnRecord {
  JobHistoryEntry entry;  // with the spec kept at submit
  std::optional<JobStatus> status;
  std::string mlflow_run_url;              // the job's MLflow run, when it has one
  std::vector<MetricPoint> container_use;  // source "container"
};

struct JobNow {
  bool reported = false;         // the ResourceManager answered
  std::optional<Error> problem;  // why it did not
  std::string yarn_state;        // RUNNING, FINISHED, ...
  std::string final_status;      // UNDEFINED, SUCCEEDED, ...
  std::string diagnostics;
  std::string tracking_url;
  bool finished = false;
  std::string mlflow_run_url;
  std::string mlflow_note;  // once the job ended: its run was closed, or why not
  std::optional<JobStatus> status;
};

// What following a job tells as it goes, from the thread that follows.
struct FollowReport {
  std::function<void(const std::string&)> state_changed;  // YARN's state: ACCEPTED, RUNNING, ...
  std::function<void(const JobEvent&)> event;             // the master's events, where they reach this machine
  std::function<void(int allocated, int registered)> containers;
};

// How a followed job ended: YARN's final status and the diagnostics.
struct FollowedEnd {
  std::string final_status;
  std::string diagnostics;
};

class JobService {
 public:
  virtual ~JobService() = default;

  // The name the cluster knows this user by, which the history records
  // jobs under: the short name of the Kerberos principal under the
  // cluster's auth_to_local rules, else the Hadoop user name; through a
  // server, the user it acts for.
  virtual Result<std::string> user() = 0;
  // Whether this machine reaches the cluster's own network (the
  // ResourceManager's pages, a tracking URL); through a server it does not.
  virtual bool reaches_cluster_network() const = 0;

  // Submits the job (see submit_job); through a server, the spec's local
  // files go along with it and `options`' progress gets one line.
  virtual Result<SubmittedJob, SubmitError> submit(const JobSpec& spec, const SubmitOptions& options) = 0;
  // Follows the submitted job until it ends (or `stop` is set: then an
  // error saying so), telling `report` as it goes. A minute without an
  // answer from the cluster ends it with that error.
  virtual Result<FollowedEnd> follow(const JobSpec& spec, const std::string& application_id, const FollowReport& report,
                                     const std::atomic<bool>& stop) = 0;

  // The cluster's nodes and queues now.
  virtual Result<ClusterState> cluster_state() = 0;
  // The same with the largest container: the scheduler's maximum, which only
  // a new application is told, asked directly; through a server, the
  // largest running node.
  virtual Result<ClusterOverview> cluster_overview() = 0;
  // One log file of a task's container, wherever the logs are now.
  virtual Result<RemoteLog> task_log(const std::string& application_id, const LogContainer& container,
                                     const std::string& file) = 0;
  // Kills the job and keeps its tasks' last status with its record;
  // `reason` goes to YARN with the kill where it takes one.
  virtual Result<void> kill(const std::string& application_id, const std::string& reason) = 0;
  // Brings the history at `history` up to date: the jobs it thinks
  // unfinished (`unfinished`), or every job the server lists.
  virtual Result<void> refresh_history(const std::filesystem::path& history,
                                       const std::vector<std::string>& unfinished) = 0;
  // Whether the cluster holds a packed Python environment of this name, so
  // that a submit uploads nothing; nullopt when the question is not this
  // machine's (a server packs and ships the environment from its own).
  virtual Result<std::optional<bool>> holds_python_env(const std::string& name) = 0;
  // The training scalars the job wrote since the last call for it (the
  // service keeps its place in each job): read from the event files under
  // `output_location` by this machine, or by the server. They also go into
  // this machine's history. No output location, nothing to read: an empty page.
  virtual Result<ScalarPage> new_scalars(const std::string& application_id, const std::string& output_location) = 0;
  // What is known of the job when a view opens it (from the history at
  // `history` here, or the server's); a not_found error when it is unknown.
  virtual Result<JobOnRecord> job_on_record(const std::filesystem::path& history,
                                            const std::string& application_id) = 0;
  // The job now, as its view follows it: the ResourceManager's report and
  // the application master's status; once it ended, its status is kept and
  // its MLflow runs are closed.
  virtual JobNow job_now(const std::string& application_id) = 0;
  // Every training scalar the job wrote so far, read afresh.
  virtual Result<std::vector<MetricPoint>> all_scalars(const std::string& application_id,
                                                       const std::string& output_location) = 0;
  // The address a browser opens for the job's TensorBoard when the service
  // serves it; nullopt when this machine must proxy the TensorBoard itself.
  virtual std::optional<std::string> served_tensorboard_url(const std::string& application_id) const = 0;

  // Sweeps (docs/sweeps.md): this machine's (or the server's), newest first;
  // one with every trial's metric by step; killing it; ending one trial,
  // stopped (as the sweep stops one) or killed.
  virtual Result<std::vector<SweepView>> sweeps() = 0;
  virtual Result<SweepDetail> sweep(const std::string& sweep_id) = 0;
  virtual Result<void> kill_sweep(const std::string& sweep_id) = 0;
  virtual Result<void> end_trial(const std::string& sweep_id, int trial, bool stop) = 0;
};

// Talks to YARN and HDFS with the configuration `load` gives, loaded at the
// first call that needs the cluster (and again after it failed): what this
// machine's history holds is answered without one.
using ConfigurationLoader = std::function<Result<yarn::HadoopConfiguration>()>;
std::unique_ptr<JobService> direct_job_service(ConfigurationLoader load);
// Asks the Spindle server at this address.
std::unique_ptr<JobService> server_job_service(DashboardClient server);

}  // namespace spindle::client

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <set>

#include "client/service/follow_loop.h"
#include "spindle/client/job_service.h"
#include "spindle/core/spec_writer.h"

namespace spindle::client {
namespace {

// A Spindle server asked over its API: it reaches the cluster, this machine
// reaches only the server.
class ServerJobService final : public JobService {
 public:
  explicit ServerJobService(DashboardClient server) : server_(std::move(server)) {}

  Result<std::string> user() override { return server_.user(); }
  bool reaches_cluster_network() const override { return false; }

  Result<SubmittedJob, SubmitError> submit(const JobSpec& spec, const SubmitOptions& options) override {
    // The server's machine has not got this one's files: they go along with the spec.
    auto files = read_files_to_send(spec);
    if (!files) return files.error();
    if (options.progress) options.progress("submitting through the Spindle server at " + server_.address().url);
    auto accepted = server_.submit(to_yaml(spec), *files);
    if (!accepted) return accepted.error();
    return SubmittedJob{std::move(*accepted), {}, std::nullopt};
  }

  Result<FollowedEnd> follow(const JobSpec&, const std::string& application_id, const FollowReport& report,
                             const std::atomic<bool>& stop) override {
    std::set<std::string> allocated;
    std::set<std::string> registered;
    std::optional<RemoteJob> last;
    auto followed = follow_until_finished(
        stop, report,
        [&]() -> Result<FollowLook> {
          auto job = server_.job(application_id);
          if (!job) return job.error();
          last = std::move(*job);
          bool changed = false;
          if (last->status) {
            for (const auto& task : last->status->tasks) {
              if (!task.container.empty()) changed |= allocated.insert(task.task).second;
              if (!task.address.empty()) changed |= registered.insert(task.task).second;
            }
          }
          if (changed && report.containers) {
            report.containers(static_cast<int>(allocated.size()), static_cast<int>(registered.size()));
          }
          return FollowLook{last->yarn_state, last->finished};
        },
        [&] { sleep_unless(stop, std::chrono::seconds(1)); });
    if (!followed) return followed.error();
    return FollowedEnd{last->final_status, last->entry.diagnostics};
  }

  Result<ClusterState> cluster_state() override { return server_.cluster(); }

  Result<ClusterOverview> cluster_overview() override {
    auto state = server_.cluster();
    if (!state) return state.error();
    ClusterOverview overview;
    overview.resource_manager = server_.address().url;
    // The server makes no application to ask the scheduler, so the largest running node stands for it.
    for (const auto& node : state->nodes) {
      if (node.state != "RUNNING") continue;
      overview.max_memory_mib = std::max<std::int64_t>(overview.max_memory_mib, node.capability.memory_mib);
      overview.max_vcores = std::max<std::int64_t>(overview.max_vcores, node.capability.vcores);
    }
    overview.state = std::move(*state);
    return overview;
  }

  Result<RemoteLog> task_log(const std::string& application_id, const LogContainer& container,
                             const std::string& file) override {
    // The server finds the task's container and its NodeManager, or the aggregated logs, itself.
    return server_.log(application_id, container.task, file);
  }

  Result<void> kill(const std::string& application_id, const std::string&) override {
    return server_.kill(application_id);
  }

  Result<void> refresh_history(const std::filesystem::path& history, const std::vector<std::string>&) override {
    // The server's list goes into this machine's history, which the front end shows.
    auto jobs = server_.jobs();
    if (!jobs) return jobs.error();
    auto store = history.empty() ? HistoryStore::open() : HistoryStore::open(history);
    if (!store) return store.error();
    for (const auto& job : *jobs) {
      if (auto recorded = store->record_job(job); !recorded) return recorded.error();
      if (auto state = store->record_state(job.application_id, job.state, job.diagnostics, job.started_ms,
                                           job.finished_ms, job.tracking_url);
          !state) {
        return state.error();
      }
    }
    return {};
  }

  Result<std::optional<bool>> holds_python_env(const std::string&) override {
    // The server packs and ships the environment from its own machine at submit.
    return std::optional<bool>{};
  }

  Result<ScalarPage> new_scalars(const std::string& application_id, const std::string&) override {
    // The server reads the event files itself and keeps the points in its history.
    std::uint64_t after = 0;
    {
      std::lock_guard lock(mutex_);
      after = next_[application_id];
    }
    auto answer = server_.metrics(application_id, after);
    if (!answer) return answer.error();
    ScalarPage page;
    for (auto& point : answer->points) {
      if (point.source != "container") page.points.push_back(std::move(point));
    }
    std::lock_guard lock(mutex_);
    next_[application_id] = answer->next;
    return page;
  }

  Result<JobOnRecord> job_on_record(const std::filesystem::path&, const std::string& application_id) override {
    auto remote = server_.job(application_id);
    if (!remote) return remote.error();
    auto spec = server_.spec(application_id);
    if (!spec) return spec.error();
    JobOnRecord record;
    record.entry = std::move(remote->entry);
    record.entry.spec_yaml = std::move(*spec);
    record.status = std::move(remote->status);
    record.mlflow_run_url = remote->mlflow_run;
    // The usage chart starts from what the server kept; without it, from the next point on.
    if (auto points = server_.metrics(application_id, 0)) {
      for (auto& point : points->points) {
        if (point.source == "container") record.container_use.push_back(std::move(point));
      }
    }
    return record;
  }

  JobNow job_now(const std::string& application_id) override {
    JobNow now;
    auto remote = server_.job(application_id);
    if (!remote) {
      now.problem = remote.error();
      return now;
    }
    now.reported = true;
    now.yarn_state = remote->yarn_state;
    now.final_status = remote->final_status;
    now.diagnostics = remote->entry.diagnostics;
    now.tracking_url = remote->entry.tracking_url;
    now.finished = remote->finished;
    now.mlflow_run_url = remote->mlflow_run;
    now.status = std::move(remote->status);
    return now;
  }

  Result<std::vector<MetricPoint>> all_scalars(const std::string& application_id, const std::string&) override {
    // The server reads the event files where the cluster keeps them.
    auto answer = server_.metrics(application_id, 0);
    if (!answer) return answer.error();
    std::vector<MetricPoint> points;
    for (auto& point : answer->points) {
      if (point.source != "container") points.push_back(std::move(point));  // not memory and CPU
    }
    return points;
  }

  std::optional<std::string> served_tensorboard_url(const std::string& application_id) const override {
    // The server's own proxy serves it, behind the same token.
    return server_.browser_url("/tb/" + application_id + "/");
  }

  Result<std::vector<SweepView>> sweeps() override {
    auto answer = server_.call("GET", "sweeps");
    if (!answer) return answer.error();
    const auto json = nlohmann::json::parse(*answer, nullptr, false);
    if (!json.is_object() || !json.contains("sweeps") || !json["sweeps"].is_array()) {
      return make_error("the server's list of sweeps could not be read");
    }
    std::vector<SweepView> views;
    for (const auto& one : json["sweeps"]) {
      auto detail = sweep_detail_from_json(one);
      if (!detail) return detail.error();
      views.push_back(std::move(detail->view));
    }
    return views;
  }

  Result<SweepDetail> sweep(const std::string& sweep_id) override {
    auto answer = server_.call("GET", "sweeps/" + sweep_id);
    if (!answer) return answer.error();
    return sweep_detail_from_json(nlohmann::json::parse(*answer, nullptr, false));
  }

  Result<void> kill_sweep(const std::string& sweep_id) override {
    auto answer = server_.call("POST", "sweeps/" + sweep_id + "/kill");
    if (!answer) return answer.error();
    return {};
  }

  Result<void> end_trial(const std::string& sweep_id, int trial, bool stop) override {
    auto answer =
        server_.call("POST", "sweeps/" + sweep_id + "/trials/" + std::to_string(trial) + (stop ? "/stop" : "/kill"));
    if (!answer) return answer.error();
    return {};
  }

 private:
  const DashboardClient server_;
  std::mutex mutex_;
  std::map<std::string, std::uint64_t> next_;  // per job: ask for the points after this one
};

}  // namespace

std::unique_ptr<JobService> server_job_service(DashboardClient server) {
  return std::make_unique<ServerJobService>(std::move(server));
}

}  // namespace spindle::client

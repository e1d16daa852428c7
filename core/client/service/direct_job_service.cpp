#include <map>
#include <mutex>
#include <set>

#include "client/service/follow_loop.h"
#include "spindle/client/cluster_cache.h"
#include "spindle/client/hdfs_log_files.h"
#include "spindle/client/job_actions.h"
#include "spindle/client/job_connection.h"
#include "spindle/client/job_service.h"
#include "spindle/client/mlflow_tracking.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/cluster_identity.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/web_tls.h"

namespace spindle::client {
namespace {

// YARN and HDFS asked from this machine. What is kept between calls (log
// readers, the connections to jobs followed) is kept per job, under a lock.
class DirectJobService final : public JobService {
 public:
  explicit DirectJobService(ConfigurationLoader load) : load_(std::move(load)) {}

  Result<std::string> user() override {
    auto loaded = configuration();
    if (!loaded) return yarn::hadoop_user_name();  // no cluster set up: the name its history would use
    return yarn::cluster_user(*loaded);
  }
  bool reaches_cluster_network() const override { return true; }

  Result<SubmittedJob, SubmitError> submit(const JobSpec& spec, const SubmitOptions& options) override {
    auto loaded = configuration();
    if (!loaded) return SubmitError{SubmitError::Kind::cluster, loaded.error().message};
    const auto& config = *loaded;
    return submit_job(spec, config, options);
  }

  Result<FollowedEnd> follow(const JobSpec& spec, const std::string& application_id, const FollowReport& report,
                             const std::atomic<bool>& stop) override {
    auto loaded = configuration();
    if (!loaded) return loaded.error();
    const auto& config = *loaded;
    auto opened = JobConnection::open(with_login(config, spec), application_id);
    if (!opened) return opened.error();
    auto& job = *opened;
    std::set<std::string> allocated;
    std::set<std::string> registered;
    std::uint64_t seen = 0;
    auto followed = follow_until_finished(
        stop, report,
        [&job]() -> Result<FollowLook> {
          auto answer = job.report();
          if (!answer) return answer.error();
          return FollowLook{answer->state, answer->finished()};
        },
        [&] {
          const auto events = job.events_after(seen, std::chrono::seconds(1));
          for (const auto& event : events) {
            seen = event.sequence;
            if (report.event) report.event(event);
            if (event.kind == "allocated") allocated.insert(event.task);
            if (event.kind == "registered") registered.insert(event.task);
          }
          if (!events.empty()) {
            if (report.containers) {
              report.containers(static_cast<int>(allocated.size()), static_cast<int>(registered.size()));
            }
            (void)job.live_status();
          } else {
            sleep_unless(stop, std::chrono::milliseconds(300));
          }
        });
    if (!followed) return followed.error();
    // The application master answers for a moment after unregistering.
    for (const auto& event : job.events_after(seen, std::chrono::milliseconds(0))) {
      if (report.event) report.event(event);
    }
    (void)job.live_status();
    job.remember_final_status();
    auto final = job.report();
    if (!final) return final.error();
    return FollowedEnd{final->final_status, final->diagnostics};
  }

  Result<ClusterState> cluster_state() override {
    auto loaded = configuration();
    if (!loaded) return loaded.error();
    const auto& config = *loaded;
    yarn::ApplicationClient client(yarn::ApplicationClient::options_for(config));
    return read_cluster_state(client);
  }

  Result<ClusterOverview> cluster_overview() override {
    auto loaded = configuration();
    if (!loaded) return loaded.error();
    const auto& config = *loaded;
    ClusterOverview overview;
    const auto addresses = config.resource_manager_addresses(yarn::RmService::client);
    if (!addresses.empty()) overview.resource_manager = addresses.front();
    yarn::ApplicationClient client(yarn::ApplicationClient::options_for(config));
    auto root = client.queue("root", true);
    if (!root) return root.error();
    auto nodes = client.nodes();
    if (!nodes) return nodes.error();
    overview.state.nodes = std::move(*nodes);
    overview.state.root = std::move(*root);
    auto created = client.new_application();
    if (!created) return created.error();
    overview.max_memory_mib = created->maximum.memory_mib;
    overview.max_vcores = created->maximum.vcores;
    if (const auto gpus = created->maximum.others.find("yarn.io/gpu"); gpus != created->maximum.others.end()) {
      // Until the scheduler has seen the nodes' GPUs, its maximum can be
      // "unlimited" (the largest 64-bit value); the caller compares.
      overview.max_gpus = gpus->second;
    }
    // Logs and scheduler details come from the web servers: where they speak
    // only HTTPS, a certificate this machine will not trust is said now, not
    // at the first log view.
    if (yarn::https_only(config, yarn::WebService::yarn)) {
      auto web = yarn::ResourceManagerRest::from_configuration(config).cluster_info();
      if (!web) return web.error();
    }
    return overview;
  }

  Result<RemoteLog> task_log(const std::string& application_id, const LogContainer& container,
                             const std::string& file) override {
    std::lock_guard lock(logs_mutex_);
    auto found = logs_.find(application_id);
    if (found == logs_.end()) {
      auto loaded = configuration();
      if (!loaded) return loaded.error();
      auto opened = ContainerLogs::open(*loaded, application_id);
      if (!opened) return opened.error();
      found = logs_.emplace(application_id, std::move(*opened)).first;
    }
    auto read = found->second.read(container, {file});
    if (!read) return read.error();
    for (auto& log : *read) {
      if (log.file == file) return RemoteLog{std::move(log.contents), log.aggregated};
    }
    return make_error(container.task + " has no " + file + " log; it may never have started");
  }

  Result<void> kill(const std::string& application_id, const std::string& reason) override {
    auto loaded = configuration();
    if (!loaded) return loaded.error();
    const auto& config = *loaded;
    auto job = JobConnection::open(config, application_id);
    if (!job) return job.error();
    auto killed = kill_job(*job, config, reason);
    if (!killed) return killed.error();
    if (!killed->accepted) return make_error("The ResourceManager did not confirm the kill within 60 s.");
    return {};
  }

  Result<void> refresh_history(const std::filesystem::path&, const std::vector<std::string>& unfinished) override {
    if (unfinished.empty()) return {};
    auto loaded = configuration();
    if (!loaded) return loaded.error();
    const auto& config = *loaded;
    // Each job's connection writes what it learns into the history it was recorded in.
    std::lock_guard lock(jobs_mutex_);
    // The first failure is the one told; the other jobs are still asked about.
    std::optional<Error> first;
    const auto note = [&first](const std::string& id, const Error& error) {
      if (first) return;
      first = error;
      first->message = id + ": " + error.message;
    };
    for (const auto& id : unfinished) {
      auto& job = jobs_[id];
      if (!job) {
        auto opened = JobConnection::open(config, id);
        if (!opened) {
          note(id, opened.error());
          jobs_.erase(id);
          continue;
        }
        job = std::make_unique<JobConnection>(std::move(*opened));
      }
      auto report = job->report();
      if (!report) {
        note(id, report.error());
        continue;
      }
      if (auto* history = job->history()) {
        const auto seen = history->last_event_sequence(id);
        (void)job->events_after(seen ? *seen : 0, std::chrono::milliseconds(0));
      }
      (void)job->live_status();
      if (report->finished()) {
        job->remember_final_status();
        jobs_.erase(id);
      }
    }
    if (first) return *first;
    return {};
  }

  Result<std::optional<bool>> holds_python_env(const std::string& name) override {
    auto loaded = configuration();
    if (!loaded) return loaded.error();
    const auto& config = *loaded;
    auto cache = ClusterCache::open(config, CacheArea::python_environments);
    if (!cache) return cache.error();
    auto found = (*cache)->find(name);
    if (!found) return found.error();
    return std::optional<bool>(found->has_value());
  }

  Result<ScalarPage> new_scalars(const std::string& application_id, const std::string& output_location) override {
    ScalarPage page;
    if (output_location.empty()) return page;
    std::lock_guard lock(scalars_mutex_);
    auto found = scalars_.find(application_id);
    if (found == scalars_.end() || found->second.location != output_location) {
      auto opened = log_directory(output_location);
      if (!opened) return opened.error();
      scalars_.erase(application_id);
      found = scalars_.emplace(application_id, Scalars{output_location, std::move(*opened)}).first;
    }
    auto update = found->second.directory.poll();
    if (!update) return update.error();
    for (const auto& problem : update->problems) page.problems.push_back(problem.message);
    page.points = training_points(*update);
    if (!page.points.empty()) {
      // As `spindle metrics` keeps them; a history that cannot be opened leaves the points shown all the same.
      if (!history_tried_) {
        history_tried_ = true;
        if (auto store = HistoryStore::open()) history_ = std::make_unique<HistoryStore>(std::move(*store));
      }
      if (history_) {
        if (auto kept = history_->record_metrics(application_id, page.points); !kept) {
          page.problems.push_back("the scalars could not be kept in the history: " + kept.error().message);
        }
      }
    }
    return page;
  }

  Result<JobOnRecord> job_on_record(const std::filesystem::path& history, const std::string& application_id) override {
    auto store = history.empty() ? HistoryStore::open() : HistoryStore::open(history);
    if (!store) return store.error();
    auto entry = store->job(application_id);
    if (!entry) return entry.error();
    if (!*entry) {
      Error unknown = make_error(application_id + " is not in the job history");
      unknown.kind = Error::Kind::not_found;
      return unknown;
    }
    JobOnRecord record;
    record.entry = std::move(**entry);
    if (auto run = store->tracking_run(application_id); run && *run) record.mlflow_run_url = (*run)->url();
    if (auto attempts = store->attempts(application_id); attempts && !attempts->empty()) {
      record.status = status_from_history(record.entry, *attempts);
    }
    if (auto points = store->metrics(application_id)) {
      for (auto& point : *points) {
        if (point.source == "container") record.container_use.push_back(std::move(point));
      }
    }
    return record;
  }

  JobNow job_now(const std::string& application_id) override {
    JobNow now;
    std::lock_guard lock(jobs_mutex_);
    auto& job = followed_[application_id];
    if (!job) {
      auto loaded = configuration();
      auto opened = loaded ? JobConnection::open(*loaded, application_id) : Result<JobConnection>(loaded.error());
      if (!opened) {
        followed_.erase(application_id);
        now.problem = opened.error();
        return now;
      }
      job = std::make_unique<JobConnection>(std::move(*opened));
    }
    auto report = job->report();
    if (!report) {
      now.problem = report.error();
      now.status = job->last_status();
      return now;
    }
    now.reported = true;
    now.yarn_state = report->state;
    now.final_status = report->final_status;
    now.diagnostics = report->diagnostics;
    now.tracking_url = report->tracking_url;
    now.finished = report->finished();
    if (!now.finished) now.status = job->live_status();
    if (now.finished) job->remember_final_status();
    if (!now.status) now.status = job->last_status();
    if (auto* history = job->history()) {
      if (now.finished) {
        finish_ended_tracking_runs(*history, [&now](const std::string& line) {
          now.mlflow_note += (now.mlflow_note.empty() ? "" : "\n") + line;
        });
      }
      if (auto run = history->tracking_run(application_id); run && *run) now.mlflow_run_url = (*run)->url();
    }
    return now;
  }

  Result<std::vector<MetricPoint>> all_scalars(const std::string&, const std::string& output_location) override {
    if (output_location.empty()) return make_error("its spec names no output directory, so it has no event files");
    auto directory = log_directory(output_location);
    if (!directory) return directory.error();
    auto update = directory->poll();
    if (!update) return update.error();
    return training_points(*update);
  }

  std::optional<std::string> served_tensorboard_url(const std::string&) const override { return std::nullopt; }

  Result<std::vector<SweepView>> sweeps() override {
    auto config = configuration();
    if (!config) return config.error();
    return list_sweeps(*config);
  }

  Result<SweepDetail> sweep(const std::string& sweep_id) override {
    auto config = configuration();
    if (!config) return config.error();
    auto view = read_sweep(*config, sweep_id);
    if (!view) return view.error();
    SweepDetail detail{std::move(*view), {}, {}};
    auto series = read_trial_metrics(*config, detail.view.record);
    if (series) {
      detail.series = std::move(*series);
    } else {
      detail.series_problem = series.error().message;
    }
    return detail;
  }

  Result<void> kill_sweep(const std::string& sweep_id) override {
    auto config = configuration();
    if (!config) return config.error();
    auto killed = client::kill_sweep(*config, sweep_id);
    if (!killed) return killed.error();
    return {};
  }

  Result<void> end_trial(const std::string& sweep_id, int trial, bool stop) override {
    auto config = configuration();
    if (!config) return config.error();
    return client::end_trial(*config, sweep_id, trial, stop);
  }

 private:
  // Loaded at the first call that needs the cluster, and again after a
  // failure: reading the history needs none.
  Result<yarn::HadoopConfiguration> configuration() {
    std::lock_guard lock(configuration_mutex_);
    if (!configuration_) {
      auto loaded = load_();
      if (!loaded) return loaded.error();
      configuration_ = std::move(*loaded);
    }
    return *configuration_;
  }

  // HDFS as the configuration says; a local directory needs none.
  Result<JobLogDirectory> log_directory(const std::string& location) {
    if (!location.starts_with("hdfs://")) return JobLogDirectory::open(location);
    auto loaded = configuration();
    if (!loaded) return loaded.error();
    return JobLogDirectory::open(location, *loaded);
  }

  const ConfigurationLoader load_;
  std::mutex configuration_mutex_;
  std::optional<yarn::HadoopConfiguration> configuration_;
  std::mutex logs_mutex_;
  std::map<std::string, ContainerLogs> logs_;
  std::mutex jobs_mutex_;
  std::map<std::string, std::unique_ptr<JobConnection>> jobs_;      // those whose history is refreshed
  std::map<std::string, std::unique_ptr<JobConnection>> followed_;  // those a view follows
  struct Scalars {
    std::string location;
    JobLogDirectory directory;
  };
  std::mutex scalars_mutex_;
  std::map<std::string, Scalars> scalars_;
  bool history_tried_ = false;
  std::unique_ptr<HistoryStore> history_;
};

}  // namespace

std::unique_ptr<JobService> direct_job_service(ConfigurationLoader load) {
  return std::make_unique<DirectJobService>(std::move(load));
}

}  // namespace spindle::client

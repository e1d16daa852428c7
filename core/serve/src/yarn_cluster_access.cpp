// The dashboard's window on the cluster: the same client library the CLI
// and the desktop app use, one connection kept per job a browser looks at.

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

#include "spindle/client/container_logs.h"
#include "spindle/client/hdfs_log_files.h"
#include "spindle/client/history_store.h"
#include "spindle/client/job_actions.h"
#include "spindle/client/job_connection.h"
#include "spindle/client/serve_api.h"
#include "spindle/client/submit.h"
#include "spindle/client/sweeps.h"
#include "spindle/client/tensorboard_lookup.h"
#include "spindle/client/will_it_fit.h"
#include "spindle/core/clock.h"
#include "spindle/core/spec_parser.h"
#include "spindle/core/token_expiry.h"
#include "spindle/core/version.h"
#include "spindle/serve/cluster_access.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/cluster_identity.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "uploaded_files.h"

namespace spindle::serve {

using json = nlohmann::ordered_json;

ApiReply refusal(int status, std::string sentence) {
  return {status, client::serve_api::refusal_json(sentence)};
}

namespace {

ApiReply cluster_refusal(const Error& error) {
  return refusal(error.kind == Error::Kind::not_found ? 404 : 502, error.message);
}

// `check_files`: off when the client sends the spec's local files, which are
// not on this machine until they are written (see UploadedFiles).
Result<JobSpec, Diagnostics> parse_browser_spec(const std::string& text, bool check_files = true) {
  SpecParseOptions options;
  options.source_name = "spec";
  options.check_files = check_files;
  return parse_job_spec(text, options);
}

// What the server keeps of one job a browser follows.
struct FollowedJob {
  std::mutex mutex;
  std::optional<client::JobConnection> connection;
  std::optional<client::ContainerLogs> logs;
  std::optional<client::JobLogDirectory> scalars;
  bool scalars_opened = false;
  std::string owner;
  // Every point in the order it was first seen here (see ClusterAccess::metrics).
  std::vector<client::MetricPoint> points_in_order;
  double newest_point = 0;  // see poll_scalars
  std::set<std::tuple<std::string, std::string, std::string, std::int64_t, double>> points_seen;
};

class YarnClusterAccess final : public ClusterAccess {
 public:
  explicit YarnClusterAccess(std::function<Result<yarn::HadoopConfiguration>()> configuration)
      : read_configuration_(std::move(configuration)) {}

  ApiReply session() override {
    auto configuration = this->configuration();
    if (!configuration) return refusal(503, configuration.error().message);
    return {200, client::serve_api::session_json({user_, version})};
  }

  ApiReply jobs(bool include_finished, const std::string& search) override {
    auto configuration = this->configuration();
    if (!configuration) return refusal(503, configuration.error().message);
    std::lock_guard lock(history_mutex_);
    auto history = this->history();
    if (!history) return refusal(500, history.error().message);
    yarn::ApplicationClient client(yarn::ApplicationClient::options_for(*configuration));
    client::serve_api::JobsPage page;
    std::set<std::string> forgotten;
    if (auto refreshed = client::refresh_history_from_cluster(**history, client, include_finished)) {
      forgotten = std::move(*refreshed);
    } else {
      page.cluster_problem = "The cluster could not be asked; this is the history only: " + refreshed.error().message;
    }
    auto jobs = (*history)->jobs(client::JobFilter{include_finished, search, 500});
    if (!jobs) return refusal(500, jobs.error().message);
    for (auto& job : *jobs) {
      if (!user_.empty() && !job.user.empty() && job.user != user_) continue;
      if (forgotten.contains(job.application_id)) job.state = "unknown";
      page.jobs.push_back(std::move(job));
    }
    return {200, client::serve_api::jobs_page_json(page)};
  }

  ApiReply job(const std::string& application_id) override {
    return with_own_job(application_id, [&](FollowedJob& job) -> ApiReply {
      auto& connection = *job.connection;
      auto report = connection.report();
      if (!report) return cluster_refusal(report.error());
      client::RemoteJob remote;
      remote.entry.application_id = application_id;
      remote.entry.name = report->name;
      remote.entry.user = report->user;
      remote.entry.queue = report->queue;
      remote.entry.state = std::string(to_string(job_state_of_yarn(report->state, report->final_status)));
      remote.entry.diagnostics = report->diagnostics;
      remote.entry.tracking_url = report->tracking_url;
      remote.entry.started_ms = report->start_time;
      remote.entry.finished_ms = report->finish_time;
      remote.yarn_state = report->state;
      remote.final_status = report->final_status;
      remote.finished = report->finished();
      remote.status = connection.last_status();
      bool has_tensorboard = remote.status && !remote.status->tensorboard_address.empty();
      if (remote.status) {
        for (const auto& task : remote.status->tasks) has_tensorboard |= task.task.starts_with("tensorboard:");
      }
      if (has_tensorboard) remote.tensorboard_path = "/tb/" + application_id + "/";
      if (remote.status && !remote.finished) {
        remote.tokens_notice =
            tokens_end_notice(remote.status->tokens_end_ms, remote.status->tokens_end_kind, wall_clock_ms());
      }
      const auto newest_point = poll_scalars(job, application_id, remote.status);
      if (auto* history = connection.history()) {
        if (auto run = history->tracking_run(application_id); run && run->has_value())
          remote.mlflow_run = (*run)->url();
      }
      return {200, client::serve_api::remote_job_json(remote, newest_point)};
    });
  }

  ApiReply spec(const std::string& application_id) override {
    std::lock_guard lock(history_mutex_);
    auto history = this->history();
    if (!history) return refusal(500, history.error().message);
    auto job = (*history)->job(application_id);
    if (!job) return refusal(500, job.error().message);
    if (!job->has_value() || (*job)->spec_yaml.empty()) {
      return refusal(404, "This machine keeps no spec of " + application_id + "; only jobs submitted here have one.");
    }
    if (!user_.empty() && !(*job)->user.empty() && (*job)->user != user_) {
      return not_yours(application_id, (*job)->user);
    }
    return {200, client::serve_api::spec_json((*job)->spec_yaml)};
  }

  ApiReply metrics(const std::string& application_id, std::uint64_t after) override {
    return with_own_job(application_id, [&](FollowedJob& job) -> ApiReply {
      auto* history = job.connection->history();
      if (!history) return refusal(500, job.connection->history_problem());
      auto points = history->metrics(application_id);
      if (!points) return refusal(500, points.error().message);
      for (auto& point : *points) {
        if (job.points_seen.emplace(point.source, point.run, point.tag, point.step, point.wall_time).second) {
          job.points_in_order.push_back(std::move(point));
        }
      }
      client::RemotePoints page;
      page.next = job.points_in_order.size();
      const auto first =
          job.points_in_order.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(after, page.next));
      page.points.assign(first, job.points_in_order.end());
      return {200, client::serve_api::points_json(page)};
    });
  }

  ApiReply logs(const std::string& application_id, const std::string& task, const std::string& file,
                std::uint64_t offset) override {
    return with_own_job(application_id, [&](FollowedJob& job) -> ApiReply {
      auto configuration = this->configuration();
      if (!configuration) return refusal(503, configuration.error().message);
      if (!job.logs) {
        auto opened = client::ContainerLogs::open(*configuration, application_id);
        if (!opened) return cluster_refusal(opened.error());
        job.logs.emplace(std::move(*opened));
      }
      auto place = job.logs->place();
      if (!place) return cluster_refusal(place.error());
      if (*place == client::LogPlace::aggregating || *place == client::LogPlace::not_kept) {
        return refusal(503, job.logs->place_sentence(*place));
      }
      client::LogContainer container;
      if (task == "master") {
        auto masters = job.logs->master_containers();
        if (!masters || masters->empty()) {
          return refusal(404, "The application master's container of " + application_id + " is not known yet.");
        }
        container = masters->back();
      } else {
        const auto status = job.connection->last_status();
        const TaskStatus* found = nullptr;
        if (status) {
          for (const auto& one : status->tasks) {
            if (one.task == task) found = &one;
          }
        }
        if (!found) {
          return refusal(404, "\"" + task + "\" is not a task of " + application_id +
                                  "; tasks are named type:index, such as worker:0, or master.");
        }
        if (found->container.empty()) return refusal(404, task + " has no container yet, so it has no logs.");
        container = {found->task, found->container, found->node, found->node_http_address};
      }
      auto read = job.logs->read(container, {file});
      if (!read) return cluster_refusal(read.error());
      if (read->empty()) return refusal(404, task + " has no log file " + file + ".");
      const auto& text = read->front().contents;
      const auto from = std::min<std::uint64_t>(offset, text.size());
      client::serve_api::LogPiece piece{task, file, container.container, from, text.size(), {}};
      piece.log = {text.substr(from), read->front().aggregated};
      return {200, client::serve_api::log_piece_json(piece)};
    });
  }

  ApiReply kill(const std::string& application_id) override {
    return with_own_job(application_id, [&](FollowedJob& job) -> ApiReply {
      auto configuration = this->configuration();
      if (!configuration) return refusal(503, configuration.error().message);
      auto killed = client::kill_job(*job.connection, *configuration, "killed by its owner in spindle serve");
      if (!killed) return cluster_refusal(killed.error());
      if (!killed->finished) {
        return refusal(504, "The ResourceManager took the kill of " + application_id + ", but it is still " +
                                killed->state + "; look again in a moment.");
      }
      return {200, client::serve_api::killed_json(application_id, *killed)};
    });
  }

  ApiReply cluster() override {
    auto configuration = this->configuration();
    if (!configuration) return refusal(503, configuration.error().message);
    yarn::ApplicationClient client(yarn::ApplicationClient::options_for(*configuration));
    auto state = client::read_cluster_state(client);
    if (!state) return cluster_refusal(state.error());
    return {200, client::serve_api::cluster_json(*state)};
  }

  ApiReply validate(const std::string& spec_text) override {
    // Read first without looking for files: a local file missing here may come from the browser's machine.
    auto spec = parse_browser_spec(spec_text, false);
    if (!spec) return {200, json{{"valid", false}, {"problems", client::serve_api::problems_json(spec.error())}}};
    const auto missing = local_files_not_here(*spec);
    json missing_files = json::array();
    std::set<std::string> missing_fields;
    for (const auto& file : missing) {
      missing_files.push_back({{"key", file.key}, {"name", file.name}, {"source", file.source}});
      missing_fields.insert(file.key + "." + file.name);
    }
    // What the check of files says besides (a python_env that is not here, a file that cannot be read) counts.
    if (auto checked = parse_browser_spec(spec_text, true); !checked) {
      Diagnostics rest;
      for (const auto& problem : checked.error()) {
        if (!missing_fields.contains(problem.field)) rest.push_back(problem);
      }
      if (!rest.empty()) {
        return {200, json{{"valid", false},
                          {"problems", client::serve_api::problems_json(rest)},
                          {"missing_files", missing_files}}};
      }
    }
    json out{{"valid", true}, {"problems", json::array()}, {"name", spec->name}, {"missing_files", missing_files}};
    auto configuration = this->configuration();
    if (!configuration) {
      out["fit_problem"] = configuration.error().message;
      return {200, std::move(out)};
    }
    const auto logged_in = client::with_login(*configuration, *spec);
    yarn::ApplicationClient client(yarn::ApplicationClient::options_for(logged_in));
    auto rest = yarn::ResourceManagerRest::from_configuration(logged_in);
    auto state = client::read_cluster_state(client, &rest);
    if (!state) {
      out["fit_problem"] = "The cluster could not be asked whether the job fits: " + state.error().message;
      return {200, std::move(out)};
    }
    const auto fit = client::will_it_fit(*spec, *state);
    json sentences = json::array();
    for (const auto& type : fit.types) sentences.push_back(type.sentence);
    out["fit"] = {{"fits_now", fit.fits_now()},
                  {"can_ever_fit", fit.can_ever_fit()},
                  {"sentences", std::move(sentences)},
                  {"warnings", fit.warnings}};
    return {200, std::move(out)};
  }

  ApiReply submit(const std::string& spec_text, const std::vector<UploadedFile>& uploads,
                  const std::optional<UploadedKeytab>& keytab) override {
    auto spec = parse_browser_spec(spec_text, uploads.empty());
    if (!spec) {
      ApiReply reply = refusal(400, "The spec has mistakes; nothing was submitted.");
      reply.body["problems"] = client::serve_api::problems_json(spec.error());
      return reply;
    }
    // Kept until the submit has staged them, then removed.
    std::unique_ptr<UploadedFiles> uploaded;
    if (!uploads.empty()) {
      auto placed = UploadedFiles::place(*spec, uploads);
      if (!placed) return refusal(placed.error().kind == Error::Kind::not_found ? 400 : 500, placed.error().message);
      uploaded = std::move(*placed);
    }
    auto configuration = this->configuration();
    if (!configuration) return refusal(503, configuration.error().message);
    std::unique_ptr<UploadedFiles> login;
    if (keytab) {
      if (auto refused = check_keytab(*configuration, *keytab)) return *refused;
      auto placed = UploadedFiles::place_keytab(*spec, *keytab);
      if (!placed) return refusal(500, placed.error().message);
      login = std::move(*placed);
    }
    client::SubmitOptions options;
    auto submitted = client::submit_job(*spec, client::with_login(*configuration, *spec), options);
    if (!submitted) {
      return refusal(submitted.error().kind == client::SubmitError::Kind::bad_input ? 400 : 502,
                     submitted.error().message);
    }
    return {201, client::serve_api::submitted_json(submitted->application_id)};
  }

  tbproxy::UpstreamResolver tensorboards() override {
    return client::submitted_jobs_tensorboards([this] { return configuration(); });
  }

 private:
  struct Followed {
    FollowedJob* job = nullptr;
    std::optional<ApiReply> error_reply;
    explicit operator bool() const { return job != nullptr; }
  };

  Result<yarn::HadoopConfiguration> configuration() {
    std::lock_guard lock(configuration_mutex_);
    if (!configuration_) {
      auto read = read_configuration_();
      if (!read) return read.error();
      configuration_ = std::move(*read);
      if (auto user = yarn::cluster_user(*configuration_)) user_ = *user;
    }
    return *configuration_;
  }

  Result<client::HistoryStore*> history() {
    if (!history_) {
      auto opened = client::HistoryStore::open();
      if (!opened) return opened.error();
      history_.emplace(std::move(*opened));
    }
    return &*history_;
  }

  Followed follow(const std::string& application_id) {
    auto configuration = this->configuration();
    if (!configuration) return {nullptr, refusal(503, configuration.error().message)};
    std::lock_guard lock(jobs_mutex_);
    if (const auto known = followed_.find(application_id); known != followed_.end()) {
      return {known->second.get(), std::nullopt};
    }
    // Only jobs the cluster knows are kept, so unknown ids cost nothing after their answer.
    auto opened = client::JobConnection::open(*configuration, application_id);
    if (!opened) return {nullptr, cluster_refusal(opened.error())};
    auto report = opened->report();
    if (!report) return {nullptr, cluster_refusal(report.error())};
    auto job = std::make_unique<FollowedJob>();
    job->owner = report->user;
    job->connection.emplace(std::move(*opened));
    return {followed_.emplace(application_id, std::move(job)).first->second.get(), std::nullopt};
  }

  // Runs `body` on the job under its lock, once it is known to be this user's.
  template <typename Body>
  ApiReply with_own_job(const std::string& application_id, Body body) {
    auto followed = follow(application_id);
    if (!followed) return *followed.error_reply;
    auto& job = *followed.job;
    std::lock_guard lock(job.mutex);
    if (auto refused = check_owner(application_id, job.owner)) return *refused;
    return body(job);
  }

  ApiReply sweeps() override {
    auto configuration = this->configuration();
    if (!configuration) return refusal(502, configuration.error().message);
    auto views = client::list_sweeps(*configuration);
    if (!views) return refusal(502, views.error().message);
    json list = json::array();
    for (const auto& view : *views) {
      if (!check_owner(view.record.sweep_id, view.record.user)) list.push_back(client::sweep_json(view));
    }
    return {200, json{{"sweeps", list}}};
  }

  ApiReply sweep(const std::string& sweep_id) override {
    auto configuration = this->configuration();
    if (!configuration) return refusal(502, configuration.error().message);
    auto view = client::read_sweep(*configuration, sweep_id);
    if (!view) return cluster_refusal(view.error());
    if (auto refused = check_owner(sweep_id, view->record.user)) return *refused;
    auto body = client::sweep_json(*view);
    json series = json::object();
    if (auto metrics = client::read_trial_metrics(*configuration, view->record)) {
      for (const auto& [trial, samples] : *metrics) {
        json points = json::array();
        for (const auto& sample : samples) points.push_back({sample.step, sample.value});
        series[std::to_string(trial)] = std::move(points);
      }
    } else {
      body["series_problem"] = metrics.error().message;
    }
    body["series"] = std::move(series);
    return {200, std::move(body)};
  }

  ApiReply sweep_kill(const std::string& sweep_id) override {
    auto configuration = this->configuration();
    if (!configuration) return refusal(502, configuration.error().message);
    auto view = client::read_sweep(*configuration, sweep_id);
    if (!view) return cluster_refusal(view.error());
    if (auto refused = check_owner(sweep_id, view->record.user)) return *refused;
    auto killed = client::kill_sweep(*configuration, sweep_id);
    if (!killed) return cluster_refusal(killed.error());
    return {200, json{{"sweep_id", sweep_id}, {"state", "killed"}, {"trials_killed", *killed}}};
  }

  ApiReply trial_end(const std::string& sweep_id, int trial, bool stop) override {
    auto configuration = this->configuration();
    if (!configuration) return refusal(502, configuration.error().message);
    auto view = client::read_sweep(*configuration, sweep_id);
    if (!view) return cluster_refusal(view.error());
    if (auto refused = check_owner(sweep_id, view->record.user)) return *refused;
    auto ended = client::end_trial(*configuration, sweep_id, trial, stop);
    if (!ended) return refusal(409, ended.error().message);
    return {200, json{{"sweep_id", sweep_id}, {"trial", trial}, {"ended", stop ? "stopped" : "killed"}}};
  }

  ApiReply not_yours(const std::string& application_id, const std::string& owner) const {
    return refusal(403, application_id + " belongs to " + owner + "; this server acts for " + user_ +
                            " and shows and kills only " + user_ + "'s jobs.");
  }

  // A keytab is taken only on a Kerberos cluster, and only of a principal
  // the cluster's auth_to_local rules make this server's user: a job of
  // another user would be one this server then refuses to show.
  std::optional<ApiReply> check_keytab(const yarn::HadoopConfiguration& configuration,
                                       const UploadedKeytab& keytab) const {
    if (!yarn::uses_kerberos(configuration)) {
      return refusal(400,
                     "This cluster does not use Kerberos, so a job needs no keytab to outlive its tokens; "
                     "submit without one.");
    }
    auto short_name = yarn::short_name_of(configuration, keytab.principal);
    if (!short_name)
      return refusal(400, "The keytab's principal " + keytab.principal + ": " + short_name.error().message);
    if (!user_.empty() && *short_name != user_) {
      return refusal(403, "The keytab's principal " + keytab.principal + " is the user " + *short_name +
                              " on this cluster, but this server acts for " + user_ +
                              "; send the keytab of a principal that is " + user_ + ".");
    }
    return std::nullopt;
  }

  std::optional<ApiReply> check_owner(const std::string& application_id, const std::string& owner) const {
    if (user_.empty() || owner.empty() || owner == user_) return std::nullopt;
    return not_yours(application_id, owner);
  }

  // New training scalars of the job's event files go into the history. The
  // answer is a time at or after the newest point, which grows as points
  // come: the page fetches the charts' new points when it passes theirs.
  double poll_scalars(FollowedJob& job, const std::string& application_id, const std::optional<JobStatus>& status) {
    auto* history = job.connection->history();
    if (!history) return job.newest_point;
    if (!job.scalars_opened) {
      job.scalars_opened = true;
      if (auto entry = history->job(application_id); entry && entry->has_value()) {
        if (const auto output = (*entry)->output_location(); !output.empty()) {
          if (auto directory = client::JobLogDirectory::open(output)) job.scalars.emplace(std::move(*directory));
        }
      }
    }
    if (job.scalars) {
      if (auto update = job.scalars->poll()) {
        const auto points = client::training_points(*update);
        if (!points.empty()) (void)history->record_metrics(application_id, points);
        for (const auto& point : points) job.newest_point = std::max(job.newest_point, point.wall_time);
      }
    }
    // Reading a running job's status added a point of its containers' use, stamped now.
    const bool usage_recorded =
        status && std::any_of(status->tasks.begin(), status->tasks.end(),
                              [](const TaskStatus& task) { return task.phase == "running" && task.rss_bytes > 0; });
    if (usage_recorded) {
      const auto now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
      job.newest_point = std::max(job.newest_point, now);
    }
    return job.newest_point;
  }

  std::function<Result<yarn::HadoopConfiguration>()> read_configuration_;
  std::mutex configuration_mutex_;
  std::optional<yarn::HadoopConfiguration> configuration_;
  std::string user_;
  std::mutex history_mutex_;
  std::optional<client::HistoryStore> history_;
  std::mutex jobs_mutex_;
  std::map<std::string, std::unique_ptr<FollowedJob>> followed_;
};

}  // namespace

std::shared_ptr<ClusterAccess> yarn_cluster_access(std::function<Result<yarn::HadoopConfiguration>()> configuration) {
  return std::make_shared<YarnClusterAccess>(std::move(configuration));
}

}  // namespace spindle::serve

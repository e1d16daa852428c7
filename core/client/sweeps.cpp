#include "spindle/client/sweeps.h"

#include "client/staging.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "spindle/client/hdfs_log_files.h"
#include "spindle/client/history_store.h"
#include "spindle/client/job_records.h"
#include "spindle/client/mlflow_client.h"
#include "spindle/core/clock.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/cluster_identity.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::client {
namespace {

std::string user_of(const yarn::HadoopConfiguration& configuration) {
  auto user = yarn::cluster_user(configuration);
  return user ? *user : yarn::hadoop_user_name();
}

void keep_in_history(const SweepRecord& record) {
  // The history is this machine's copy; the record in HDFS is the sweep's own.
  if (auto history = HistoryStore::open()) (void)history->record_sweep(record);
  // Each trial is a job this machine can follow like its own (status, logs, metrics, kill).
  JobRecords records;
  for (const auto& trial : record.trials) {
    if (trial.application_id.empty() || trial.secret.empty() || records.load(trial.application_id)) continue;
    JobRecord job;
    job.application_id = trial.application_id;
    job.name = record.name + "-trial-" + std::to_string(trial.parameters.index);
    job.secret = trial.secret;
    job.api_certificate_sha256 = trial.api_pin;
    job.submitted_ms = trial.submitted_ms;
    (void)records.save(job);
  }
}

// What the killed controller had no time to send: every open run of the
// sweep ends as KILLED. Failures are returned as sentences.
std::vector<std::string> end_tracking_runs(SweepRecord& record) {
  std::vector<std::string> problems;
  if (!record.mlflow || record.mlflow->closed) return problems;
  MlflowClient mlflow(record.mlflow->tracking_uri);
  const auto now = wall_clock_ms();
  for (auto& trial : record.trials) {
    if (trial.mlflow_run_id.empty() || trial.mlflow_closed) continue;
    auto ended =
        mlflow.log_batch(trial.mlflow_run_id, {}, {{"spindle.final_state", std::string(to_string(trial.state))}}, {});
    if (ended) ended = mlflow.end_run(trial.mlflow_run_id, "KILLED", trial.ended_ms ? trial.ended_ms : now);
    if (!ended) {
      problems.push_back("trial " + std::to_string(trial.parameters.index) + "'s MLflow run: " + ended.error().message);
      continue;
    }
    trial.mlflow_closed = true;
  }
  auto ended = mlflow.log_batch(record.mlflow->run_id, {}, {{"spindle.final_state", "killed"}}, {});
  if (ended) ended = mlflow.end_run(record.mlflow->run_id, "KILLED", now);
  if (!ended) {
    problems.push_back("the sweep's MLflow run: " + ended.error().message);
  } else {
    record.mlflow->closed = true;
  }
  return problems;
}

}  // namespace

Result<SubmittedJob, SubmitError> submit_sweep(const SweepSpec& sweep, const yarn::HadoopConfiguration& configuration,
                                               const SubmitOptions& options) {
  SubmitOptions controller = options;
  controller.sweep_search_json = search_to_json(sweep.search);
  auto submitted = submit_job(sweep.job, configuration, controller);
  if (!submitted) return submitted;
  SweepRecord record;
  record.sweep_id = submitted->application_id;
  record.name = sweep.job.name;
  record.user = user_of(configuration);
  record.queue = sweep.job.queue;
  record.output = sweep.job.output;
  record.search_json = controller.sweep_search_json;
  record.submitted_ms = wall_clock_ms();
  if (submitted->mlflow) {
    record.mlflow =
        SweepTrackingRun{submitted->mlflow->tracking_uri, submitted->mlflow->experiment_id, submitted->mlflow->run_id};
  }
  for (auto& parameters : draw_trials(sweep.search)) {
    TrialRecord trial;
    trial.parameters = std::move(parameters);
    record.trials.push_back(std::move(trial));
  }
  keep_in_history(record);
  return submitted;
}

std::string sweep_tracking_url(const SweepRecord& record) {
  if (!record.mlflow) return {};
  TrackingRunEntry entry;
  entry.tracking_uri = record.mlflow->tracking_uri;
  entry.experiment_id = record.mlflow->experiment_id;
  entry.run_id = record.mlflow->run_id;
  return entry.url();
}

Result<SweepView> read_sweep(const yarn::HadoopConfiguration& configuration, const std::string& sweep_id) {
  auto id = yarn::ApplicationId::parse(sweep_id);
  if (!id) return id.error();
  SweepView view;
  auto hdfs = yarn::WebHdfs::from_configuration(configuration);
  Result<std::string> text =
      hdfs ? hdfs->read_all(sweep_record_path(user_of(configuration), sweep_id)) : Result<std::string>(hdfs.error());
  if (text) {
    auto record = sweep_record_from_json(*text);
    if (!record) return make_error("the record of " + sweep_id + " in HDFS " + record.error().message);
    view.record = std::move(*record);
    view.from_cluster = true;
    if (view.record.state == SweepState::running) {
      // A controller killed from outside has no time to write its end: YARN's word is the last.
      yarn::ApplicationClient client(yarn::ApplicationClient::options_for(configuration));
      if (auto report = client.report(*id); report && report->finished()) {
        view.record.state = report->final_status == "SUCCEEDED" ? SweepState::succeeded
                            : report->state == "KILLED"         ? SweepState::killed
                                                                : SweepState::failed;
        view.record.diagnostics = report->diagnostics;
        view.record.ended_ms = report->finish_time;
        view.note = "its controller ended (" + report->state +
                    ") without recording it; trials it had started may still run (spindle sweep kill stops them)";
      }
    }
    keep_in_history(view.record);
    return view;
  }
  std::optional<SweepRecord> kept;
  if (auto history = HistoryStore::open()) {
    if (auto found = history->sweep(sweep_id); found && *found) kept = std::move(**found);
  }
  if (text.error().remote_exception != "FileNotFoundException") {
    if (!kept) return make_error("the record of " + sweep_id + " cannot be read: " + text.error().message);
    view.record = std::move(*kept);
    view.note = "the cluster was not read (" + text.error().message + "); this is the history's last copy";
    return view;
  }
  // No record yet: the controller has not run, or never will.
  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(configuration));
  auto report = client.report(*id);
  if (!report) return make_error("no sweep " + sweep_id + " is known: " + report.error().message);
  if (kept) view.record = std::move(*kept);
  view.record.sweep_id = sweep_id;
  if (report->finished()) {
    view.record.state = report->state == "KILLED" ? SweepState::killed : SweepState::failed;
    view.record.diagnostics = report->diagnostics;
    view.note = "its controller ended (" + report->state + ") before it wrote a record";
  } else {
    view.note = "its controller has not started yet (" + report->state + ")";
  }
  return view;
}

Result<std::vector<SweepView>> list_sweeps(const yarn::HadoopConfiguration& configuration) {
  auto history = HistoryStore::open();
  if (!history) return history.error();
  auto kept = history->sweeps();
  if (!kept) return kept.error();
  std::vector<SweepView> views;
  for (auto& record : *kept) {
    if (record.state == SweepState::running) {
      if (auto fresh = read_sweep(configuration, record.sweep_id)) {
        views.push_back(std::move(*fresh));
        continue;
      }
    }
    views.push_back(SweepView{std::move(record), false, ""});
  }
  return views;
}

namespace {

// YARN takes a kill at once and ends the application a moment later.
Result<void> wait_until_ended(yarn::ApplicationClient& client, const yarn::ApplicationId& id, const std::string& what) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  for (;;) {
    auto now = client.report(id);
    if (now && now->finished()) return {};
    if (std::chrono::steady_clock::now() > deadline) {
      return make_error(what + " " + id.to_string() +
                        " did not end within a minute of being killed; run spindle sweep kill again");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

}  // namespace

Result<std::vector<std::string>> kill_sweep(const yarn::HadoopConfiguration& configuration,
                                            const std::string& sweep_id) {
  auto id = yarn::ApplicationId::parse(sweep_id);
  if (!id) return id.error();
  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(configuration));
  auto report = client.report(*id);
  if (!report) return report.error();
  if (!report->finished()) {
    if (auto killed = client.kill(*id, "killed by its owner with spindle sweep kill"); !killed) return killed.error();
  }
  // Until the controller has ended it may still submit a trial; after, nothing does.
  if (auto ended = wait_until_ended(client, *id, "the sweep's controller"); !ended) return ended.error();
  auto running = client.applications("SPINDLE", {"NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING"});
  if (!running) return running.error();
  std::vector<yarn::ApplicationId> trials;
  const std::string tag = "spindle-sweep:" + sweep_id;
  for (const auto& application : *running) {
    bool of_sweep = false;
    for (const auto& one : application.tags) of_sweep = of_sweep || one == tag;
    if (!of_sweep) continue;
    if (auto done = client.kill(application.id, "its sweep " + sweep_id + " was killed"); !done) return done.error();
    trials.push_back(application.id);
  }
  // The answer waits for them too: nothing of the sweep runs once it is given.
  std::vector<std::string> killed;
  for (const auto& trial : trials) {
    if (auto ended = wait_until_ended(client, trial, "the sweep's trial"); !ended) return ended.error();
    killed.push_back(trial.to_string());
  }
  // The controller had no time to record its end (YARN stops a killed
  // container within a second): the record says it, for every reader.
  auto hdfs = yarn::WebHdfs::from_configuration(configuration);
  if (!hdfs) return hdfs.error();
  // Nor had it time to remove the files it staged for its trials, which no trial needs any more.
  auto staging = StagingArea::open(configuration, sweep_id);
  auto removed = staging ? (*staging)->remove() : Result<void>(staging.error());
  if (!removed) {
    return make_error("the sweep was killed, but its staging directory could not be removed: " +
                      removed.error().message);
  }
  const auto path = sweep_record_path(user_of(configuration), sweep_id);
  auto text = hdfs->read_all(path);
  if (!text) {
    if (text.error().remote_exception == "FileNotFoundException") return killed;
    return make_error("the sweep was killed, but its record could not be read: " + text.error().message);
  }
  auto record = sweep_record_from_json(*text);
  if (!record) return make_error("the sweep was killed, but its record " + path + " " + record.error().message);
  const auto as_read = to_json(*record);
  if (record->state == SweepState::running) {
    const auto now = wall_clock_ms();
    for (auto& trial : record->trials) {
      if (is_final(trial.state)) continue;
      trial.state = TrialState::killed;
      trial.why = "its sweep was killed";
      trial.ended_ms = now;
    }
    record->state = SweepState::killed;
    record->diagnostics = "killed by its owner with spindle sweep kill";
    record->ended_ms = now;
  }
  const auto tracking_problems = end_tracking_runs(*record);
  if (const auto now = to_json(*record); now != as_read) {
    if (auto written = hdfs->write_whole(path, now); !written) {
      return make_error("the sweep was killed, but its record could not be updated: " + written.error().message);
    }
  }
  keep_in_history(*record);
  if (!tracking_problems.empty()) {
    std::string all;
    for (const auto& problem : tracking_problems) all += (all.empty() ? "" : "; ") + problem;
    return make_error("the sweep was killed, but MLflow still shows runs of it running: " + all +
                      "; run spindle sweep kill again once the server answers");
  }
  return killed;
}

Result<void> end_trial(const yarn::HadoopConfiguration& configuration, const std::string& sweep_id, int trial,
                       bool stop) {
  auto view = read_sweep(configuration, sweep_id);
  if (!view) return view.error();
  const auto& trials = view->record.trials;
  const auto found = std::find_if(trials.begin(), trials.end(),
                                  [trial](const TrialRecord& one) { return one.parameters.index == trial; });
  if (found == trials.end()) {
    auto error = make_error(sweep_id + " has no trial " + std::to_string(trial) + "; its trials are 0 to " +
                            std::to_string(trials.size() - 1));
    error.kind = Error::Kind::not_found;
    return error;
  }
  if (found->application_id.empty() || is_final(found->state)) {
    auto error = make_error("trial " + std::to_string(trial) + " of " + sweep_id + " is " +
                            std::string(to_string(found->state)) + "; only a running trial can be " +
                            (stop ? "stopped" : "killed"));
    error.kind = Error::Kind::refused;
    return error;
  }
  auto id = yarn::ApplicationId::parse(found->application_id);
  if (!id) return id.error();
  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(configuration));
  const std::string why = stop ? std::string(trial_stopped_by_owner) + " from its sweep " + sweep_id
                               : "killed by its owner from its sweep " + sweep_id;
  auto killed = client.kill(*id, why);
  if (!killed) return killed.error();
  return {};
}

Result<std::map<int, std::vector<MetricSample>>> read_trial_metrics(const yarn::HadoopConfiguration& configuration,
                                                                    const SweepRecord& record) {
  const auto search = search_from_json(record.search_json, "the sweep's search");
  if (!search) return make_error("the record of " + record.sweep_id + " holds no valid search");
  std::map<int, std::vector<MetricSample>> series;
  if (record.output.empty()) return series;
  std::string output = record.output;
  while (output.size() > 1 && output.back() == '/') output.pop_back();
  for (const auto& trial : record.trials) {
    if (trial.application_id.empty()) continue;
    auto directory = JobLogDirectory::open(output + "/trial-" + std::to_string(trial.parameters.index), configuration);
    if (!directory) return directory.error();
    auto update = directory->poll();
    if (!update) continue;  // nothing written yet
    std::string run = search->metric.run;
    auto& samples = series[trial.parameters.index];
    for (const auto& one : update->runs) {
      for (const auto& point : one.points) {
        if (point.tag != search->metric.tag) continue;
        if (run.empty()) run = one.run;
        if (one.run == run) samples.push_back({point.step, point.value});
      }
    }
    std::stable_sort(samples.begin(), samples.end(),
                     [](const MetricSample& a, const MetricSample& b) { return a.step < b.step; });
  }
  return series;
}

nlohmann::ordered_json trial_json(const TrialRecord& trial) {
  auto sample = [](const std::optional<MetricSample>& one) {
    return one ? nlohmann::ordered_json{{"step", one->step}, {"value", one->value}} : nlohmann::ordered_json();
  };
  nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
  for (const auto& [name, value] : trial.parameters.values) parameters[name] = value;
  nlohmann::ordered_json rungs = nlohmann::ordered_json::array();
  for (const auto& rung : trial.rungs) {
    rungs.push_back({{"step", rung.step},
                     {"value", rung.value},
                     {"cut", rung.cut ? nlohmann::ordered_json(*rung.cut) : nlohmann::ordered_json()},
                     {"stop", rung.stop},
                     {"reason", rung.reason}});
  }
  return {{"trial", trial.parameters.index},
          {"application_id", trial.application_id},
          {"state", to_string(trial.state)},
          {"parameters", parameters},
          {"best", sample(trial.best)},
          {"last", sample(trial.last)},
          {"why", trial.why},
          {"rungs", rungs},
          {"submitted_ms", trial.submitted_ms},
          {"ended_ms", trial.ended_ms},
          {"mlflow_run_id", trial.mlflow_run_id}};
}

nlohmann::ordered_json sweep_json(const SweepView& view) {
  const auto& record = view.record;
  const auto search =
      nlohmann::ordered_json::parse(record.search_json.empty() ? "{}" : record.search_json, nullptr, false);
  const auto metric = record.metric();
  nlohmann::ordered_json trials = nlohmann::ordered_json::array();
  for (const auto& trial : record.trials) trials.push_back(trial_json(trial));
  const auto* best = record.best_trial();
  return {{"sweep_id", record.sweep_id},
          {"name", record.name},
          {"user", record.user},
          {"queue", record.queue},
          {"state", to_string(record.state)},
          {"diagnostics", record.diagnostics},
          {"metric", metric.tag},
          {"goal", metric.maximize ? "maximize" : "minimize"},
          {"search", search.is_discarded() ? nlohmann::ordered_json::object() : search},
          {"submitted_ms", record.submitted_ms},
          {"ended_ms", record.ended_ms},
          {"most_running", record.most_running},
          {"best_trial", best ? nlohmann::ordered_json(best->parameters.index) : nlohmann::ordered_json()},
          {"mlflow", record.mlflow ? nlohmann::ordered_json(sweep_tracking_url(record)) : nlohmann::ordered_json()},
          {"from_cluster", view.from_cluster},
          {"note", view.note},
          {"trials", trials}};
}

Result<SweepDetail> sweep_detail_from_json(const nlohmann::json& json) {
  if (!json.is_object()) return make_error("the server's answer is not a sweep");
  try {
    SweepDetail detail;
    auto& record = detail.view.record;
    record.sweep_id = json.value("sweep_id", "");
    record.name = json.value("name", "");
    record.user = json.value("user", "");
    record.queue = json.value("queue", "");
    record.diagnostics = json.value("diagnostics", "");
    record.submitted_ms = json.value("submitted_ms", std::int64_t{0});
    record.ended_ms = json.value("ended_ms", std::int64_t{0});
    record.most_running = json.value("most_running", 0);
    if (json.contains("search") && json["search"].is_object()) record.search_json = json["search"].dump();
    // The run's address as sweep_json wrote it: <tracking URI>/#/experiments/<id>/runs/<run>.
    if (const auto url = json.value("mlflow", nlohmann::json()); url.is_string()) {
      const auto text = url.get<std::string>();
      const auto experiments = text.find("/#/experiments/");
      const auto runs = text.find("/runs/", experiments == std::string::npos ? 0 : experiments);
      if (experiments != std::string::npos && runs != std::string::npos) {
        const auto experiment_start = experiments + std::string_view("/#/experiments/").size();
        record.mlflow =
            SweepTrackingRun{text.substr(0, experiments), text.substr(experiment_start, runs - experiment_start),
                             text.substr(runs + std::string_view("/runs/").size())};
      }
    }
    const auto state = json.value("state", "running");
    record.state = state == "succeeded" ? SweepState::succeeded
                   : state == "failed"  ? SweepState::failed
                   : state == "killed"  ? SweepState::killed
                                        : SweepState::running;
    detail.view.from_cluster = json.value("from_cluster", false);
    detail.view.note = json.value("note", "");
    auto sample = [](const nlohmann::json& one) -> std::optional<MetricSample> {
      if (!one.is_object()) return std::nullopt;
      return MetricSample{one.value("step", std::int64_t{0}), one.value("value", 0.0)};
    };
    for (const auto& one : json.value("trials", nlohmann::json::array())) {
      TrialRecord trial;
      trial.parameters.index = one.value("trial", 0);
      // Kept in a variable: items() of a temporary would outlive it.
      const auto parameters = one.value("parameters", nlohmann::json::object());
      for (const auto& [name, value] : parameters.items()) {
        trial.parameters.values.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
      }
      trial.state = trial_state_from(one.value("state", "waiting")).value_or(TrialState::waiting);
      trial.application_id = one.value("application_id", "");
      trial.why = one.value("why", "");
      trial.best = sample(one.value("best", nlohmann::json()));
      trial.last = sample(one.value("last", nlohmann::json()));
      trial.submitted_ms = one.value("submitted_ms", std::int64_t{0});
      trial.ended_ms = one.value("ended_ms", std::int64_t{0});
      record.trials.push_back(std::move(trial));
    }
    const auto series = json.value("series", nlohmann::json::object());
    for (const auto& [trial, points] : series.items()) {
      auto& samples = detail.series[std::stoi(trial)];
      for (const auto& point : points) {
        if (point.is_array() && point.size() == 2)
          samples.push_back({point[0].get<std::int64_t>(), point[1].get<double>()});
      }
    }
    detail.series_problem = json.value("series_problem", "");
    return detail;
  } catch (const std::exception& e) {
    return make_error(std::string("the server's answer is not a sweep: ") + e.what());
  }
}

}  // namespace spindle::client

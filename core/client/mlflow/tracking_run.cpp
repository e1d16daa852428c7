#include <cstdlib>
#include <nlohmann/json.hpp>

#include "spindle/client/hdfs_log_files.h"
#include "spindle/client/mlflow_tracking.h"
#include "spindle/core/clock.h"
#include "spindle/core/spec_writer.h"
#include "spindle/core/text.h"

namespace spindle::client {
namespace {

using json = nlohmann::ordered_json;

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

bool looks_secret(std::string_view variable) {
  const std::string name = to_upper(variable);
  for (const char* word : {"SECRET", "PASSWORD", "PASSWD", "TOKEN", "CREDENTIAL", "KEY"}) {
    if (name.find(word) != std::string::npos) return true;
  }
  return false;
}

// What the run records of the job's end.
std::string run_status(JobState state) {
  if (state == JobState::succeeded) return "FINISHED";
  if (state == JobState::killed) return "KILLED";
  return "FAILED";
}

}  // namespace

std::optional<MlflowTarget> mlflow_target(const JobSpec& spec, const std::string& configured_uri) {
  MlflowTarget target;
  if (spec.mlflow) {
    target.tracking_uri = spec.mlflow->tracking_uri;
    target.experiment = spec.mlflow->experiment;
    target.run_name = spec.mlflow->run_name;
    target.required = spec.mlflow->required;
    target.nested = spec.mlflow->nested;
  }
  if (target.tracking_uri.empty()) target.tracking_uri = configured_uri;
  if (target.tracking_uri.empty()) target.tracking_uri = environment("MLFLOW_TRACKING_URI");
  if (!spec.mlflow && target.tracking_uri.empty()) return std::nullopt;
  while (target.tracking_uri.ends_with('/')) target.tracking_uri.pop_back();
  if (target.experiment.empty()) target.experiment = environment("MLFLOW_EXPERIMENT_NAME");
  if (target.experiment.empty()) target.experiment = "Default";
  if (target.run_name.empty()) target.run_name = spec.name;
  return target;
}

MlflowPairs spec_parameters(const JobSpec& spec) {
  MlflowPairs params;
  JobSpec recorded = spec;
  recorded.kerberos.reset();  // how the submitter logs in is not the job's
  recorded.mlflow.reset();    // where the run is, not what it ran
  // Values of environment variables named like secrets stay out of the run.
  auto hidden = [](const std::string& parent, const std::string& name) {
    const bool in_env = parent == "env" || (parent.starts_with("tasks.") && parent.ends_with(".env"));
    return in_env && looks_secret(name);
  };
  flatten_parameters(json::parse(to_json(recorded).dump()), "", params, hidden);
  return params;
}

Result<TrackingRunEntry> start_tracking_run(const JobSpec& spec, const MlflowTarget& target,
                                            const TrackedSubmission& job,
                                            const std::function<void(const std::string&)>& warn) {
  if (target.tracking_uri.empty()) {
    return make_error(
        "the spec has an mlflow block without tracking_uri, and MLFLOW_TRACKING_URI is not set; give "
        "mlflow.tracking_uri, e.g. http://mlflow.example.com:5000");
  }
  if (!target.tracking_uri.starts_with("http://") && !target.tracking_uri.starts_with("https://")) {
    // MLflow's own variable may name a file store or Databricks; Spindle speaks only to servers.
    return make_error("MLFLOW_TRACKING_URI is " + target.tracking_uri +
                      ", but Spindle records jobs only through an MLflow tracking server's REST API; set it (or "
                      "mlflow.tracking_uri) to the server's http:// or https:// address");
  }
  MlflowClient client(target.tracking_uri);
  auto experiment = client.experiment_id(target.experiment);
  if (!experiment) return experiment.error();
  const MlflowPairs tags = {{"mlflow.user", job.user},
                            {"mlflow.source.name", "spindle"},
                            {"spindle.application_id", job.application_id},
                            {"spindle.queue", job.queue},
                            {"spindle.tracking_url", job.yarn_tracking_url},
                            {"spindle.framework", std::string(to_string(spec.framework))}};
  auto run = client.create_run(*experiment, target.run_name, job.submitted_ms, tags);
  if (!run) return run.error();
  TrackingRunEntry entry{target.tracking_uri, run->experiment_id.empty() ? *experiment : run->experiment_id,
                         run->run_id, 0};
  if (auto logged = client.log_batch(run->run_id, spec_parameters(spec), {}, {}); !logged) {
    abandon_tracking_run(entry, logged.error().message);
    return logged.error();
  }
  if (target.nested) {
    for (const auto& type : spec.tasks) {
      if (type.type == task_types::tensorboard) continue;
      for (int index = 0; index < type.instances; ++index) {
        const std::string task = type.type + ":" + std::to_string(index);
        auto child = client.create_run(entry.experiment_id, task, job.submitted_ms,
                                       {{"mlflow.parentRunId", run->run_id},
                                        {"mlflow.user", job.user},
                                        {"spindle.application_id", job.application_id},
                                        {"spindle.task", task}});
        if (!child) {
          abandon_tracking_run(entry, child.error().message);
          return child.error();
        }
        entry.task_runs[task] = child->run_id;
      }
    }
  }
  if (auto stored = client.upload_artifact(*run, "spec.yaml", job.spec_yaml); !stored) {
    warn("warning: MLflow run " + run->run_id +
         " has the spec's parameters but not the file spec.yaml: " + stored.error().message);
  }
  return entry;
}

void abandon_tracking_run(const TrackingRunEntry& run, const std::string& why) {
  MlflowClient client(run.tracking_uri);
  const MlflowPairs tags = {{"spindle.final_state", "not submitted"}, {"spindle.diagnostics", mlflow_tag_value(why)}};
  for (const auto& [task, child] : run.task_runs) {
    (void)client.log_batch(child, {}, tags, {});
    (void)client.end_run(child, "FAILED", wall_clock_ms());
  }
  (void)client.log_batch(run.run_id, {}, tags, {});
  (void)client.end_run(run.run_id, "FAILED", wall_clock_ms());
}

Result<bool> finish_tracking_run(HistoryStore& history, const std::string& application_id) {
  auto run = history.tracking_run(application_id);
  if (!run) return run.error();
  if (!*run || (*run)->closed_ms != 0) return false;
  auto job = history.job(application_id);
  if (!job) return job.error();
  if (!*job || !(*job)->is_final()) return false;
  const auto& entry = **job;

  std::vector<MlflowMetric> metrics;
  std::string scalars_problem;
  if (const auto output = entry.output_location(); !output.empty()) {
    auto directory = JobLogDirectory::open(output);
    auto update = directory ? directory->poll() : Result<LogDirectoryUpdate>(directory.error());
    if (!update) {
      scalars_problem = update.error().message;
    } else {
      for (const auto& scalars : update->runs) {
        for (const auto& point : scalars.points) {
          if (auto metric = training_metric(scalars.run, point.tag, point.step, point.wall_time, point.value)) {
            metrics.push_back(std::move(*metric));
          }
        }
      }
      if (!update->problems.empty()) scalars_problem = update->problems.front().message;
    }
  }
  int restarts = 0;
  std::map<std::string, TaskStatus> tasks;
  if (auto attempts = history.attempts(application_id)) {
    for (auto& task : status_from_history(entry, *attempts).tasks) {
      restarts += task.restarts;
      tasks[task.task] = std::move(task);
    }
  }
  const std::int64_t started = entry.started_ms ? entry.started_ms : entry.submitted_ms;
  const std::int64_t finished = entry.finished_ms ? entry.finished_ms : wall_clock_ms();
  const std::int64_t at = finished;
  metrics.push_back(
      {"spindle.duration_seconds", static_cast<double>(std::max<std::int64_t>(finished - started, 0)) / 1000, at, 0});
  metrics.push_back({"spindle.restarts", static_cast<double>(restarts), at, 0});
  MlflowPairs tags = {{"spindle.final_state", entry.state}};
  if (!entry.diagnostics.empty()) tags.emplace_back("spindle.diagnostics", mlflow_tag_value(entry.diagnostics));
  if (!scalars_problem.empty()) tags.emplace_back("spindle.scalars_problem", mlflow_tag_value(scalars_problem));
  if (!entry.tracking_url.empty()) tags.emplace_back("spindle.tracking_url", entry.tracking_url);

  MlflowClient client((*run)->tracking_uri);
  for (const auto& [task, child] : (*run)->task_runs) {
    auto known = tasks.find(task);
    // A task the history never saw start ended with its job.
    const std::string phase = known == tasks.end() ? std::string("stopped") : known->second.phase;
    const std::string status = phase == "succeeded" ? "FINISHED" : phase == "failed" ? "FAILED" : "KILLED";
    const std::int64_t task_end =
        known != tasks.end() && known->second.finished_ms ? known->second.finished_ms : finished;
    std::vector<MlflowMetric> task_metrics;
    MlflowPairs task_tags = {{"spindle.final_state", phase}};
    if (known != tasks.end()) {
      task_metrics.push_back({"spindle.restarts", static_cast<double>(known->second.restarts), at, 0});
      if (!known->second.exit_description.empty()) {
        task_tags.emplace_back("spindle.diagnostics", mlflow_tag_value(known->second.exit_description));
      }
    }
    if (auto logged = client.log_batch(child, {}, task_tags, task_metrics); !logged) return logged.error();
    if (auto ended = client.end_run(child, status, task_end); !ended) return ended.error();
  }
  if (auto logged = client.log_batch((*run)->run_id, {}, tags, metrics); !logged) return logged.error();
  if (auto ended = client.end_run((*run)->run_id, run_status(entry.job_state()), finished); !ended)
    return ended.error();
  return history.close_tracking_run(application_id, wall_clock_ms());
}

void finish_ended_tracking_runs(HistoryStore& history, const std::function<void(const std::string&)>& report) {
  auto ended = history.ended_jobs_with_open_runs();
  if (!ended) {
    report("warning: MLflow runs of ended jobs could not be looked up: " + ended.error().message);
    return;
  }
  for (const auto& application_id : *ended) {
    auto finished = finish_tracking_run(history, application_id);
    if (!finished) {
      report("warning: the MLflow run of " + application_id +
             " stays open; it is sent again by the next spindle status, list or history: " + finished.error().message);
      continue;
    }
    if (!*finished) continue;
    auto run = history.tracking_run(application_id);
    auto job = history.job(application_id);
    if (run && *run && job && *job) {
      report("MLflow run " + (*run)->run_id + " of " + application_id + " ended as " + run_status((*job)->job_state()) +
             ": " + (*run)->url());
    }
  }
}

}  // namespace spindle::client

#include "container/sweep_tracking.h"

#include <algorithm>
#include <cmath>

#include "spindle/core/clock.h"

namespace spindle::container {
namespace {

std::string run_name(const SweepRecord& record, const TrialRecord& trial) {
  return record.name + "-trial-" + std::to_string(trial.parameters.index);
}

}  // namespace

std::string trial_run_status(TrialState state) {
  switch (state) {
    case TrialState::succeeded:
    case TrialState::stopped: return "FINISHED";
    case TrialState::killed: return "KILLED";
    default: return "FAILED";
  }
}

std::string sweep_run_status(SweepState state) {
  switch (state) {
    case SweepState::succeeded: return "FINISHED";
    case SweepState::killed: return "KILLED";
    default: return "FAILED";
  }
}

SweepTracking::SweepTracking(SweepTrackingRun parent, Log log)
    : parent_(std::move(parent)), client_(parent_.tracking_uri), log_(std::move(log)) {}

void SweepTracking::describe_search(const SweepSearch& search, const std::string& search_json) {
  client::MlflowPairs params;
  client::flatten_parameters(nlohmann::ordered_json::parse(search_json, nullptr, false), "sweep", params);
  client::MlflowPairs tags = {{"spindle.sweep", "true"},
                              {"spindle.sweep.metric", client::metric_key(search.metric.run, search.metric.tag)},
                              {"spindle.sweep.goal", search.metric.maximize ? "maximize" : "minimize"}};
  // Logging the same values again is allowed: a later attempt of the controller does it once more.
  if (auto logged = client_.log_batch(parent_.run_id, params, tags, {}); !logged) {
    log_("MLflow: the sweep's run did not get the search: " + logged.error().message);
  }
}

bool SweepTracking::open_trial(const SweepRecord& record, TrialRecord& trial) {
  client::MlflowPairs tags = {{"spindle.application_id", trial.application_id}};
  if (trial.mlflow_run_id.empty()) {
    tags.insert(tags.end(), {{"mlflow.parentRunId", parent_.run_id},
                             {"spindle.sweep_id", record.sweep_id},
                             {"spindle.trial", std::to_string(trial.parameters.index)},
                             {"spindle.queue", record.queue},
                             {"mlflow.user", record.user}});
    auto made = client_.create_run(parent_.experiment_id, run_name(record, trial), wall_clock_ms(), tags);
    if (!made) {
      log_("MLflow: trial " + std::to_string(trial.parameters.index) +
           " runs without a run of its own: " + made.error().message);
      return false;
    }
    trial.mlflow_run_id = made->run_id;
    client::MlflowPairs params(trial.parameters.values.begin(), trial.parameters.values.end());
    if (auto logged = client_.log_batch(trial.mlflow_run_id, params, {}, {}); !logged) {
      log_("MLflow: trial " + std::to_string(trial.parameters.index) +
           "'s run did not get its parameters: " + logged.error().message);
    }
    return true;
  }
  // A trial submitted again after an attempt died before the ResourceManager took it.
  if (auto logged = client_.log_batch(trial.mlflow_run_id, {}, tags, {}); !logged) {
    log_("MLflow: trial " + std::to_string(trial.parameters.index) +
         "'s run did not get its new application: " + logged.error().message);
  }
  return true;
}

bool SweepTracking::send_scalars(const TrialRecord& trial, const std::vector<client::MetricPoint>& points) {
  if (trial.mlflow_run_id.empty() || trial.mlflow_closed) return true;
  auto& fed =
      fed_.try_emplace(
              trial.parameters.index,
              Fed{0, RunScalars(trial.mlflow_run_id, "trial " + std::to_string(trial.parameters.index) + "'s run")})
          .first->second;
  for (; fed.read < points.size(); ++fed.read) {
    const auto& point = points[fed.read];
    fed.scalars.add(point.run, point.tag, point.step, point.wall_time, point.value);
  }
  return fed.scalars.send(client_, log_);
}

void SweepTracking::close_trial(TrialRecord& trial, const std::vector<client::MetricPoint>& points) {
  if (trial.mlflow_run_id.empty() || trial.mlflow_closed) return;
  if (!send_scalars(trial, points)) return;  // said by send_scalars, tried again
  const auto name = "trial " + std::to_string(trial.parameters.index);
  std::vector<client::MlflowMetric> metrics;
  const auto ended = trial.ended_ms ? trial.ended_ms : wall_clock_ms();
  if (trial.submitted_ms) {
    metrics.push_back({"spindle.duration_seconds",
                       static_cast<double>(std::max<std::int64_t>(ended - trial.submitted_ms, 0)) / 1000, ended, 0});
  }
  client::MlflowPairs tags = {{"spindle.final_state", std::string(to_string(trial.state))}};
  if (!trial.why.empty()) tags.emplace_back("spindle.diagnostics", client::mlflow_tag_value(trial.why));
  if (auto logged = client_.log_batch(trial.mlflow_run_id, {}, tags, metrics); !logged) {
    log_("MLflow: " + name + "'s run did not get its end; tried again next time: " + logged.error().message);
    return;
  }
  if (auto closed = client_.end_run(trial.mlflow_run_id, trial_run_status(trial.state), ended); !closed) {
    log_("MLflow: " + name + "'s run could not be ended; tried again next time: " + closed.error().message);
    return;
  }
  trial.mlflow_closed = true;
}

void SweepTracking::close_sweep(SweepRecord& record) {
  if (!record.mlflow || record.mlflow->closed) return;
  const auto ended = record.ended_ms ? record.ended_ms : wall_clock_ms();
  std::vector<client::MlflowMetric> metrics;
  for (const auto state : {TrialState::succeeded, TrialState::stopped, TrialState::failed, TrialState::killed}) {
    auto key = "spindle.trials." + std::string(to_string(state));
    std::replace(key.begin(), key.end(), ' ', '_');
    metrics.push_back({key, static_cast<double>(record.count(state)), ended, 0});
  }
  client::MlflowPairs tags = {{"spindle.final_state", std::string(to_string(record.state))}};
  if (!record.diagnostics.empty())
    tags.emplace_back("spindle.diagnostics", client::mlflow_tag_value(record.diagnostics));
  const auto metric = record.metric();
  if (const auto* best = record.best_trial(); best && std::isfinite(best->best->value)) {
    metrics.push_back(
        {"best/" + client::metric_key(metric.run, metric.tag), best->best->value, ended, best->best->step});
    tags.emplace_back("spindle.best_trial", std::to_string(best->parameters.index));
    if (!best->mlflow_run_id.empty()) tags.emplace_back("spindle.best_run_id", best->mlflow_run_id);
  }
  if (auto logged = client_.log_batch(parent_.run_id, {}, tags, metrics); !logged) {
    log_("MLflow: the sweep's run did not get its end: " + logged.error().message);
    return;
  }
  if (auto closed = client_.end_run(parent_.run_id, sweep_run_status(record.state), ended); !closed) {
    log_("MLflow: the sweep's run could not be ended: " + closed.error().message);
    return;
  }
  record.mlflow->closed = true;
}

void SweepTracking::export_to(const TrialRecord& trial, JobSpec& job) const {
  if (trial.mlflow_run_id.empty()) return;
  job.env["MLFLOW_TRACKING_URI"] = parent_.tracking_uri;
  job.env["MLFLOW_EXPERIMENT_ID"] = parent_.experiment_id;
  job.env["MLFLOW_RUN_ID"] = trial.mlflow_run_id;
  job.env["MLFLOW_PARENT_RUN_ID"] = parent_.run_id;
}

}  // namespace spindle::container

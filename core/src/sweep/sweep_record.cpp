#include <array>
#include <nlohmann/json.hpp>

#include "spindle/core/sweep_state.h"

namespace spindle {
namespace {

using Json = nlohmann::json;

constexpr std::array<std::string_view, 7> trial_state_names{
    "waiting", "submitted", "running", "succeeded", "failed", "killed", "stopped by the sweep"};
constexpr std::array<std::string_view, 4> sweep_state_names{"running", "succeeded", "failed", "killed"};

Json sample_json(const std::optional<MetricSample>& sample) {
  if (!sample) return nullptr;
  return {{"step", sample->step}, {"value", sample->value}};
}

// Reads of fields that may be missing or of the wrong type: the record comes
// from HDFS, where anyone with the user's rights may have changed it.
template <typename T>
T field_or(const Json& object, const char* key, T fallback) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return fallback;
  return found->get<T>();
}

std::optional<MetricSample> sample_from(const Json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_object()) return std::nullopt;
  return MetricSample{field_or<std::int64_t>(*found, "step", 0), field_or<double>(*found, "value", 0)};
}

}  // namespace

std::string_view to_string(TrialState state) {
  return trial_state_names[static_cast<std::size_t>(state)];
}

std::optional<TrialState> trial_state_from(std::string_view text) {
  for (std::size_t i = 0; i < trial_state_names.size(); ++i) {
    if (trial_state_names[i] == text) return static_cast<TrialState>(i);
  }
  return std::nullopt;
}

bool is_final(TrialState state) {
  return state == TrialState::succeeded || state == TrialState::failed || state == TrialState::killed ||
         state == TrialState::stopped;
}

std::string_view to_string(SweepState state) {
  return sweep_state_names[static_cast<std::size_t>(state)];
}

const TrialRecord* SweepRecord::best_trial(bool maximize) const {
  const TrialRecord* best = nullptr;
  for (const auto& trial : trials) {
    if (!trial.best) continue;
    if (!best || (maximize ? trial.best->value > best->best->value : trial.best->value < best->best->value)) {
      best = &trial;
    }
  }
  return best;
}

SweepMetric SweepRecord::metric() const {
  SweepMetric metric;
  const auto search = Json::parse(search_json.empty() ? "{}" : search_json, nullptr, false);
  if (!search.is_object() || !search.contains("metric") || !search["metric"].is_object()) return metric;
  const auto& named = search["metric"];
  if (named.contains("tag") && named["tag"].is_string()) metric.tag = named["tag"].get<std::string>();
  if (named.contains("run") && named["run"].is_string()) metric.run = named["run"].get<std::string>();
  metric.maximize = named.contains("goal") && named["goal"] == "maximize";
  return metric;
}

int SweepRecord::count(TrialState wanted) const {
  int n = 0;
  for (const auto& trial : trials) n += trial.state == wanted;
  return n;
}

std::string sweep_record_path(const std::string& user, const std::string& sweep_id) {
  return "/user/" + user + "/.spindle/sweeps/" + sweep_id + ".json";
}

std::string to_json(const SweepRecord& record) {
  Json trials = Json::array();
  for (const auto& trial : record.trials) {
    Json rungs = Json::array();
    for (const auto& rung : trial.rungs) {
      rungs.push_back({{"rung", rung.rung},
                       {"step", rung.step},
                       {"value", rung.value},
                       {"cut", rung.cut ? Json(*rung.cut) : Json(nullptr)},
                       {"stop", rung.stop},
                       {"reason", rung.reason}});
    }
    // Parameters keep the search's order: a list of pairs, not an object.
    Json ordered = Json::array();
    for (const auto& [name, value] : trial.parameters.values) ordered.push_back({name, value});
    trials.push_back({{"trial", trial.parameters.index},
                      {"parameters", ordered},
                      {"state", to_string(trial.state)},
                      {"application_id", trial.application_id},
                      {"why", trial.why},
                      {"best", sample_json(trial.best)},
                      {"last", sample_json(trial.last)},
                      {"rungs", rungs},
                      {"submitted_ms", trial.submitted_ms},
                      {"ended_ms", trial.ended_ms},
                      {"secret", trial.secret},
                      {"api_pin", trial.api_pin},
                      {"mlflow_run_id", trial.mlflow_run_id},
                      {"mlflow_closed", trial.mlflow_closed}});
  }
  Json out = {{"sweep_id", record.sweep_id},
              {"name", record.name},
              {"user", record.user},
              {"queue", record.queue},
              {"output", record.output},
              {"search", Json::parse(record.search_json.empty() ? "{}" : record.search_json, nullptr, false)},
              {"state", to_string(record.state)},
              {"diagnostics", record.diagnostics},
              {"submitted_ms", record.submitted_ms},
              {"ended_ms", record.ended_ms},
              {"most_running", record.most_running},
              {"trials", trials}};
  if (record.mlflow) {
    out["mlflow"] = {{"tracking_uri", record.mlflow->tracking_uri},
                     {"experiment_id", record.mlflow->experiment_id},
                     {"run_id", record.mlflow->run_id},
                     {"closed", record.mlflow->closed}};
  }
  return out.dump();
}

Result<SweepRecord> sweep_record_from_json(std::string_view text) {
  const auto json = Json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return make_error("is not a sweep record (not a JSON object); it is written by the sweep's controller only");
  }
  try {
    SweepRecord record;
    record.sweep_id = field_or<std::string>(json, "sweep_id", "");
    if (record.sweep_id.empty()) return make_error("is not a sweep record: it names no sweep_id");
    record.name = field_or<std::string>(json, "name", "");
    record.user = field_or<std::string>(json, "user", "");
    record.queue = field_or<std::string>(json, "queue", "");
    record.output = field_or<std::string>(json, "output", "");
    if (const auto search = json.find("search"); search != json.end() && search->is_object()) {
      record.search_json = search->dump();
    }
    const auto state = field_or<std::string>(json, "state", "running");
    bool known = false;
    for (std::size_t i = 0; i < sweep_state_names.size(); ++i) {
      if (sweep_state_names[i] == state) {
        record.state = static_cast<SweepState>(i);
        known = true;
      }
    }
    if (!known) return make_error("is not a sweep record: its state \"" + state + "\" is not a sweep's state");
    record.diagnostics = field_or<std::string>(json, "diagnostics", "");
    record.submitted_ms = field_or<std::int64_t>(json, "submitted_ms", 0);
    record.ended_ms = field_or<std::int64_t>(json, "ended_ms", 0);
    record.most_running = field_or<int>(json, "most_running", 0);
    if (const auto run = json.find("mlflow"); run != json.end() && run->is_object()) {
      record.mlflow = SweepTrackingRun{
          field_or<std::string>(*run, "tracking_uri", ""), field_or<std::string>(*run, "experiment_id", ""),
          field_or<std::string>(*run, "run_id", ""), field_or<bool>(*run, "closed", false)};
    }
    const auto trials = json.find("trials");
    if (trials == json.end() || !trials->is_array()) return make_error("is not a sweep record: it has no trials list");
    for (const auto& one : *trials) {
      if (!one.is_object()) return make_error("is not a sweep record: a trial is not a JSON object");
      TrialRecord trial;
      trial.parameters.index = field_or<int>(one, "trial", 0);
      if (const auto parameters = one.find("parameters"); parameters != one.end() && parameters->is_array()) {
        for (const auto& pair : *parameters) {
          if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) {
            return make_error("is not a sweep record: trial " + std::to_string(trial.parameters.index) +
                              " has a parameter that is not a [name, value] pair");
          }
          trial.parameters.values.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
        }
      }
      const auto state_text = field_or<std::string>(one, "state", "waiting");
      const auto trial_state = trial_state_from(state_text);
      if (!trial_state) {
        return make_error("is not a sweep record: trial " + std::to_string(trial.parameters.index) + " is \"" +
                          state_text + "\", not a trial's state");
      }
      trial.state = *trial_state;
      trial.application_id = field_or<std::string>(one, "application_id", "");
      trial.why = field_or<std::string>(one, "why", "");
      trial.best = sample_from(one, "best");
      trial.last = sample_from(one, "last");
      if (const auto rungs = one.find("rungs"); rungs != one.end() && rungs->is_array()) {
        for (const auto& rung : *rungs) {
          if (!rung.is_object()) continue;
          RungVerdict verdict{field_or<std::size_t>(rung, "rung", 0),    field_or<std::int64_t>(rung, "step", 0),
                              field_or<double>(rung, "value", 0),        field_or<bool>(rung, "stop", false),
                              field_or<std::string>(rung, "reason", ""), std::nullopt};
          if (const auto cut = rung.find("cut"); cut != rung.end() && cut->is_number())
            verdict.cut = cut->get<double>();
          trial.rungs.push_back(std::move(verdict));
        }
      }
      trial.submitted_ms = field_or<std::int64_t>(one, "submitted_ms", 0);
      trial.ended_ms = field_or<std::int64_t>(one, "ended_ms", 0);
      trial.secret = field_or<std::string>(one, "secret", "");
      trial.api_pin = field_or<std::string>(one, "api_pin", "");
      trial.mlflow_run_id = field_or<std::string>(one, "mlflow_run_id", "");
      trial.mlflow_closed = field_or<bool>(one, "mlflow_closed", false);
      record.trials.push_back(std::move(trial));
    }
    return record;
  } catch (const Json::exception& e) {
    return make_error(std::string("is not a sweep record: a field has the wrong type (") + e.what() + ")");
  }
}

}  // namespace spindle

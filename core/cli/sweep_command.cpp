#include "cli/sweep_command.h"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/keytab_flags.h"
#include "cli/spec_source.h"
#include "cli/time_format.h"
#include "spindle/client/sweeps.h"

namespace spindle::cli {
namespace {

struct SweepOptions {
  std::string spec;
  std::string search;
  std::string sweep_id;
  bool json = false;
  bool no_fit_check = false;
  KeytabFlags login;
  int trial = -1;
  bool kill_trial = false;
};

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", value);
  return text;
}

Result<yarn::HadoopConfiguration> configuration() {
  return yarn::HadoopConfiguration::from_environment();
}

// The cluster of HADOOP_CONF_DIR; without one, its sentence is printed and `code` set.
std::optional<yarn::HadoopConfiguration> cluster_or_say(int& code) {
  auto cluster = configuration();
  if (cluster) return std::move(*cluster);
  std::cerr << cluster.error().message << '\n';
  code = exit_bad_input;
  return std::nullopt;
}

// The sweep as `read_sweep` finds it; otherwise the sentence, under the command's name.
std::optional<client::SweepView> sweep_or_say(const yarn::HadoopConfiguration& cluster, const char* command,
                                              const std::string& sweep_id, int& code) {
  auto view = client::read_sweep(cluster, sweep_id);
  if (view) return std::move(*view);
  std::cerr << "spindle sweep " << command << ": " << view.error().message << '\n';
  code = exit_code_for_cluster_error(view.error());
  return std::nullopt;
}

int run_submit(const SweepOptions& options) {
  auto sweep = load_sweep_spec(options.spec, true, options.search);
  if (!sweep) {
    print_diagnostics(sweep.error(), options.json);
    return exit_bad_input;
  }
  if (!options.login.apply(sweep->job, "sweep submit")) return exit_bad_input;
  int code = exit_done;
  auto cluster = cluster_or_say(code);
  if (!cluster) return code;
  client::SubmitOptions submitting;
  submitting.progress = [](const std::string& line) { std::cerr << line << '\n'; };
  submitting.check_fit = !options.no_fit_check;
  auto submitted = client::submit_sweep(*sweep, *cluster, submitting);
  if (!submitted) {
    const auto& error = submitted.error();
    if (options.json) std::cout << nlohmann::json{{"error", error.message}}.dump() << '\n';
    std::cerr << "spindle sweep submit: " << error.message << '\n';
    return error.kind == client::SubmitError::Kind::bad_input ? exit_bad_input : exit_cluster_unreachable;
  }
  if (options.json) {
    std::cout << nlohmann::json{{"sweep_id", submitted->application_id},
                                {"trials", sweep->search.trials},
                                {"parallel", sweep->search.parallel},
                                {"staging", submitted->staging}}
                     .dump()
              << '\n';
  } else {
    std::cout << submitted->application_id << '\n';
    std::cerr << "the sweep runs " << sweep->search.trials << " trials, " << sweep->search.parallel
              << " at a time, inside YARN; follow it with spindle sweep status " << submitted->application_id << '\n';
  }
  return exit_done;
}

void print_trials(const SweepRecord& record) {
  std::cout << std::left << std::setw(6) << "TRIAL" << std::setw(22) << "STATE" << std::setw(32) << "APPLICATION"
            << std::setw(14) << "BEST" << std::setw(8) << "AT STEP"
            << "PARAMETERS\n";
  for (const auto& trial : record.trials) {
    std::string parameters;
    for (const auto& [name, value] : trial.parameters.values) {
      parameters += (parameters.empty() ? "" : " ") + name + "=" + value;
    }
    std::cout << std::left << std::setw(6) << trial.parameters.index << std::setw(22) << to_string(trial.state)
              << std::setw(32) << (trial.application_id.empty() ? "-" : trial.application_id) << std::setw(14)
              << (trial.best ? number(trial.best->value) : "-") << std::setw(8)
              << (trial.best ? std::to_string(trial.best->step) : "-") << parameters << '\n';
  }
  for (const auto& trial : record.trials) {
    if ((trial.state == TrialState::stopped || trial.state == TrialState::failed ||
         trial.state == TrialState::killed) &&
        !trial.why.empty()) {
      std::cout << "trial " << trial.parameters.index << " " << to_string(trial.state) << ": " << trial.why << '\n';
    }
  }
}

int run_status(const SweepOptions& options) {
  int code = exit_done;
  auto cluster = cluster_or_say(code);
  if (!cluster) return code;
  auto view = sweep_or_say(*cluster, "status", options.sweep_id, code);
  if (!view) return code;
  if (options.json) {
    std::cout << client::sweep_json(*view).dump() << '\n';
    return exit_done;
  }
  const auto& record = view->record;
  std::cout << record.sweep_id << "  " << record.name << "  " << to_string(record.state) << "  "
            << record.count(TrialState::succeeded) << " succeeded, " << record.count(TrialState::stopped)
            << " stopped by the sweep, " << record.count(TrialState::failed) << " failed, "
            << record.count(TrialState::killed) << " killed, "
            << record.count(TrialState::submitted) + record.count(TrialState::running) << " running, "
            << record.count(TrialState::waiting) << " waiting\n";
  if (!record.diagnostics.empty()) std::cout << record.diagnostics << '\n';
  if (!view->note.empty()) std::cout << "note: " << view->note << '\n';
  if (!record.trials.empty()) print_trials(record);
  return exit_done;
}

int run_list(const SweepOptions& options) {
  int code = exit_done;
  auto cluster = cluster_or_say(code);
  if (!cluster) return code;
  auto views = client::list_sweeps(*cluster);
  if (!views) {
    std::cerr << "spindle sweep list: " << views.error().message << '\n';
    return exit_cluster_unreachable;
  }
  if (options.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& view : *views) out.push_back(client::sweep_json(view));
    std::cout << out.dump() << '\n';
    return exit_done;
  }
  if (views->empty()) {
    std::cout << "no sweeps in the history of this machine (spindle sweep submit starts one)\n";
    return exit_done;
  }
  std::cout << std::left << std::setw(32) << "SWEEP" << std::setw(24) << "NAME" << std::setw(11) << "STATE"
            << std::setw(8) << "TRIALS" << std::setw(9) << "ENDED"
            << "BEST\n";
  for (const auto& view : *views) {
    const auto& record = view.record;
    int ended = 0;
    for (const auto& trial : record.trials) ended += is_final(trial.state);
    const auto* best = record.best_trial();
    std::cout << std::left << std::setw(32) << record.sweep_id << std::setw(24) << record.name << std::setw(11)
              << to_string(record.state) << std::setw(8) << record.trials.size() << std::setw(9) << ended
              << (best ? "trial " + std::to_string(best->parameters.index) + ": " + number(best->best->value) : "-")
              << '\n';
  }
  return exit_done;
}

int run_best(const SweepOptions& options) {
  int code = exit_done;
  auto cluster = cluster_or_say(code);
  if (!cluster) return code;
  auto view = sweep_or_say(*cluster, "best", options.sweep_id, code);
  if (!view) return code;
  const auto* best = view->record.best_trial();
  if (!best) {
    std::cerr << "spindle sweep best: no trial of " << options.sweep_id << " has logged " << view->record.metric().tag
              << " yet\n";
    return exit_job_failed;
  }
  if (options.json) {
    auto out = client::trial_json(*best);
    out["metric"] = view->record.metric().tag;
    out["sweep_state"] = to_string(view->record.state);
    std::cout << out.dump() << '\n';
    return exit_done;
  }
  std::cout << "trial " << best->parameters.index << " (" << best->application_id << "), " << to_string(best->state)
            << ": " << view->record.metric().tag << " " << number(best->best->value) << " at step " << best->best->step
            << '\n';
  for (const auto& [name, value] : best->parameters.values) std::cout << "  " << name << " = " << value << '\n';
  return exit_done;
}

int run_kill(const SweepOptions& options) {
  int code = exit_done;
  auto cluster = cluster_or_say(code);
  if (!cluster) return code;
  auto killed = client::kill_sweep(*cluster, options.sweep_id);
  if (!killed) {
    std::cerr << "spindle sweep kill: " << killed.error().message << '\n';
    return exit_code_for_cluster_error(killed.error());
  }
  std::cout << options.sweep_id << " killed";
  if (!killed->empty()) std::cout << ", and " << killed->size() << " trials its controller had left running";
  std::cout << '\n';
  // Its record now says how each trial ended; the history keeps that copy.
  (void)client::read_sweep(*cluster, options.sweep_id);
  return exit_done;
}

int run_stop(const SweepOptions& options) {
  int code = exit_done;
  auto cluster = cluster_or_say(code);
  if (!cluster) return code;
  auto ended = client::end_trial(*cluster, options.sweep_id, options.trial, !options.kill_trial);
  if (!ended) {
    std::cerr << "spindle sweep stop: " << ended.error().message << '\n';
    // No such trial, or one that is not running: the command's input is wrong, not the cluster.
    return ended.error().kind == Error::Kind::refused ? exit_bad_input : exit_code_for_cluster_error(ended.error());
  }
  std::cout << "trial " << options.trial << " of " << options.sweep_id
            << (options.kill_trial ? " killed; it ends as killed"
                                   : " stopped; it ends as stopped by the sweep, its checkpoints and scalars kept")
            << '\n';
  return exit_done;
}

}  // namespace

void add_sweep_command(CLI::App& app, int& exit_code) {
  CLI::App* sweep = app.add_subcommand("sweep", "Hyper-parameter sweeps: many trials of one spec, run inside YARN");
  sweep->require_subcommand(1);
  auto options = std::make_shared<SweepOptions>();

  CLI::App* submit =
      sweep->add_subcommand("submit", "Submit a sweep; it returns at once and runs without this machine");
  submit->add_option("spec", options->spec, "Spec file with a sweep section")->required();
  submit->add_option("--search", options->search, "The sweep's search in a file of its own, beside a job spec");
  submit->add_flag("--json", options->json, "Print {\"sweep_id\", \"trials\", ...} as JSON");
  options->login.add_to(*submit, "sweep");
  submit->add_flag("--no-fit-check", options->no_fit_check,
                   "Do not refuse a sweep whose trials the cluster's nodes can never hold");
  submit->callback([options, &exit_code] { exit_code = run_submit(*options); });

  for (const auto& [name, description] : std::vector<std::pair<std::string, std::string>>{
           {"status", "A sweep's trials: parameters, state, best metric, why each ended"},
           {"best", "The sweep's best trial so far and its parameters"},
           {"kill", "Kill a sweep: its controller, then every trial still running"}}) {
    CLI::App* command = sweep->add_subcommand(name, description);
    command->add_option("sweep", options->sweep_id, "The sweep's id (its controller's application id)")->required();
    if (name != "kill") command->add_flag("--json", options->json, "Print as JSON");
    command->callback([options, &exit_code, name = name] {
      exit_code = name == "status" ? run_status(*options) : name == "best" ? run_best(*options) : run_kill(*options);
    });
  }
  CLI::App* stop = sweep->add_subcommand(
      "stop", "Stop one running trial: it ends as stopped by the sweep, and the sweep goes on without it");
  stop->add_option("sweep", options->sweep_id, "The sweep's id (its controller's application id)")->required();
  stop->add_option("trial", options->trial, "The trial's number")->required()->check(CLI::NonNegativeNumber);
  stop->add_flag("--kill", options->kill_trial, "End it as killed instead");
  stop->callback([options, &exit_code] { exit_code = run_stop(*options); });
  CLI::App* list = sweep->add_subcommand("list", "The sweeps of this machine's history");
  list->add_flag("--json", options->json, "Print as JSON");
  list->callback([options, &exit_code] { exit_code = run_list(*options); });
}

}  // namespace spindle::cli

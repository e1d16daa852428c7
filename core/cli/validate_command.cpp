#include "cli/validate_command.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/spec_source.h"
#include "spindle/client/submit.h"
#include "spindle/client/will_it_fit.h"
#include "spindle/core/location_warnings.h"
#include "spindle/core/spec_writer.h"
#include "spindle/core/sweep_trials.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/resource_manager_rest.h"

namespace spindle::cli {
namespace {

struct ValidateOptions {
  SpecSource source;
  std::string search;  // a sweep's search beside the spec
  bool json = false;
  bool cluster = false;
};

// Whether the job fits the cluster of HADOOP_CONF_DIR now: its lines, and
// the exit code (2 when some task type can never fit as the spec stands).
int check_fit(const JobSpec& spec, bool json, nlohmann::ordered_json& out) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    return exit_bad_input;
  }
  const auto logged_in = client::with_login(*configuration, spec);
  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(logged_in));
  auto rest = yarn::ResourceManagerRest::from_configuration(logged_in);
  auto state = client::read_cluster_state(client, &rest);
  if (!state) {
    std::cerr << "spindle validate: the spec is valid, but the cluster could not be asked whether it fits: "
              << state.error().message << '\n';
    return exit_cluster_unreachable;
  }
  const auto fit = client::will_it_fit(spec, *state);
  if (json) {
    nlohmann::ordered_json types = nlohmann::ordered_json::array();
    for (const auto& type : fit.types) {
      types.push_back({{"type", type.type},
                       {"verdict", std::string(client::to_string(type.verdict))},
                       {"instances", type.instances},
                       {"placeable_now", type.placeable_now},
                       {"sentence", type.sentence}});
    }
    out["fit"] = {{"fits_now", fit.fits_now()}, {"types", types}, {"warnings", fit.warnings}};
  } else {
    std::cout << "# "
              << (fit.fits_now()       ? "fits now"
                  : fit.can_ever_fit() ? "waits"
                                       : "never fits as it stands")
              << '\n';
    for (const auto& warning : fit.warnings) std::cout << "# warning: " << warning << '\n';
    if (!state->limits_unknown.empty()) {
      std::cout << "# warning: the queue's limits were not read (" << state->limits_unknown
                << "); the whole job is checked against the queue's maximum capacity only\n";
    }
    for (const auto& type : fit.types) std::cout << "# " << type.sentence << '\n';
  }
  return fit.can_ever_fit() ? exit_done : exit_bad_input;
}

// A spec with a sweep section, or with --search: the job and the search, and
// the trials it draws.
Result<std::optional<SweepSpec>, Diagnostics> load_sweep(const ValidateOptions& options) {
  const auto file = options.source.spec_file();
  if (file.empty()) return std::optional<SweepSpec>();
  if (options.search.empty()) {
    auto text = read_spec_file(file);
    if (!text || !has_sweep_section(*text)) return std::optional<SweepSpec>();
  }
  auto sweep = load_sweep_spec(file, true, options.search);
  if (!sweep) return sweep.error();
  return std::optional<SweepSpec>(std::move(*sweep));
}

int run_validate(const ValidateOptions& options) {
  auto sweep = load_sweep(options);
  if (!sweep) {
    print_diagnostics(sweep.error(), options.json);
    return exit_bad_input;
  }
  auto spec = *sweep ? Result<JobSpec, Diagnostics>((*sweep)->job) : options.source.load(/*check_files=*/true);
  if (!spec) {
    print_diagnostics(spec.error(), options.json);
    return exit_bad_input;
  }
  nlohmann::ordered_json out{{"valid", true}, {"spec", to_json(*spec)}};
  if (*sweep) {
    out["sweep"] = nlohmann::ordered_json::parse(search_to_json((*sweep)->search));
    auto& trials = out["trials"] = nlohmann::ordered_json::array();
    for (const auto& trial : draw_trials((*sweep)->search)) {
      nlohmann::ordered_json values = nlohmann::ordered_json::object();
      for (const auto& [name, value] : trial.values) values[name] = value;
      trials.push_back({{"trial", trial.index}, {"parameters", values}});
    }
    if (!options.json) {
      std::cerr << "a sweep of " << (*sweep)->search.trials << " trials, " << (*sweep)->search.parallel
                << " at a time; spindle validate --json lists each trial's parameters\n";
    }
  }
  const auto warnings = location_warnings(*spec, options.source.spec_file());
  if (options.json) {
    out["warnings"] = nlohmann::ordered_json::array();
    for (const auto& warning : warnings) {
      out["warnings"].push_back({{"file", warning.file},
                                 {"line", warning.line},
                                 {"column", warning.column},
                                 {"field", warning.field},
                                 {"message", warning.message}});
    }
  } else {
    for (const auto& warning : warnings) std::cerr << "warning: " << warning.to_string() << '\n';
    std::cout << to_yaml(*spec);
  }
  int code = exit_done;
  if (options.cluster) code = check_fit(*spec, options.json, out);
  if (options.json) {
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
  }
  return code;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* command = app.add_subcommand("validate", "Check a job spec and print it normalized (memory in MiB)");
  options->source.add_options(*command);
  command->add_option("--search", options->search, "A sweep's search in a file of its own, beside the spec");
  command->add_flag("--json", options->json, "Print {\"valid\": ..., \"spec\"|\"errors\": ...} as JSON");
  command->add_flag("--cluster", options->cluster,
                    "Also say, per task type, whether the cluster of HADOOP_CONF_DIR has room for it now, will "
                    "have once running work ends, or never can");
  command->callback([options, &exit_code] { exit_code = run_validate(*options); });
}

}  // namespace spindle::cli

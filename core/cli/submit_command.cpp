#include "cli/submit_command.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/job_follow.h"
#include "cli/keytab_flags.h"
#include "cli/spec_source.h"
#include "spindle/client/submit.h"
#include "spindle/core/location_warnings.h"

namespace spindle::cli {
namespace {

struct SubmitCommandOptions {
  SpecSource source;
  bool wait = false;
  bool json = false;
  bool no_fit_check = false;
  KeytabFlags login;
};

int run_submit(const SubmitCommandOptions& options) {
  auto spec = options.source.load(/*check_files=*/true);
  if (!spec) {
    print_diagnostics(spec.error(), options.json);
    return exit_bad_input;
  }
  if (!options.login.apply(*spec, "submit")) return exit_bad_input;
  for (const auto& warning : location_warnings(*spec, options.source.spec_file())) {
    std::cerr << "warning: " << warning.to_string() << '\n';
  }
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    return exit_bad_input;
  }
  client::SubmitOptions submitting;
  submitting.progress = [](const std::string& line) { std::cerr << line << '\n'; };
  submitting.check_fit = !options.no_fit_check;
  auto submitted = client::submit_job(*spec, *configuration, submitting);
  if (!submitted) {
    const auto& error = submitted.error();
    if (options.json) std::cout << nlohmann::json{{"error", error.message}}.dump() << '\n';
    std::cerr << "spindle submit: " << error.message << '\n';
    return error.kind == client::SubmitError::Kind::bad_input ? exit_bad_input : exit_cluster_unreachable;
  }
  nlohmann::json environment;
  if (const auto& shipped = submitted->environment) {
    environment = {{"name", shipped->name},
                   {"location", shipped->location},
                   {"bytes", shipped->bytes},
                   {"uploaded_bytes", shipped->uploaded_bytes},
                   {"packed_now", shipped->packed_now}};
  }
  if (!options.wait) {
    if (options.json) {
      nlohmann::json out = {{"application_id", submitted->application_id}, {"staging", submitted->staging}};
      if (!environment.is_null()) out["python_env"] = environment;
      std::cout << out.dump() << '\n';
    } else {
      std::cout << submitted->application_id << '\n';
    }
    return exit_done;
  }
  std::cerr << "submitted " << submitted->application_id << '\n';
  auto job = client::JobConnection::open(client::with_login(*configuration, *spec), submitted->application_id);
  if (!job) {
    std::cerr << job.error().message << '\n';
    return exit_cluster_unreachable;
  }
  const int code = follow_job(*job, std::cerr);
  auto report = job->report();
  if (options.json) {
    nlohmann::json out = {{"application_id", submitted->application_id}};
    if (!environment.is_null()) out["python_env"] = environment;
    if (report) {
      out["state"] = report->state;
      out["final_status"] = report->final_status;
      out["diagnostics"] = report->diagnostics;
    }
    if (auto status = job->last_status()) out["job"] = nlohmann::json(to_json(*status));
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else if (report) {
    if (auto status = job->last_status()) print_status_table(*status, std::cout);
    print_outcome(*report, std::cout);
  }
  return code;
}

}  // namespace

void add_submit_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<SubmitCommandOptions>();
  CLI::App* command = app.add_subcommand("submit", "Submit a job (a spec, or -r \"ps:1,worker:2\" -- COMMAND)");
  options->source.add_options(*command);
  command->add_flag("--wait", options->wait, "Follow the job to its end; exit 0 if it succeeded, 1 if not");
  command->add_flag("--json", options->json, "Print the application id (and with --wait the outcome) as JSON");
  command->add_flag("--no-fit-check", options->no_fit_check,
                    "Submit even if the cluster's nodes now could never hold the job (a container larger than the "
                    "largest they grant, a label none carries, a gang its queue cannot hold): for clusters whose "
                    "nodes come and go (autoscaling), which may grant tomorrow what they cannot today. What the "
                    "ResourceManager refuses when the job asks fails the job, saying why");
  options->login.add_to(*command, "job");
  command->callback([options, &exit_code] { exit_code = run_submit(*options); });
}

}  // namespace spindle::cli

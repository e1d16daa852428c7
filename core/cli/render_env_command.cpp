#include "cli/render_env_command.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/spec_source.h"
#include "spindle/core/environment.h"
#include "spindle/core/shell_quote.h"

namespace spindle::cli {
namespace {

struct RenderEnvOptions {
  SpecSource source;
  std::string hosts;
  std::string task;
  std::string application_id = "application_0000000000000_0000";
  int attempt = 0;
  bool json = false;
};

int fail(const std::string& field, const std::string& message, bool json) {
  print_diagnostics({{"command line", 0, 0, field, message}}, json);
  return exit_bad_input;
}

int run_render_env(const RenderEnvOptions& options) {
  auto spec = options.source.load(/*check_files=*/false);
  if (!spec) {
    print_diagnostics(spec.error(), options.json);
    return exit_bad_input;
  }
  auto address_list = parse_address_list(options.hosts);
  if (!address_list) return fail("--hosts", address_list.error().message, options.json);
  auto addresses = ClusterAddresses::create(*spec, std::move(*address_list));
  if (!addresses) return fail("--hosts", addresses.error().message, options.json);
  auto task = parse_task_id(options.task);
  if (!task) return fail("--task", task.error().message, options.json);
  if (!addresses->all().contains(*task)) {
    return fail("--task", task->to_string() + " is not a task of this job; pick one named in --hosts", options.json);
  }
  if (options.attempt < 0) return fail("--attempt", "must be 0 or more", options.json);

  const Environment env =
      task_environment(*spec, *addresses, TaskContext{options.application_id, *task, options.attempt});
  if (options.json) {
    std::cout << nlohmann::ordered_json(env).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
              << '\n';
  } else {
    for (const auto& [name, value] : env) std::cout << "export " << name << '=' << shell_quote(value) << '\n';
  }
  return exit_done;
}

}  // namespace

void add_render_env_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<RenderEnvOptions>();
  CLI::App* command = app.add_subcommand("render-env", "Print the environment one task of a job would get");
  options->source.add_options(*command);
  command->add_option("--hosts", options->hosts, "Every task's address: chief:0=h1:2222,worker:0=h2:2223,...")
      ->required();
  command->add_option("--task", options->task, "The task to render, e.g. worker:0")->required();
  command->add_option("--app-id", options->application_id, "Application id to put in SPINDLE_APP_ID");
  command->add_option("--attempt", options->attempt, "How many times the task was started before");
  command->add_flag("--json", options->json, "Print one JSON object of variable to value");
  command->callback([options, &exit_code] { exit_code = run_render_env(*options); });
}

}  // namespace spindle::cli

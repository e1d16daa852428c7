#include "cli/validate_command.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/spec_source.h"
#include "spindle/core/spec_writer.h"

namespace spindle::cli {
namespace {

struct ValidateOptions {
  SpecSource source;
  bool json = false;
};

int run_validate(const ValidateOptions& options) {
  auto spec = options.source.load(/*check_files=*/true);
  if (!spec) {
    print_diagnostics(spec.error(), options.json);
    return exit_bad_input;
  }
  if (options.json) {
    std::cout << nlohmann::ordered_json{{"valid", true}, {"spec", to_json(*spec)}}.dump(
                     2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
              << '\n';
  } else {
    std::cout << to_yaml(*spec);
  }
  return exit_done;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* command = app.add_subcommand("validate", "Check a job spec and print it normalized (memory in MiB)");
  options->source.add_options(*command);
  command->add_flag("--json", options->json, "Print {\"valid\": ..., \"spec\"|\"errors\": ...} as JSON");
  command->callback([options, &exit_code] { exit_code = run_validate(*options); });
}

}  // namespace spindle::cli

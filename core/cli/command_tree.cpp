#include "cli/command_tree.h"

namespace spindle::cli {
namespace {

nlohmann::ordered_json option_json(const CLI::Option& option) {
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (const auto& name : option.get_snames()) names.push_back("-" + name);
  for (const auto& name : option.get_lnames()) names.push_back("--" + name);
  const bool positional = names.empty();
  if (positional) names.push_back(option.get_name());
  return {{"names", std::move(names)},
          {"takes_value", option.get_type_size_max() > 0 || positional},
          {"positional", positional},
          {"description", option.get_description()}};
}

nlohmann::ordered_json app_json(const CLI::App& app) {
  nlohmann::ordered_json options = nlohmann::ordered_json::array();
  for (const auto* option : app.get_options()) {
    // --help and --version are every command's; the tree lists what is the command's own.
    if (option->get_name() == "--help" || option->get_name() == "--version" || option->get_group().empty()) continue;
    options.push_back(option_json(*option));
  }
  nlohmann::ordered_json commands = nlohmann::ordered_json::array();
  for (const auto* command : app.get_subcommands({})) {
    if (command->get_group().empty()) continue;
    commands.push_back(app_json(*command));
  }
  return {{"name", app.get_name()},
          {"description", app.get_description()},
          {"options", std::move(options)},
          {"commands", std::move(commands)}};
}

}  // namespace

nlohmann::ordered_json command_tree(const CLI::App& app) {
  return app_json(app);
}

}  // namespace spindle::cli

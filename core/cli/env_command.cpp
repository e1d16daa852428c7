#include "cli/env_command.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "cli/time_format.h"
#include "spindle/client/cluster_cache.h"
#include "spindle/client/python_env.h"

namespace spindle::cli {
namespace {

struct PackArguments {
  std::string environment;
  std::string output;
};

int pack(const PackArguments& arguments) {
  auto located = client::locate_python_env(arguments.environment);
  if (!located) {
    std::cerr << "spindle env pack: " << located.error().message << '\n';
    return exit_bad_input;
  }
  client::PackOptions options;
  if (!arguments.output.empty()) options.output = arguments.output;
  std::uint64_t shown = 0;
  options.progress = [&shown](std::uint64_t done, std::uint64_t total) {
    // A line per tenth, so a log of a 2 GB pack stays short.
    if (total == 0 || done * 10 / total == shown) return;
    shown = done * 10 / total;
    std::cerr << "packed " << done / (1024 * 1024) << " of " << total / (1024 * 1024) << " MiB\n";
  };
  auto packed = client::pack_python_env(*located, options);
  if (!packed) {
    std::cerr << "spindle env pack: " << packed.error().message << '\n';
    return exit_bad_input;
  }
  std::cerr << (packed->packed_now ? "packed " : "unchanged since it was packed: ") << located->path.string() << '\n';
  std::cout << (arguments.output.empty() ? packed->archive.string() : arguments.output) << '\n';
  return exit_done;
}

// The cache of the cluster of HADOOP_CONF_DIR; a missing configuration is the user's to fix (exit 2).
Result<std::unique_ptr<client::ClusterCache>> open_cache(int& failure_code) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  failure_code = configuration ? exit_cluster_unreachable : exit_bad_input;
  if (!configuration) return configuration.error();
  return client::ClusterCache::open(*configuration, client::CacheArea::python_environments);
}

int list(bool json) {
  int failure_code = exit_cluster_unreachable;
  auto cache = open_cache(failure_code);
  if (!cache) {
    std::cerr << "spindle env list: " << cache.error().message << '\n';
    return failure_code;
  }
  auto cached = (*cache)->list();
  if (!cached) {
    std::cerr << "spindle env list: " << cached.error().message << '\n';
    return exit_cluster_unreachable;
  }
  if (json) {
    auto out = nlohmann::json::array();
    for (const auto& each : *cached) {
      out.push_back({{"name", each.name}, {"bytes", each.bytes}, {"modified_ms", each.modification_time}});
    }
    std::cout << nlohmann::json{{"location", (*cache)->location()}, {"environments", out}}.dump(2) << '\n';
    return exit_done;
  }
  if (cached->empty()) {
    std::cerr << "no packed environments in " << (*cache)->location() << '\n';
    return exit_done;
  }
  std::cerr << "in " << (*cache)->location() << ":\n";
  for (const auto& each : *cached) {
    std::cout << each.name << "  " << each.bytes / (1024 * 1024) << " MiB  " << local_time(each.modification_time)
              << '\n';
  }
  return exit_done;
}

int remove(const std::vector<std::string>& names) {
  int failure_code = exit_cluster_unreachable;
  auto cache = open_cache(failure_code);
  if (!cache) {
    std::cerr << "spindle env rm: " << cache.error().message << '\n';
    return failure_code;
  }
  int code = exit_done;
  for (const auto& name : names) {
    auto removed = (*cache)->remove(name);
    if (!removed) {
      std::cerr << "spindle env rm: " << removed.error().message << '\n';
      code = exit_cluster_unreachable;
    } else if (!*removed) {
      std::cerr << "spindle env rm: " << name << " is not in " << (*cache)->location()
                << "; spindle env list shows what is\n";
      code = exit_bad_input;
    } else {
      std::cerr << "removed " << name << " from " << (*cache)->location() << '\n';
    }
  }
  return code;
}

}  // namespace

void add_env_command(CLI::App& app, int& exit_code) {
  CLI::App* env = app.add_subcommand("env", "Python environments packed for jobs (spec key python_env)");
  env->require_subcommand(1);

  auto arguments = std::make_shared<PackArguments>();
  CLI::App* pack_command = env->add_subcommand(
      "pack", "Pack a venv (or current, or a prepared archive) the way submit ships it; prints the archive's path");
  pack_command->add_option("environment", arguments->environment, "A venv's directory, current, or an archive")
      ->required();
  pack_command->add_option("-o,--output", arguments->output, "Also write the archive here");
  pack_command->callback([&exit_code, arguments] { exit_code = pack(*arguments); });

  auto json = std::make_shared<bool>(false);
  CLI::App* list_command = env->add_subcommand("list", "The packed environments the cluster keeps for you");
  list_command->add_flag("--json", *json, "As JSON");
  list_command->callback([&exit_code, json] { exit_code = list(*json); });

  auto names = std::make_shared<std::vector<std::string>>();
  CLI::App* rm_command = env->add_subcommand("rm", "Remove packed environments from the cluster");
  rm_command->add_option("names", *names, "Names as spindle env list shows them")->required();
  rm_command->callback([&exit_code, names] { exit_code = remove(*names); });
}

}  // namespace spindle::cli

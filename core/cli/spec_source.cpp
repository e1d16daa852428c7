#include "cli/spec_source.h"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "spindle/core/spec_parser.h"

namespace spindle::cli {

void SpecSource::add_options(CLI::App& command) {
  command.add_option("spec", spec_path, "Job spec file (YAML or JSON)");
  command.add_option("-r,--cluster_requirement", shorthand.cluster_requirement,
                     "ytf-submit form: task types and counts, e.g. \"ps:1,worker:4\"");
  command.add_option("-s,--script", shorthand.script, "Script shipped to every task as ${DTF_TASK_SCRIPT}");
  command.add_option("-i,--input", shorthand.input, "Input path (DTF_INPUT_PATH)");
  command.add_option("-o,--output", shorthand.output, "Output path (DTF_OUTPUT_PATH, TensorBoard's log directory)");
  command.add_option("-n,--name", shorthand.name, "Application name")->default_str("TensorFlow");
  command.add_option("-q,--queue", shorthand.queue, "YARN queue")->default_str("default");
  command.add_option("-m,--task_memory", shorthand.memory, "Memory per task: 2048 (MiB), 2g, 2 GiB");
  command.add_option("-c,--task_vcores", shorthand.vcores, "Virtual cores per task");
  command.add_flag("-t,--tensorboard", shorthand.tensorboard, "Add a TensorBoard task over the output path");
  command.add_option("--docker_image", shorthand.docker_image, "Docker image the tasks run in");
  command.add_option("command", command_words, "With -r: the command every task runs, after --");
}

Result<JobSpec, Diagnostics> SpecSource::load(bool check_files) const {
  const bool shorthand_given = !shorthand.cluster_requirement.empty();
  if (shorthand_given) {
    // After "--" every word is positional, so the first word of the command
    // lands where a spec file would; with -r there is no spec file.
    ShorthandOptions options = shorthand;
    if (!spec_path.empty()) options.command = spec_path;
    for (const auto& word : command_words) options.command += (options.command.empty() ? "" : " ") + word;
    return job_spec_from_shorthand(options, std::filesystem::current_path(), check_files);
  }
  if (spec_path.empty()) {
    return Diagnostics{
        {"command line", 0, 0, "SPEC", "is missing; give a spec file, or -r \"ps:1,worker:2\" -- COMMAND"}};
  }
  if (!command_words.empty()) {
    return Diagnostics{
        {"command line", 0, 0, "COMMAND", "is only used with -r; a spec file gives each task its command"}};
  }
  return load_job_spec(spec_path, check_files);
}

std::filesystem::path SpecSource::spec_file() const {
  if (!shorthand.cluster_requirement.empty()) return {};
  return spec_path;
}

void print_diagnostics(const Diagnostics& diagnostics, bool as_json) {
  if (!as_json) {
    std::cerr << format_diagnostics(diagnostics);
    return;
  }
  nlohmann::ordered_json errors = nlohmann::ordered_json::array();
  for (const auto& d : diagnostics) {
    errors.push_back(
        {{"file", d.file}, {"line", d.line}, {"column", d.column}, {"field", d.field}, {"message", d.message}});
  }
  std::cout << nlohmann::ordered_json{{"valid", false}, {"errors", errors}}.dump(
                   2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
            << '\n';
}

}  // namespace spindle::cli

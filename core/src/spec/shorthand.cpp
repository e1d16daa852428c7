#include "spindle/core/shorthand.h"

#include <set>

#include "spec/job_rules.h"
#include "spec/shipped_files.h"
#include "spindle/core/quantities.h"
#include "spindle/core/text.h"

namespace spindle {
namespace {

constexpr std::string_view origin = "command line";

Diagnostic problem(std::string option, std::string message) {
  return Diagnostic{std::string(origin), 0, 0, std::move(option), std::move(message)};
}

// "ps:1,worker:4" -> [(ps, 1), (worker, 4)]
std::vector<std::pair<std::string, int>> parse_requirement(std::string_view text, Diagnostics& diagnostics) {
  std::vector<std::pair<std::string, int>> entries;
  if (trim(text).empty()) {
    diagnostics.push_back(problem("-r", "is missing; give the tasks to run, e.g. -r \"ps:1,worker:4\""));
    return entries;
  }
  std::set<std::string> seen;
  std::size_t start = 0;
  int position = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view entry = trim(text.substr(start, comma - start));
    start = comma + 1;
    ++position;
    const std::string quoted = "\"" + std::string(entry) + "\"";
    const std::size_t colon = entry.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      diagnostics.push_back(problem("-r", "entry " + std::to_string(position) + " " + quoted +
                                              " is not TYPE:COUNT; write e.g. -r \"ps:1,worker:4\""));
      continue;
    }
    const std::string type(trim(entry.substr(0, colon)));
    const std::string count_text(trim(entry.substr(colon + 1)));
    int count = 0;
    bool numeric =
        !count_text.empty() && count_text.size() < 6 && count_text.find_first_not_of("0123456789") == std::string::npos;
    if (numeric) count = std::stoi(count_text);
    if (!numeric || count < 1) {
      diagnostics.push_back(problem(
          "-r", "entry " + quoted + " has the count \"" + count_text + "\"; give a whole number of at least 1"));
      continue;
    }
    if (!seen.insert(type).second) {
      diagnostics.push_back(problem("-r", "names \"" + type + "\" twice; give each task type once with its count"));
      continue;
    }
    entries.emplace_back(type, count);
    if (comma == text.size()) break;
  }
  return entries;
}

}  // namespace

Result<JobSpec, Diagnostics> job_spec_from_shorthand(const ShorthandOptions& options,
                                                     const std::filesystem::path& base_dir, bool check_files) {
  Diagnostics diagnostics;
  JobSpec spec;
  spec.name = options.name.empty() ? "TensorFlow" : options.name;
  spec.queue = options.queue.empty() ? "default" : options.queue;
  spec.input = options.input;
  spec.output = options.output;
  spec.docker_image = options.docker_image;

  std::uint64_t memory_mib = default_task("worker").memory_mib;
  if (!options.memory.empty()) {
    // ytf-submit took plain MB; a bare number still means MiB here.
    if (auto parsed = parse_memory_mib(options.memory)) {
      memory_mib = *parsed;
    } else {
      diagnostics.push_back(problem("-m", parsed.error().message));
    }
  }
  int vcores = 1;
  if (options.vcores) {
    if (*options.vcores < 1 || *options.vcores > 1024) {
      diagnostics.push_back(problem("-c", std::to_string(*options.vcores) + " is out of range; give 1 to 1024 vcores"));
    } else {
      vcores = *options.vcores;
    }
  }
  if (trim(options.command).empty()) {
    diagnostics.push_back(problem("COMMAND",
                                  "is missing; put the command each task runs after --, e.g. -- python "
                                  "${DTF_TASK_SCRIPT}"));
  }
  if (options.tensorboard && options.output.empty()) {
    diagnostics.push_back(problem("-t", "needs -o OUTPUT, the directory TensorBoard reads its logs from"));
  }
  if (!options.script.empty()) {
    const std::string name = detail::default_shipped_name(options.script, false);
    if (detail::is_remote_source(options.script)) {
      spec.files.push_back({name, options.script});
      spec.script = name;
    } else {
      const auto check = detail::check_local_source(options.script, base_dir, check_files, false);
      if (!check.problem.empty()) {
        diagnostics.push_back(problem("-s", check.problem));
      } else {
        spec.files.push_back({name, check.resolved});
        spec.script = name;
      }
    }
  }

  for (const auto& [type, count] : parse_requirement(options.cluster_requirement, diagnostics)) {
    if (type == task_types::tensorboard) {
      diagnostics.push_back(problem("-r", "lists tensorboard; ask for it with -t instead"));
      continue;
    }
    const bool valid_name = !type.empty() && type.size() <= 32 && std::islower(static_cast<unsigned char>(type[0])) &&
                            type.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
    if (!valid_name) {
      diagnostics.push_back(problem("-r", "\"" + type +
                                              "\" is not a valid task type; use lower-case letters, digits "
                                              "and _, starting with a letter"));
      continue;
    }
    TaskSpec task = default_task(type);
    task.instances = count;
    task.memory_mib = memory_mib;
    task.vcores = vcores;
    task.command = options.command;
    spec.tasks.push_back(std::move(task));
  }
  if (options.tensorboard) spec.tasks.push_back(default_task(task_types::tensorboard));
  std::stable_sort(spec.tasks.begin(), spec.tasks.end(), [](const TaskSpec& a, const TaskSpec& b) {
    return canonical_rank(a.type) < canonical_rank(b.type);
  });

  if (diagnostics.empty()) {
    const detail::FieldLocator nowhere = [](const std::string&) { return detail::YamlFields::Place{}; };
    diagnostics = detail::check_job_rules(spec, nowhere, std::string(origin));
  }
  if (!diagnostics.empty()) return diagnostics;
  return spec;
}

}  // namespace spindle

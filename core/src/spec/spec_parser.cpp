#include "spindle/core/spec_parser.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>

#include "spec/job_rules.h"
#include "spec/shipped_files.h"
#include "spec/suggest.h"
#include "spec/utf8.h"
#include "spec/yaml_fields.h"
#include "spindle/core/python_env_path.h"

namespace spindle {
namespace {

using detail::YamlFields;

constexpr std::array<std::string_view, 28> job_keys{"name",
                                                    "queue",
                                                    "priority",
                                                    "tags",
                                                    "max_attempts",
                                                    "timeout",
                                                    "heartbeat_timeout",
                                                    "replacement_timeout",
                                                    "allocation_timeout",
                                                    "on_allocation_timeout",
                                                    "stall_timeout",
                                                    "on_stall",
                                                    "framework",
                                                    "files",
                                                    "archives",
                                                    "script",
                                                    "env",
                                                    "input",
                                                    "output",
                                                    "docker_image",
                                                    "python_env",
                                                    "file_systems",
                                                    "kerberos",
                                                    "mlflow",
                                                    "command",
                                                    "tasks",
                                                    "application_master",
                                                    "sweep"};

constexpr std::array<std::string_view, 11> task_keys{"instances",    "memory",     "vcores",   "gpus",
                                                     "processes",    "node_label", "command",  "env",
                                                     "max_restarts", "role",       "fails_job"};

constexpr std::array<std::string_view, 2> application_master_keys{"memory", "vcores"};
constexpr std::array<std::string_view, 2> kerberos_keys{"principal", "keytab"};
constexpr std::array<std::string_view, 6> mlflow_keys{"tracking_uri", "experiment", "run_name",
                                                      "required",     "nested",     "task_runs"};

constexpr std::array<std::string_view, 5> known_task_types{task_types::chief, task_types::worker, task_types::ps,
                                                           task_types::evaluator, task_types::tensorboard};

constexpr std::array<std::string_view, 3> frameworks{"tensorflow", "pytorch", "generic"};
constexpr std::array<std::string_view, 2> roles{"tracked", "service"};

// More than any real spec; protects the parser from memory blow-ups.
constexpr std::size_t max_spec_bytes = 4 * 1024 * 1024;

bool is_valid_task_type(std::string_view name) {
  if (name.empty() || name.size() > 32 || !std::islower(static_cast<unsigned char>(name.front()))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

// YARN's node label rule: letters, digits, '-', '_', starting with a letter or digit.
bool is_valid_node_label(std::string_view label) {
  if (label.empty() || label.size() > 255 || !std::isalnum(static_cast<unsigned char>(label.front()))) return false;
  return std::all_of(label.begin(), label.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; });
}

class SpecReader {
 public:
  explicit SpecReader(const SpecParseOptions& options) : options_(options), fields_(options.source_name) {}

  Result<JobSpec, Diagnostics> read(std::string_view text) {
    if (text.size() > max_spec_bytes) {
      fields_.error_at(YamlFields::Place{}, "",
                       "the spec is " + std::to_string(text.size()) + " bytes, more than the 4 MiB a spec may have");
      return std::move(fields_.diagnostics());
    }
    auto position = [&](std::size_t offset) {
      const auto before = text.substr(0, offset);
      const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
      const auto line_start = before.rfind('\n');
      const int column = static_cast<int>(offset - (line_start == std::string_view::npos ? 0 : line_start + 1)) + 1;
      return YamlFields::Place{line, column};
    };
    if (auto bad = detail::first_invalid_utf8(text)) {
      fields_.error_at(position(*bad), "",
                       "is not UTF-8 text (byte " + std::to_string(*bad) + "); save the spec as UTF-8");
      return std::move(fields_.diagnostics());
    }
    // YAML allows no control characters but tab and line ends.
    const auto control = std::find_if(text.begin(), text.end(), [](char c) {
      const auto byte = static_cast<unsigned char>(c);
      return (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7F;
    });
    if (control != text.end()) {
      const auto offset = static_cast<std::size_t>(control - text.begin());
      char code[8];
      std::snprintf(code, sizeof(code), "0x%02X", static_cast<unsigned char>(*control));
      fields_.error_at(position(offset), "",
                       std::string("holds the control character ") + code + " (byte " + std::to_string(offset) +
                           "), which YAML does not allow; remove it");
      return std::move(fields_.diagnostics());
    }
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
      fields_.error_at(e.mark, "", "is not valid YAML or JSON: " + e.msg);
      return std::move(fields_.diagnostics());
    }
    try {
      read_job(root);
    } catch (const std::exception& e) {
      // yaml-cpp throws on trees it cannot walk; report rather than crash.
      fields_.error_at(YamlFields::Place{}, "", std::string("could not be read: ") + e.what());
    }
    if (!fields_.diagnostics().empty()) return std::move(fields_.diagnostics());
    return std::move(spec_);
  }

 private:
  void read_job(const YAML::Node& root) {
    if (!root.IsMap()) {
      fields_.error(root, "",
                    "the spec must be a mapping with at least a `tasks` key, but it is " + detail::describe(root) +
                        "; see resources/examples/ for complete specs");
      return;
    }
    const std::string default_name = std::filesystem::path(options_.source_name).stem().string();
    spec_.name = default_name.empty() || default_name.front() == '<' ? "spindle-job" : default_name;

    YAML::Node tasks_node;
    bool has_tasks = false;
    std::optional<std::string> default_command;
    std::string default_command_field;
    fields_.for_each_key(
        root, "", job_keys,
        [&](const std::string& key, const YAML::Node&, const YAML::Node& value, const std::string& field) {
          if (key == "tasks") {
            tasks_node = value;
            has_tasks = true;
          } else if (key == "command") {
            default_command = fields_.command(value, field);
            default_command_field = field;
          } else if (key == "sweep") {
            if (!options_.sweep_section) {
              fields_.error(value, field,
                            "makes this spec a sweep of many jobs; run it with `spindle sweep submit`, or remove the "
                            "section to run one job");
            }
          } else {
            read_job_key(key, value, field);
          }
        });
    if (!has_tasks) {
      fields_.error_at(YamlFields::Place{1, 1}, "tasks",
                       "is missing; add the task types to run, e.g. `tasks: {worker: {instances: 2, command: python "
                       "train.py}}`");
      return;
    }
    if (!tasks_node.IsMap()) {
      fields_.error(tasks_node, "tasks",
                    "must map task types to their settings, e.g. `tasks: {worker: {instances: 2}}`, not " +
                        detail::describe(tasks_node));
      return;
    }
    read_tasks(tasks_node, default_command);
    // A stable order, so equal specs compare equal however they were written.
    auto by_name = [](const ShippedFile& a, const ShippedFile& b) { return a.name < b.name; };
    std::stable_sort(spec_.files.begin(), spec_.files.end(), by_name);
    std::stable_sort(spec_.archives.begin(), spec_.archives.end(), by_name);
    for (const auto& diagnostic : detail::check_job_rules(
             spec_, [&](const std::string& field) { return fields_.place_of(field); }, options_.source_name)) {
      fields_.diagnostics().push_back(diagnostic);
    }
  }

  void read_job_key(const std::string& key, const YAML::Node& value, const std::string& field) {
    if (key == "name") {
      if (auto name = fields_.non_empty_string(value, field)) {
        if (name->size() > 256) {
          fields_.error(value, field, "is " + std::to_string(name->size()) + " characters; keep it under 256");
        } else {
          spec_.name = *name;
        }
      }
    } else if (key == "queue") {
      if (auto queue = fields_.non_empty_string(value, field)) spec_.queue = *queue;
    } else if (key == "priority") {
      if (auto priority = fields_.integer(value, field, 0, 1'000'000, "a whole number")) {
        spec_.priority = static_cast<int>(*priority);
      }
    } else if (key == "tags") {
      read_tags(value, field);
    } else if (key == "max_attempts") {
      if (auto attempts = fields_.integer(value, field, 1, 100, "a whole number")) {
        spec_.max_attempts = static_cast<int>(*attempts);
      }
    } else if (key == "timeout") {
      if (auto seconds = fields_.seconds(value, field)) spec_.timeout = std::chrono::seconds(*seconds);
    } else if (key == "heartbeat_timeout") {
      if (auto seconds = fields_.seconds(value, field)) {
        if (*seconds != 0 && *seconds < 15) {
          fields_.error(value, field,
                        "heartbeat_timeout is " + std::to_string(*seconds) +
                            " s; executors beat every 5 s, so use 15 s or more (0 turns the check off)");
        } else {
          spec_.heartbeat_timeout = std::chrono::seconds(*seconds);
        }
      }
    } else if (key == "replacement_timeout") {
      if (auto seconds = fields_.seconds(value, field)) spec_.replacement_timeout = std::chrono::seconds(*seconds);
    } else if (key == "allocation_timeout") {
      if (auto seconds = fields_.seconds(value, field)) spec_.allocation_timeout = std::chrono::seconds(*seconds);
    } else if (key == "on_allocation_timeout") {
      read_on_allocation_timeout(value, field);
    } else if (key == "stall_timeout") {
      if (auto seconds = fields_.seconds(value, field)) {
        if (*seconds != 0 && *seconds < 30) {
          fields_.error(value, field,
                        "stall_timeout is " + std::to_string(*seconds) +
                            " s; a task is looked at every 5 s and may well pause that long, so use 30 s or more (0 "
                            "turns the check off)");
        } else {
          spec_.stall_timeout = std::chrono::seconds(*seconds);
        }
      }
    } else if (key == "on_stall") {
      read_on_stall(value, field);
    } else if (key == "framework") {
      read_framework(value, field);
    } else if (key == "files" || key == "archives") {
      auto& target = key == "files" ? spec_.files : spec_.archives;
      for (auto& file : detail::read_shipped_files(fields_, value, field, key == "archives", options_)) {
        target.push_back(std::move(file));
      }
    } else if (key == "script") {
      if (auto script = fields_.non_empty_string(value, field)) {
        if (auto shipped = detail::read_script(fields_, value, field, *script, options_)) {
          spec_.script = shipped->name;
          spec_.files.push_back(std::move(*shipped));
        }
      }
    } else if (key == "env") {
      if (auto env = fields_.environment(value, field)) spec_.env = std::move(*env);
    } else if (key == "input") {
      if (auto input = fields_.non_empty_string(value, field)) spec_.input = *input;
    } else if (key == "output") {
      if (auto output = fields_.non_empty_string(value, field)) spec_.output = *output;
    } else if (key == "python_env") {
      if (auto environment = fields_.non_empty_string(value, field)) read_python_env(value, field, *environment);
    } else if (key == "docker_image") {
      if (auto image = fields_.non_empty_string(value, field)) spec_.docker_image = *image;
    } else if (key == "file_systems") {
      read_file_systems(value, field);
    } else if (key == "kerberos") {
      read_kerberos(value, field);
    } else if (key == "mlflow") {
      read_mlflow(value, field);
    } else if (key == "application_master") {
      fields_.for_each_key(
          value, field, application_master_keys,
          [&](const std::string& am_key, const YAML::Node&, const YAML::Node& am_value, const std::string& am_field) {
            if (am_key == "memory") {
              if (auto mib = fields_.memory(am_value, am_field)) spec_.application_master.memory_mib = *mib;
            } else if (auto vcores = fields_.integer(am_value, am_field, 1, 1024, "a whole number")) {
              spec_.application_master.vcores = static_cast<int>(*vcores);
            }
          });
    }
  }

  void read_mlflow(const YAML::Node& value, const std::string& field) {
    MlflowTracking tracking;
    fields_.for_each_key(value, field, mlflow_keys,
                         [&](const std::string& key, const YAML::Node&, const YAML::Node& item, const std::string& at) {
                           if (key == "required" || key == "nested") {
                             if (auto flag = fields_.boolean(item, at)) {
                               (key == "nested" ? tracking.nested : tracking.required) = *flag;
                             }
                             return;
                           }
                           if (key == "task_runs") {
                             read_task_runs(item, at, tracking.task_runs);
                             return;
                           }
                           auto text = fields_.non_empty_string(item, at);
                           if (!text) return;
                           if (key == "tracking_uri") {
                             if (!text->starts_with("http://") && !text->starts_with("https://")) {
                               fields_.error(item, at,
                                             "is \"" + *text +
                                                 "\", but Spindle talks to an MLflow tracking server over its REST "
                                                 "API; give its http:// or https:// address, e.g. "
                                                 "http://mlflow.example.com:5000");
                               return;
                             }
                             while (text->ends_with('/')) text->pop_back();
                             tracking.tracking_uri = *text;
                           } else if (key == "experiment") {
                             tracking.experiment = *text;
                           } else {
                             tracking.run_name = *text;
                           }
                         });
    if (value.IsMap()) spec_.mlflow = std::move(tracking);
  }

  // "worker:1": <run id>, as submit writes them for the containers.
  void read_task_runs(const YAML::Node& value, const std::string& field, std::map<std::string, std::string>& runs) {
    fields_.for_each_key(
        value, field, {},
        [&](const std::string& task, const YAML::Node& key_node, const YAML::Node& item, const std::string& at) {
          const auto colon = task.find(':');
          if (colon == std::string::npos || colon == 0 || colon + 1 == task.size()) {
            fields_.error(key_node, at,
                          "is not a task; task_runs is written by spindle submit, with keys such "
                          "as worker:1; leave it out of specs");
            return;
          }
          if (auto run = fields_.non_empty_string(item, at)) runs[task] = *run;
        });
  }

  void read_kerberos(const YAML::Node& value, const std::string& field) {
    KerberosLogin login;
    fields_.for_each_key(value, field, kerberos_keys,
                         [&](const std::string& key, const YAML::Node&, const YAML::Node& item, const std::string& at) {
                           auto text = fields_.non_empty_string(item, at);
                           if (!text) return;
                           if (key == "principal") {
                             login.principal = *text;
                             return;
                           }
                           const auto check =
                               detail::check_local_source(*text, options_.base_dir, options_.check_files, false);
                           if (!check.problem.empty()) {
                             fields_.error(item, at, "the keytab " + check.problem);
                             return;
                           }
                           login.keytab = check.resolved;
                         });
    if (!value.IsMap()) return;
    const bool has_principal = value["principal"].IsDefined();
    if (has_principal != value["keytab"].IsDefined()) {
      fields_.error(value, field,
                    std::string("names a ") +
                        (has_principal ? "principal without a keytab" : "keytab without a principal") +
                        "; give both (principal: alice@EXAMPLE.COM, keytab: alice.keytab), or leave kerberos out to "
                        "use the ticket from kinit");
      return;
    }
    if (!login.principal.empty() && !login.keytab.empty()) spec_.kerberos = std::move(login);
  }

  void read_python_env(const YAML::Node& value, const std::string& field, const std::string& choice) {
    if (choice == "current") {
      spec_.python_env = choice;
      return;
    }
    if (auto on_nodes = python_env_on_nodes(choice)) {
      // The nodes' file system, not this machine's: only the form can be checked here.
      const std::filesystem::path directory(*on_nodes);
      if (on_nodes->empty() || !directory.is_absolute()) {
        fields_.error(value, field,
                      "node: must be followed by the absolute directory of an environment installed on every node, "
                      "e.g. node:/opt/envs/torch, not \"" +
                          choice + "\"");
        return;
      }
      spec_.python_env = std::string(python_env_on_nodes_prefix) + directory.lexically_normal().string();
      return;
    }
    std::filesystem::path path(choice);
    if (path.is_relative()) path = options_.base_dir / path;
    path = path.lexically_normal();
    spec_.python_env = path.string();
    if (!options_.check_files) return;
    if (auto kind = python_env_kind(path); !kind) {
      const bool relative = std::filesystem::path(choice).is_relative();
      fields_.error(value, field,
                    kind.error().message + (relative ? "; relative paths start at the spec's directory" : ""));
    }
  }

  void read_file_systems(const YAML::Node& value, const std::string& field) {
    if (!value.IsSequence()) {
      fields_.error(value, field,
                    "must be a list of NameNode URIs, e.g. [hdfs://nn2:8020], not " + detail::describe(value));
      return;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string item_field = field + "[" + std::to_string(i) + "]";
      auto uri = fields_.non_empty_string(value[i], item_field);
      if (!uri) continue;
      const auto scheme_end = uri->find("://");
      const auto scheme = scheme_end == std::string::npos ? std::string() : uri->substr(0, scheme_end);
      const auto host = scheme_end == std::string::npos ? std::string() : uri->substr(scheme_end + 3, 1);
      if ((scheme != "hdfs" && scheme != "webhdfs") || host.empty() || host == "/" || host == ":") {
        fields_.error(value[i], item_field,
                      "is \"" + *uri + "\"; name a NameNode as hdfs://host:port or webhdfs://host:port");
        continue;
      }
      spec_.file_systems.push_back(*uri);
    }
  }

  void read_tags(const YAML::Node& value, const std::string& field) {
    if (!value.IsSequence()) {
      fields_.error(value, field, "must be a list of words, e.g. [nightly, team-a], not " + detail::describe(value));
      return;
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string item_field = field + "[" + std::to_string(i) + "]";
      auto tag = fields_.non_empty_string(value[i], item_field);
      if (!tag) continue;
      // YARN keeps tags as lower-case ASCII of at most 100 characters.
      const bool ascii = std::all_of(tag->begin(), tag->end(), [](char c) { return c > 31 && c < 127; });
      if (!ascii || tag->size() > 100) {
        fields_.error(value[i], item_field, "must be printable ASCII of at most 100 characters, as YARN requires");
        continue;
      }
      spec_.tags.push_back(*tag);
    }
  }

  void read_on_stall(const YAML::Node& value, const std::string& field) {
    auto name = fields_.string(value, field);
    if (!name) return;
    for (auto action : {JobSpec::OnStall::report, JobSpec::OnStall::restart, JobSpec::OnStall::fail}) {
      if (*name == to_string(action)) {
        spec_.on_stall = action;
        return;
      }
    }
    fields_.error(value, field,
                  "\"" + *name + "\" is not what to do with a stalled task; use report (the default), restart or fail");
  }

  void read_on_allocation_timeout(const YAML::Node& value, const std::string& field) {
    auto name = fields_.string(value, field);
    if (!name) return;
    if (*name == "fail") {
      spec_.on_allocation_timeout = JobSpec::OnAllocationTimeout::fail;
    } else if (*name == "retry") {
      spec_.on_allocation_timeout = JobSpec::OnAllocationTimeout::retry;
    } else {
      fields_.error(value, field,
                    "\"" + *name +
                        "\" is not what to do when the tasks' containers are not all granted in time; use fail (the "
                        "default) or retry");
    }
  }

  void read_framework(const YAML::Node& value, const std::string& field) {
    auto name = fields_.string(value, field);
    if (!name) return;
    if (*name == "tensorflow") {
      spec_.framework = Framework::tensorflow;
    } else if (*name == "pytorch") {
      spec_.framework = Framework::pytorch;
    } else if (*name == "generic") {
      spec_.framework = Framework::generic;
    } else {
      std::string message = "\"" + *name + "\" is not a framework" + detail::did_you_mean(*name, frameworks);
      fields_.error(value, field,
                    message + (message.back() == '?' ? "" : "; use ") +
                        (message.back() == '?' ? "" : detail::list_choices(frameworks)));
    }
  }

  void read_tasks(const YAML::Node& node, const std::optional<std::string>& default_command) {
    std::vector<TaskSpec> tasks;
    fields_.for_each_key(
        node, "tasks", {},
        [&](const std::string& type, const YAML::Node& key_node, const YAML::Node& value, const std::string& field) {
          if (auto task = read_task(type, key_node, value, field, default_command)) {
            tasks.push_back(std::move(*task));
          }
        });
    std::stable_sort(tasks.begin(), tasks.end(), [](const TaskSpec& a, const TaskSpec& b) {
      return canonical_rank(a.type) < canonical_rank(b.type);
    });
    spec_.tasks = std::move(tasks);
    // An empty mapping is caught by the job rules; nothing more to say here.
  }

  std::optional<TaskSpec> read_task(const std::string& type, const YAML::Node& key_node, const YAML::Node& value,
                                    const std::string& field, const std::optional<std::string>& default_command) {
    if (!is_valid_task_type(type)) {
      fields_.error(key_node, field,
                    "is not a valid task type name; use lower-case letters, digits and _, starting with a letter, "
                    "at most 32 characters");
      return std::nullopt;
    }
    if (canonical_rank(type) == static_cast<int>(known_task_types.size())) {
      if (auto known = detail::closest_match(type, known_task_types)) {
        fields_.error(key_node, field,
                      "looks like a misspelling of \"" + *known +
                          "\"; fix the name (custom task types must not be "
                          "this close to a known one)");
        return std::nullopt;
      }
    }
    TaskSpec task = default_task(type);
    if (type != task_types::tensorboard && default_command) task.command = *default_command;
    if (value.IsNull()) return task;  // "ps:" alone takes every default
    fields_.for_each_key(value, field, task_keys,
                         [&](const std::string& key, const YAML::Node&, const YAML::Node& item,
                             const std::string& item_field) { read_task_key(task, key, item, item_field); });
    if (task.processes > 1) check_processes(task, value["processes"], field + ".processes");
    return task;
  }

  // Several processes in a container are ranks of PyTorch's group, which only
  // the chief and the workers form; GPUs are shared out among them evenly.
  void check_processes(const TaskSpec& task, const YAML::Node& value, const std::string& field) {
    if (task.type != task_types::chief && task.type != task_types::worker) {
      fields_.error(value, field,
                    "only chief and worker run several processes (the ranks of PyTorch's group); run " + task.type +
                        " as one process, or add instances");
    } else if (task.gpus % task.processes != 0) {
      fields_.error(value, field,
                    std::to_string(task.processes) + " processes cannot share " + std::to_string(task.gpus) +
                        " GPUs evenly; ask for a multiple of " + std::to_string(task.processes) + " GPUs, or for none");
    }
  }

  void read_task_key(TaskSpec& task, const std::string& key, const YAML::Node& value, const std::string& field) {
    if (key == "instances") {
      if (value.IsScalar() && !value.Scalar().empty() && value.Scalar().front() == '-') {
        fields_.error(value, field, value.Scalar() + " is negative; run at least 1 instance, or remove the task");
      } else if (value.IsScalar() && value.Scalar() == "0") {
        fields_.error(value, field, "is 0; run at least 1 instance, or remove the task type from `tasks`");
      } else if (auto instances = fields_.integer(value, field, 1, 10'000, "a whole number")) {
        task.instances = static_cast<int>(*instances);
      }
    } else if (key == "memory") {
      if (auto mib = fields_.memory(value, field)) task.memory_mib = *mib;
    } else if (key == "vcores") {
      if (auto vcores = fields_.integer(value, field, 1, 1024, "a whole number"))
        task.vcores = static_cast<int>(*vcores);
    } else if (key == "gpus") {
      if (auto gpus = fields_.integer(value, field, 0, 64, "a whole number of GPUs"))
        task.gpus = static_cast<int>(*gpus);
    } else if (key == "processes") {
      if (auto processes = fields_.integer(value, field, 1, 64, "a whole number of processes"))
        task.processes = static_cast<int>(*processes);
    } else if (key == "node_label") {
      if (auto label = fields_.non_empty_string(value, field)) {
        if (is_valid_node_label(*label)) {
          task.node_label = *label;
        } else {
          fields_.error(value, field,
                        "\"" + *label +
                            "\" is not a valid YARN node label; use letters, digits, - and _, starting "
                            "with a letter or digit");
        }
      }
    } else if (key == "command") {
      if (auto command = fields_.command(value, field)) task.command = *command;
    } else if (key == "env") {
      if (auto env = fields_.environment(value, field)) task.env = std::move(*env);
    } else if (key == "max_restarts") {
      if (auto restarts = fields_.integer(value, field, 0, 1000, "a whole number")) {
        task.max_restarts = static_cast<int>(*restarts);
      }
    } else if (key == "role") {
      auto role = fields_.string(value, field);
      if (role && *role == "tracked") {
        task.role = TaskRole::tracked;
      } else if (role && *role == "service") {
        task.role = TaskRole::service;
      } else if (role) {
        fields_.error(value, field,
                      "\"" + *role + "\" is not a role" + detail::did_you_mean(*role, roles) +
                          "; tracked tasks decide when the job ends, services run until it does");
      }
    } else if (key == "fails_job") {
      if (auto fails = fields_.boolean(value, field)) task.fails_job = *fails;
    }
  }

  const SpecParseOptions& options_;
  YamlFields fields_;
  JobSpec spec_;
};

}  // namespace

Result<JobSpec, Diagnostics> parse_job_spec(std::string_view text, const SpecParseOptions& options) {
  SpecReader reader(options);
  return reader.read(text);
}

Result<std::string, Diagnostics> read_spec_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return Diagnostics{{name, 0, 0, "", "does not exist; check the path of the spec file"}};
  }
  if (std::filesystem::is_directory(path, ec)) {
    return Diagnostics{{name, 0, 0, "", "is a directory; give the path of a .yaml or .json spec file"}};
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_spec_bytes) {
    return Diagnostics{{name, 0, 0, "", "is " + std::to_string(size) + " bytes, more than the 4 MiB a spec may have"}};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Diagnostics{{name, 0, 0, "", "cannot be read; check its permissions"}};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<JobSpec, Diagnostics> load_job_spec(const std::filesystem::path& path, bool check_files) {
  auto text = read_spec_file(path);
  if (!text) return text.error();
  std::error_code ec;
  SpecParseOptions options;
  options.source_name = path.string();
  options.base_dir = std::filesystem::absolute(path, ec).parent_path();
  options.check_files = check_files;
  return parse_job_spec(*text, options);
}

Diagnostics check_job_rules(const JobSpec& spec, const std::string& source_name) {
  return detail::check_job_rules(
      spec, [](const std::string&) { return detail::YamlFields::Place{}; }, source_name);
}

}  // namespace spindle

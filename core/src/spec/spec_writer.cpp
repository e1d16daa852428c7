#include "spindle/core/spec_writer.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "spindle/core/quantities.h"

namespace spindle {
namespace {

// The script travels with the files but is written under its own key, as it
// was read.
std::vector<ShippedFile> files_without_script(const JobSpec& spec) {
  std::vector<ShippedFile> files;
  for (const auto& file : spec.files) {
    if (file.name != spec.script) files.push_back(file);
  }
  return files;
}

std::string script_source(const JobSpec& spec) {
  for (const auto& file : spec.files) {
    if (file.name == spec.script) return file.source;
  }
  return {};
}

// yaml-cpp writes a string holding a carriage return or another control
// character as a plain scalar, and reading it back drops or folds those
// characters; such strings, and those with spaces at either end, are written
// double-quoted, where escapes keep every character.
struct Text {
  const std::string& value;
};

YAML::Emitter& operator<<(YAML::Emitter& out, Text text) {
  const auto& value = text.value;
  const bool edge_space = !value.empty() && (std::isspace(static_cast<unsigned char>(value.front())) ||
                                             std::isspace(static_cast<unsigned char>(value.back())));
  const bool control = std::any_of(value.begin(), value.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\n') || byte == 0x7F;
  });
  if (edge_space || control) out << YAML::DoubleQuoted;
  return out << value;
}

YAML::Emitter& operator<<(YAML::Emitter& out, const std::vector<std::string>& values) {
  out << YAML::BeginSeq;
  for (const auto& value : values) out << Text{value};
  return out << YAML::EndSeq;
}

void emit_map(YAML::Emitter& out, const std::map<std::string, std::string>& values) {
  out << YAML::BeginMap;
  for (const auto& [key, value] : values) out << YAML::Key << Text{key} << YAML::Value << YAML::DoubleQuoted << value;
  out << YAML::EndMap;
}

void emit_files(YAML::Emitter& out, const std::vector<ShippedFile>& files) {
  out << YAML::BeginMap;
  for (const auto& file : files) out << YAML::Key << Text{file.name} << YAML::Value << Text{file.source};
  out << YAML::EndMap;
}

void emit_task(YAML::Emitter& out, const TaskSpec& task) {
  out << YAML::Key << Text{task.type} << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "instances" << YAML::Value << task.instances;
  out << YAML::Key << "memory" << YAML::Value << format_memory_mib(task.memory_mib);
  out << YAML::Key << "vcores" << YAML::Value << task.vcores;
  out << YAML::Key << "gpus" << YAML::Value << task.gpus;
  if (task.processes != 1) out << YAML::Key << "processes" << YAML::Value << task.processes;
  if (!task.node_label.empty()) out << YAML::Key << "node_label" << YAML::Value << Text{task.node_label};
  if (!task.command.empty()) out << YAML::Key << "command" << YAML::Value << Text{task.command};
  if (!task.env.empty()) {
    out << YAML::Key << "env" << YAML::Value;
    emit_map(out, task.env);
  }
  out << YAML::Key << "max_restarts" << YAML::Value << task.max_restarts;
  out << YAML::Key << "role" << YAML::Value << std::string(to_string(task.role));
  out << YAML::Key << "fails_job" << YAML::Value << task.fails_job;
  out << YAML::EndMap;
}

}  // namespace

std::string to_yaml(const JobSpec& spec) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << Text{spec.name};
  out << YAML::Key << "queue" << YAML::Value << Text{spec.queue};
  out << YAML::Key << "priority" << YAML::Value << spec.priority;
  if (!spec.tags.empty()) {
    out << YAML::Key << "tags" << YAML::Value << YAML::Flow << spec.tags;
  }
  out << YAML::Key << "max_attempts" << YAML::Value << spec.max_attempts;
  if (spec.timeout.count() > 0) out << YAML::Key << "timeout" << YAML::Value << format_duration(spec.timeout);
  if (spec.heartbeat_timeout != JobSpec{}.heartbeat_timeout) {
    out << YAML::Key << "heartbeat_timeout" << YAML::Value << format_duration(spec.heartbeat_timeout);
  }
  if (spec.replacement_timeout != JobSpec{}.replacement_timeout) {
    out << YAML::Key << "replacement_timeout" << YAML::Value << format_duration(spec.replacement_timeout);
  }
  if (spec.allocation_timeout != JobSpec{}.allocation_timeout) {
    out << YAML::Key << "allocation_timeout" << YAML::Value << format_duration(spec.allocation_timeout);
  }
  if (spec.on_allocation_timeout != JobSpec{}.on_allocation_timeout) {
    out << YAML::Key << "on_allocation_timeout" << YAML::Value << std::string(to_string(spec.on_allocation_timeout));
  }
  if (spec.stall_timeout != JobSpec{}.stall_timeout) {
    out << YAML::Key << "stall_timeout" << YAML::Value << format_duration(spec.stall_timeout);
  }
  if (spec.on_stall != JobSpec{}.on_stall) {
    out << YAML::Key << "on_stall" << YAML::Value << std::string(to_string(spec.on_stall));
  }
  out << YAML::Key << "framework" << YAML::Value << std::string(to_string(spec.framework));
  if (const auto files = files_without_script(spec); !files.empty()) {
    out << YAML::Key << "files" << YAML::Value;
    emit_files(out, files);
  }
  if (!spec.archives.empty()) {
    out << YAML::Key << "archives" << YAML::Value;
    emit_files(out, spec.archives);
  }
  if (!spec.script.empty()) out << YAML::Key << "script" << YAML::Value << Text{script_source(spec)};
  if (!spec.env.empty()) {
    out << YAML::Key << "env" << YAML::Value;
    emit_map(out, spec.env);
  }
  if (!spec.input.empty()) out << YAML::Key << "input" << YAML::Value << Text{spec.input};
  if (!spec.output.empty()) out << YAML::Key << "output" << YAML::Value << Text{spec.output};
  if (!spec.docker_image.empty()) out << YAML::Key << "docker_image" << YAML::Value << Text{spec.docker_image};
  if (!spec.python_env.empty()) out << YAML::Key << "python_env" << YAML::Value << Text{spec.python_env};
  if (!spec.file_systems.empty()) {
    out << YAML::Key << "file_systems" << YAML::Value << YAML::Flow << spec.file_systems;
  }
  if (spec.kerberos) {
    out << YAML::Key << "kerberos" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "principal" << YAML::Value << Text{spec.kerberos->principal};
    out << YAML::Key << "keytab" << YAML::Value << Text{spec.kerberos->keytab};
    out << YAML::EndMap;
  }
  if (spec.mlflow) {
    out << YAML::Key << "mlflow" << YAML::Value << YAML::BeginMap;
    if (!spec.mlflow->tracking_uri.empty()) {
      out << YAML::Key << "tracking_uri" << YAML::Value << Text{spec.mlflow->tracking_uri};
    }
    if (!spec.mlflow->experiment.empty())
      out << YAML::Key << "experiment" << YAML::Value << Text{spec.mlflow->experiment};
    if (!spec.mlflow->run_name.empty()) out << YAML::Key << "run_name" << YAML::Value << Text{spec.mlflow->run_name};
    if (spec.mlflow->required) out << YAML::Key << "required" << YAML::Value << true;
    if (spec.mlflow->nested) out << YAML::Key << "nested" << YAML::Value << true;
    if (!spec.mlflow->task_runs.empty()) {
      out << YAML::Key << "task_runs" << YAML::Value;
      emit_map(out, spec.mlflow->task_runs);
    }
    out << YAML::EndMap;
  }
  out << YAML::Key << "application_master" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "memory" << YAML::Value << format_memory_mib(spec.application_master.memory_mib);
  out << YAML::Key << "vcores" << YAML::Value << spec.application_master.vcores;
  out << YAML::EndMap;
  out << YAML::Key << "tasks" << YAML::Value << YAML::BeginMap;
  for (const auto& task : spec.tasks) emit_task(out, task);
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

nlohmann::ordered_json to_json(const JobSpec& spec) {
  using json = nlohmann::ordered_json;
  auto files_object = [](const std::vector<ShippedFile>& files) {
    json object = json::object();
    for (const auto& file : files) object[file.name] = file.source;
    return object;
  };
  json out;
  out["name"] = spec.name;
  out["queue"] = spec.queue;
  out["priority"] = spec.priority;
  out["tags"] = spec.tags;
  out["max_attempts"] = spec.max_attempts;
  out["timeout"] = spec.timeout.count();
  out["heartbeat_timeout"] = spec.heartbeat_timeout.count();
  out["replacement_timeout"] = spec.replacement_timeout.count();
  out["allocation_timeout"] = spec.allocation_timeout.count();
  out["on_allocation_timeout"] = to_string(spec.on_allocation_timeout);
  out["stall_timeout"] = spec.stall_timeout.count();
  out["on_stall"] = to_string(spec.on_stall);
  out["framework"] = to_string(spec.framework);
  out["files"] = files_object(files_without_script(spec));
  out["archives"] = files_object(spec.archives);
  if (!spec.script.empty()) out["script"] = script_source(spec);
  out["env"] = spec.env;
  if (!spec.input.empty()) out["input"] = spec.input;
  if (!spec.output.empty()) out["output"] = spec.output;
  if (!spec.docker_image.empty()) out["docker_image"] = spec.docker_image;
  if (!spec.python_env.empty()) out["python_env"] = spec.python_env;
  if (!spec.file_systems.empty()) out["file_systems"] = spec.file_systems;
  if (spec.kerberos) out["kerberos"] = {{"principal", spec.kerberos->principal}, {"keytab", spec.kerberos->keytab}};
  if (spec.mlflow) {
    json tracking = json::object();
    if (!spec.mlflow->tracking_uri.empty()) tracking["tracking_uri"] = spec.mlflow->tracking_uri;
    if (!spec.mlflow->experiment.empty()) tracking["experiment"] = spec.mlflow->experiment;
    if (!spec.mlflow->run_name.empty()) tracking["run_name"] = spec.mlflow->run_name;
    if (spec.mlflow->required) tracking["required"] = true;
    if (spec.mlflow->nested) tracking["nested"] = true;
    if (!spec.mlflow->task_runs.empty()) tracking["task_runs"] = spec.mlflow->task_runs;
    out["mlflow"] = std::move(tracking);
  }
  out["application_master"] = {{"memory", spec.application_master.memory_mib},
                               {"vcores", spec.application_master.vcores}};
  json tasks = json::object();
  for (const auto& task : spec.tasks) {
    json entry;
    entry["instances"] = task.instances;
    entry["memory"] = task.memory_mib;
    entry["vcores"] = task.vcores;
    entry["gpus"] = task.gpus;
    if (task.processes != 1) entry["processes"] = task.processes;
    if (!task.node_label.empty()) entry["node_label"] = task.node_label;
    if (!task.command.empty()) entry["command"] = task.command;
    entry["env"] = task.env;
    entry["max_restarts"] = task.max_restarts;
    entry["role"] = to_string(task.role);
    entry["fails_job"] = task.fails_job;
    tasks[task.type] = std::move(entry);
  }
  out["tasks"] = std::move(tasks);
  return out;
}

}  // namespace spindle

#include "spec/job_rules.h"

#include <map>

namespace spindle::detail {
namespace {

class RuleChecker {
 public:
  RuleChecker(const JobSpec& spec, const FieldLocator& locate, const std::string& source)
      : spec_(spec), locate_(locate), source_(source) {}

  Diagnostics run() {
    if (spec_.tasks.empty()) {
      report("tasks", "has no task types; add at least one, e.g. `worker: {instances: 2, command: python train.py}`");
      return std::move(diagnostics_);
    }
    check_single_instance_types();
    check_commands();
    check_tensorboard();
    check_something_is_tracked();
    check_framework();
    check_shipped_names();
    return std::move(diagnostics_);
  }

 private:
  void report(const std::string& field, std::string message) {
    const auto place = locate_(field);
    diagnostics_.push_back(Diagnostic{source_, place.line, place.column, field, std::move(message)});
  }

  static std::string task_field(const TaskSpec& task, const std::string& key = "") {
    return "tasks." + task.type + (key.empty() ? "" : "." + key);
  }

  void check_single_instance_types() {
    for (const auto& task : spec_.tasks) {
      if (task.instances <= 1) continue;
      if (task.type == task_types::chief) {
        report(task_field(task, "instances"),
               "is " + std::to_string(task.instances) +
                   ", but a job has at most one chief; put the other instances under worker");
      } else if (task.type == task_types::evaluator) {
        report(task_field(task, "instances"),
               "is " + std::to_string(task.instances) +
                   ", but TensorFlow runs at most one evaluator; set it to 1 or use a custom task type");
      } else if (task.type == task_types::tensorboard) {
        report(task_field(task, "instances"),
               "is " + std::to_string(task.instances) + ", but one TensorBoard serves the whole job; set it to 1");
      }
    }
  }

  void check_commands() {
    for (const auto& task : spec_.tasks) {
      if (task.type == task_types::tensorboard || !task.command.empty()) continue;
      report(task_field(task),
             "has no command; give it `command: python train.py` (or set a top-level `command` "
             "for every task)");
    }
  }

  void check_tensorboard() {
    // Ours reads the job's output; one with a command of its own names its log directory itself.
    const TaskSpec* tensorboard = spec_.find_task(task_types::tensorboard);
    if (tensorboard && tensorboard->command.empty() && spec_.output.empty()) {
      report(task_field(*tensorboard),
             "needs the job's `output` directory, which is TensorBoard's log directory; add e.g. "
             "`output: hdfs:///user/me/runs/my-job`");
    }
  }

  void check_something_is_tracked() {
    for (const auto& task : spec_.tasks) {
      if (task.role == TaskRole::tracked) return;
    }
    report("tasks",
           "has only service tasks, so the job could never finish; make at least one task type "
           "`role: tracked` or add a chief or worker");
  }

  void check_framework() {
    const bool has_trainer = spec_.find_task(task_types::chief) || spec_.find_task(task_types::worker);
    if (spec_.framework == Framework::pytorch) {
      if (const TaskSpec* ps = spec_.find_task(task_types::ps)) {
        report(task_field(*ps),
               "is a parameter server, which PyTorch jobs do not have; remove it or set "
               "`framework: tensorflow`");
      }
      if (!has_trainer) {
        report("tasks", "has neither chief nor worker, so a PyTorch job has no process group; add a worker");
      }
    } else {
      // Several copies of a TensorFlow or generic command would all claim the same task.
      for (const auto& task : spec_.tasks) {
        if (task.processes <= 1) continue;
        report(task_field(task, "processes"), "is " + std::to_string(task.processes) +
                                                  ", but only PyTorch jobs run several processes (ranks) in "
                                                  "a container; set `framework: pytorch`, or add instances instead");
      }
    }
    if (spec_.framework == Framework::tensorflow && !has_trainer) {
      if (const TaskSpec* ps = spec_.find_task(task_types::ps)) {
        report(task_field(*ps), "serves variables, but there is no chief or worker to train; add a worker");
      }
    }
  }

  void check_shipped_names() {
    std::map<std::string, std::string> seen;  // container name -> field that shipped it first
    auto visit = [&](const std::vector<ShippedFile>& shipped, const std::string& key) {
      for (const auto& file : shipped) {
        const std::string field = key + "." + file.name;
        auto [it, inserted] = seen.emplace(file.name, field);
        if (!inserted) {
          report(field, "ships a second file named \"" + file.name + "\" (" + it->second +
                            " already does); give one of them another name");
        }
      }
    };
    visit(spec_.files, "files");
    visit(spec_.archives, "archives");
  }

  const JobSpec& spec_;
  const FieldLocator& locate_;
  const std::string& source_;
  Diagnostics diagnostics_;
};

}  // namespace

Diagnostics check_job_rules(const JobSpec& spec, const FieldLocator& locate, const std::string& source_name) {
  return RuleChecker(spec, locate, source_name).run();
}

}  // namespace spindle::detail

#include "spindle/core/job_spec.h"

#include <array>

namespace spindle {

std::string_view to_string(Framework framework) {
  switch (framework) {
    case Framework::tensorflow: return "tensorflow";
    case Framework::pytorch: return "pytorch";
    case Framework::generic: return "generic";
  }
  return "tensorflow";
}

std::string_view to_string(JobSpec::OnAllocationTimeout action) {
  return action == JobSpec::OnAllocationTimeout::retry ? "retry" : "fail";
}

std::string_view to_string(JobSpec::OnStall action) {
  switch (action) {
    case JobSpec::OnStall::report: return "report";
    case JobSpec::OnStall::restart: return "restart";
    case JobSpec::OnStall::fail: return "fail";
  }
  return "report";
}

std::string_view to_string(TaskRole role) {
  return role == TaskRole::service ? "service" : "tracked";
}

const TaskSpec* JobSpec::find_task(std::string_view type) const {
  for (const auto& task : tasks) {
    if (task.type == type) return &task;
  }
  return nullptr;
}

int JobSpec::total_instances() const {
  int total = 0;
  for (const auto& task : tasks) total += task.instances;
  return total;
}

TaskSpec default_task(std::string_view type) {
  TaskSpec task;
  task.type = std::string(type);
  if (type == task_types::ps || type == task_types::tensorboard) task.role = TaskRole::service;
  // An evaluator's failure is reported but, by default, does not fail the job;
  // a TensorBoard that dies takes nothing down with it.
  if (type == task_types::evaluator || type == task_types::tensorboard) task.fails_job = false;
  return task;
}

int canonical_rank(std::string_view type) {
  constexpr std::array<std::string_view, 5> known{task_types::chief, task_types::worker, task_types::ps,
                                                  task_types::evaluator, task_types::tensorboard};
  for (std::size_t i = 0; i < known.size(); ++i) {
    if (known[i] == type) return static_cast<int>(i);
  }
  return static_cast<int>(known.size());
}

}  // namespace spindle

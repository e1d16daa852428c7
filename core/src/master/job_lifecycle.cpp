#include "spindle/core/job_lifecycle.h"

#include <algorithm>
#include <utility>

#include "spindle/core/clock.h"
#include "spindle/core/quantities.h"

namespace spindle {
namespace {

bool is_final(TaskPhase phase) {
  return phase == TaskPhase::succeeded || phase == TaskPhase::failed || phase == TaskPhase::stopped;
}

// YARN's statuses for a container that ended through no fault of its task:
// taken back by the scheduler, or gone with its node or disks.
bool lost_through_no_fault(int exit_status) {
  return exit_status == -102 || exit_status == -100 || exit_status == -101;
}

std::string describe_yarn_exit(int exit_status, const std::string& diagnostics) {
  std::string text;
  switch (exit_status) {
    case -100: text = "its container was lost (node lost or container released)"; break;
    case -101: text = "its node's disks failed"; break;
    case -102: text = "its container was preempted"; break;
    case -103: text = "it used more virtual memory than its container allows"; break;
    case -104: text = "it used more memory than its container allows"; break;
    case -105: text = "the application master stopped it"; break;
    case -106: text = "the ResourceManager killed it"; break;
    case -107: text = "it was killed after the application ended"; break;
    default: text = "its container exited with " + std::to_string(exit_status); break;
  }
  // YARN's diagnostics repeat the exit code and a Java stack; the first line says enough.
  const auto first_line = diagnostics.substr(0, diagnostics.find('\n'));
  if (!first_line.empty() && exit_status < 0) text += " (" + first_line.substr(0, 300) + ")";
  return text;
}

// The end of a failed container's stderr, as its NodeManager quotes it in the container's
// diagnostics ("Last 4096 bytes of stderr :"): all there is to say why a task whose executor
// never reported (it died before it registered, or could not start) ended.
std::string stderr_in_diagnostics(const std::string& diagnostics) {
  constexpr std::string_view quoted = " bytes of stderr :\n";
  constexpr std::size_t kept_bytes = 2048;  // as much as an executor reports of its own
  const auto at = diagnostics.find(quoted);
  if (at == std::string::npos) return "";
  std::string tail = diagnostics.substr(at + quoted.size());
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  if (tail.size() > kept_bytes) tail.erase(0, tail.size() - kept_bytes);
  return tail.empty() ? tail : tail + "\n";
}

}  // namespace

std::string_view to_string(TaskPhase phase) {
  switch (phase) {
    case TaskPhase::requested: return "requested";
    case TaskPhase::launching: return "launching";
    case TaskPhase::registered: return "registered";
    case TaskPhase::running: return "running";
    case TaskPhase::succeeded: return "succeeded";
    case TaskPhase::failed: return "failed";
    case TaskPhase::stopped: return "stopped";
  }
  return "unknown";
}

std::string_view to_string(JobOutcome outcome) {
  switch (outcome) {
    case JobOutcome::running: return "running";
    case JobOutcome::succeeded: return "succeeded";
    case JobOutcome::failed: return "failed";
    case JobOutcome::killed: return "killed";
  }
  return "unknown";
}

namespace {

// Whether the chief and workers train as one collective group, which breaks as a whole when a member
// dies (docs/architecture.md, "Groups that restart together"): PyTorch's process group always;
// TensorFlow's when several training tasks have no parameter server, as MultiWorkerMirroredStrategy
// runs them. With a ps, ParameterServerStrategy's coordinator recovers lost workers itself.
bool forms_collective_group(const JobSpec& spec) {
  if (spec.framework == Framework::pytorch) return true;
  if (spec.framework != Framework::tensorflow || spec.find_task(task_types::ps)) return false;
  int training = 0;
  for (std::string_view type : {task_types::chief, task_types::worker}) {
    if (const auto* task = spec.find_task(type)) training += task->instances;
  }
  return training > 1;
}

}  // namespace

JobLifecycle::JobLifecycle(JobSpec spec, Rendezvous& rendezvous, EventLog& events, std::chrono::seconds evaluator_grace)
    : spec_(std::move(spec)), rendezvous_(rendezvous), events_(events), evaluator_grace_(evaluator_grace) {
  for (const auto& task : spec_.tasks) {
    first_of_type_[task.type] = tasks_.size();
    for (int index = 0; index < task.instances; ++index) {
      TaskRecord record;
      record.id = TaskId{task.type, index};
      tasks_.push_back(std::move(record));
    }
  }
  collective_group_ = forms_collective_group(spec_);
}

const TaskSpec& JobLifecycle::spec_of(const TaskId& task) const {
  return *spec_.find_task(task.type);
}

TaskRecord* JobLifecycle::find_mutable(const TaskId& task) {
  // Tasks lie by type, index 0 first: a heartbeat of one of 10,000 executors finds its own at once.
  const auto first = first_of_type_.find(task.type);
  if (first == first_of_type_.end() || task.index < 0) return nullptr;
  const auto position = first->second + static_cast<std::size_t>(task.index);
  if (position >= tasks_.size() || tasks_[position].id != task) return nullptr;
  return &tasks_[position];
}

const TaskRecord* JobLifecycle::find(const TaskId& task) const {
  return const_cast<JobLifecycle*>(this)->find_mutable(task);
}

TaskRecord* JobLifecycle::by_container(const std::string& container) {
  const auto found = container_owner_.find(container);
  return found == container_owner_.end() ? nullptr : &tasks_[found->second];
}

std::map<std::string, int> JobLifecycle::containers_wanted() const {
  std::map<std::string, int> wanted;
  for (const auto& task : spec_.tasks) wanted[task.type] = 0;
  if (ending() || grace_ends_ || holding_back_since_) return wanted;
  for (const auto& task : tasks_) {
    if (task.phase == TaskPhase::requested) ++wanted[task.id.type];
  }
  // Which task a kept container runs is known only when its executor
  // reattaches; a new container for the type now could take the place of a
  // task that is about to, so the type waits until its containers are claimed.
  for (const auto& [id, container] : adoptable_) wanted[container.type] = 0;
  return wanted;
}

void JobLifecycle::expect_reattachment(std::vector<AdoptableContainer> containers, Clock::time_point deadline) {
  for (auto& container : containers) {
    const auto id = container.id;
    adoptable_.emplace(id, std::move(container));
  }
  if (!adoptable_.empty()) {
    reattach_deadline_ = deadline;
    events_.append("job", "",
                   std::to_string(adoptable_.size()) +
                       " container(s) of the earlier attempt still run; waiting for their tasks to reattach");
  }
}

void JobLifecycle::adopt(TaskRecord& task, const AdoptableContainer& container, const Reattachment& reattachment) {
  const auto index = static_cast<std::size_t>(&task - tasks_.data());
  task.phase = TaskPhase::launching;
  task.container = container.id;
  task.node = container.node;
  task.node_http_address = container.node_http_address;
  task.log_url = container.log_url;
  task.restarts = reattachment.restarts;
  task.lost = reattachment.lost;
  task.started_ms = wall_clock_ms();
  task.finished_ms = 0;
  task.reported.reset();
  task.silent = false;
  task.last_progress = Clock::now();
  container_owner_[container.id] = index;
  rendezvous_.continue_after(reattachment.cluster_version);
  events_.append("reattached", task.id.to_string(),
                 container.id + " on " + container.node + " kept running through the application master's restart");
}

void JobLifecycle::give_up_reattachment(const std::string& why) {
  for (const auto& [id, container] : adoptable_) {
    to_release_.push_back(id);
    events_.append("released", "", id + " on " + container.node + ": " + why);
  }
  adoptable_.clear();
  reattach_deadline_.reset();
}

std::vector<std::string> JobLifecycle::take_containers_to_release() {
  return std::exchange(to_release_, {});
}

std::optional<TaskId> JobLifecycle::assign_container(const std::string& type, const std::string& container,
                                                     const std::string& node, const std::string& node_http_address,
                                                     const std::string& log_url) {
  if (ending() || grace_ends_) return std::nullopt;
  const auto first = first_of_type_.find(type);
  if (first == first_of_type_.end()) return std::nullopt;
  for (std::size_t i = first->second; i < tasks_.size() && tasks_[i].id.type == type; ++i) {
    auto& task = tasks_[i];
    if (task.phase != TaskPhase::requested) continue;
    task.phase = TaskPhase::launching;
    task.container = container;
    task.node = node;
    task.node_http_address = node_http_address;
    task.log_url = log_url;
    task.started_ms = wall_clock_ms();
    task.finished_ms = 0;
    task.reported.reset();
    task.silent = false;
    task.stalled.clear();
    task.replacing_since.reset();
    container_owner_[container] = i;
    events_.append("allocated", task.id.to_string(), container + " on " + node);
    return task.id;
  }
  return std::nullopt;
}

void JobLifecycle::launch_failed(const std::string& container, const std::string& why) {
  auto* task = by_container(container);
  if (!task || is_final(task->phase)) return;
  // The container never ran: end it here, as if YARN had reported it.
  task_ended(*task, 1, "its NodeManager could not start it: " + why, false);
}

Result<void> JobLifecycle::register_task(const TaskId& task, const HostPort& address, const std::string& container,
                                         const Reattachment& reattachment) {
  auto* record = find_mutable(task);
  if (!record) return make_error(task.to_string() + " is not a task of this job");
  if (const auto adoptable = adoptable_.find(container);
      reattachment.present && adoptable != adoptable_.end() && record->container != container) {
    if (adoptable->second.type != task.type || record->phase != TaskPhase::requested) {
      return make_error(container + " of the earlier attempt cannot run " + task.to_string() + ", which is " +
                        std::string(to_string(record->phase)) + " here");
    }
    adopt(*record, adoptable->second, reattachment);
    adoptable_.erase(adoptable);
    if (adoptable_.empty()) reattach_deadline_.reset();
  }
  if (record->container != container) {
    return make_error(task.to_string() + " runs in " +
                      (record->container.empty() ? "no container" : record->container) + ", not in " + container);
  }
  if (record->phase != TaskPhase::launching) {
    return make_error(task.to_string() + " is " + std::string(to_string(record->phase)) + ", not launching");
  }
  if (auto accepted = rendezvous_.register_task(task, address, container); !accepted) return accepted;
  record->address = address;
  record->phase = TaskPhase::registered;
  record->last_heard = Clock::now();
  events_.append("registered", task.to_string(), address.host + ":" + std::to_string(address.port));
  return {};
}

void JobLifecycle::cluster_published(std::uint64_t version) {
  // A complete cluster: the whole gang was placed.
  gang_placed_ = true;
  waiting_since_.reset();
  waiting_for_.clear();
  bool any = false;
  for (auto& task : tasks_) {
    if (task.phase != TaskPhase::registered) continue;
    task.phase = TaskPhase::running;
    // Executors beat only once their command runs.
    task.last_heard = Clock::now();
    task.last_progress = task.last_heard;
    any = true;
  }
  if (any) events_.append("cluster", "", "cluster spec version " + std::to_string(version) + " published");
}

Result<void> JobLifecycle::heartbeat(const TaskId& task, const TaskHeartbeat& heartbeat, Clock::time_point now) {
  auto* record = find_mutable(task);
  if (!record || record->container != heartbeat.container) {
    return make_error(task.to_string() + " does not run in " + heartbeat.container);
  }
  // Working: it wrote something, or used at least 5 % of a core since the last beat. A process
  // blocked for good (a collective whose peer died, a lock) still spends a little on its threads.
  const auto& before = record->usage;
  const double seconds = std::chrono::duration<double>(now - record->last_heard).count();
  const double cpu = heartbeat.cpu_seconds - before.cpu_seconds;
  const bool working = record->phase != TaskPhase::running || heartbeat.log_bytes != before.log_bytes ||
                       heartbeat.output_fingerprint != before.output_fingerprint || cpu < 0 || cpu >= 0.05 * seconds;
  if (working) {
    record->last_progress = now;
    // With restart or fail, a stalled task's container is being stopped: that stands.
    if (!record->stalled.empty() && spec_.on_stall == JobSpec::OnStall::report) {
      record->stalled.clear();
      events_.append("working", task.to_string(), "works again: it writes or uses CPU");
    }
  }
  record->usage = heartbeat;
  record->last_heard = now;
  return {};
}

Result<void> JobLifecycle::result(const TaskId& task, const TaskResult& result) {
  auto* record = find_mutable(task);
  if (!record || record->container != result.container) {
    return make_error(task.to_string() + " does not run in " + result.container);
  }
  record->reported = result;
  record->last_heard = Clock::now();
  events_.append("exited", task.to_string(), result.description);
  return {};
}

void JobLifecycle::container_completed(const std::string& container, int exit_status, const std::string& diagnostics) {
  if (const auto adoptable = adoptable_.find(container); adoptable != adoptable_.end()) {
    // Ended before its task reattached: its task is asked for again.
    events_.append("released", "", container + " of the earlier attempt ended before its task reattached");
    adoptable_.erase(adoptable);
    if (adoptable_.empty()) reattach_deadline_.reset();
    return;
  }
  auto* task = by_container(container);
  if (!task || is_final(task->phase) || task->container != container) return;
  container_owner_.erase(container);
  if (task->given_back && !ending()) {
    task->given_back = false;
    task->exit_code = exit_status;
    task->exit_description = describe_yarn_exit(exit_status, diagnostics);
    task->finished_ms = wall_clock_ms();
    restart(*task, true,
            "its container was given back, with every other, to be asked for again once the queue has "
            "room for the whole job");
    return;
  }
  if (task->stopped_for_group && !ending()) {
    task->stopped_for_group = false;
    task->exit_code = exit_status;
    task->exit_description =
        task->reported ? task->reported->description : describe_yarn_exit(exit_status, diagnostics);
    task->finished_ms = wall_clock_ms();
    restart(*task, true, "restarted with its group");
    return;
  }
  const bool lost = lost_through_no_fault(exit_status);
  if (task->silent && !task->reported) {
    // We stopped it: what counts is why, and it spends the restart budget.
    task_ended(*task, exit_status,
               "its executor sent no heartbeat for " + std::to_string(spec_.heartbeat_timeout.count()) +
                   " s, so its container was stopped",
               false);
    return;
  }
  if (!task->stalled.empty() && spec_.on_stall != JobSpec::OnStall::report) {
    // We stopped it for its stall: what counts is why.
    if (task->reported) task->stderr_tail = task->reported->stderr_tail;
    task_ended(
        *task, exit_status,
        task->stalled + ", so its container was stopped (on_stall: " + std::string(to_string(spec_.on_stall)) + ")",
        false, spec_.on_stall != JobSpec::OnStall::fail);
    return;
  }
  if (task->reported && !lost) {
    const TaskResult reported = *task->reported;
    task->stderr_tail = reported.stderr_tail;
    task_ended(*task, reported.exit_code, reported.description, false);
    return;
  }
  const auto node = task->node;
  if (!task->reported) task->stderr_tail = stderr_in_diagnostics(diagnostics);
  task_ended(*task, exit_status, describe_yarn_exit(exit_status, diagnostics), lost);
  if (lost && exit_status != -102 && task->phase == TaskPhase::requested) {
    // Gone with its node: another node must fit it, which is not sure.
    task->replacing_since = Clock::now();
    task->lost_node = node;
  }
}

void JobLifecycle::task_ended(TaskRecord& task, int exit_code, const std::string& description, bool lost,
                              bool may_restart) {
  container_owner_.erase(task.container);
  task.stalled.clear();
  task.exit_code = exit_code;
  task.exit_description = description;
  task.finished_ms = wall_clock_ms();
  const auto name = task.id.to_string();
  if (ending() || grace_ends_) {
    // Once the job's end is decided, what ends was stopped by us; during the
    // evaluators' grace period, ends are recorded but change nothing.
    task.phase = ending() ? TaskPhase::stopped : exit_code == 0 ? TaskPhase::succeeded : TaskPhase::failed;
    events_.append(std::string(to_string(task.phase)), name, description);
    evaluate();
    return;
  }
  if (lost) {
    if (in_group(task)) {
      restart_group(task, true, description);
    } else {
      restart(task, true, description);
    }
    return;
  }
  if (exit_code == 0) {
    task.phase = TaskPhase::succeeded;
    events_.append("succeeded", name, description);
    evaluate();
    return;
  }
  const auto& spec = spec_of(task.id);
  if (may_restart && in_group(task) && group_restarts_ < group_restart_budget()) {
    ++group_restarts_;
    restart_group(task, false, description);
    return;
  }
  if (may_restart && !in_group(task) && task.restarts < spec.max_restarts) {
    restart(task, false, description);
    return;
  }
  task.phase = TaskPhase::failed;
  events_.append("failed", name, description);
  if (spec.fails_job) {
    std::string diagnostics = name + " failed: " + description;
    if (!task.container.empty()) diagnostics += " (" + task.container + " on " + task.node + ")";
    if (spec.max_restarts > 0 && may_restart) diagnostics += " after " + std::to_string(task.restarts) + " restart(s)";
    diagnostics += ".";
    if (!task.stderr_tail.empty()) diagnostics += " The end of its stderr:\n" + task.stderr_tail;
    end(JobOutcome::failed, std::move(diagnostics));
    return;
  }
  evaluate();
}

bool JobLifecycle::in_group(const TaskRecord& task) const {
  return collective_group_ && (task.id.type == task_types::chief || task.id.type == task_types::worker);
}

int JobLifecycle::group_restart_budget() const {
  int budget = 0;
  for (std::string_view type : {task_types::chief, task_types::worker}) {
    if (const auto* spec = spec_.find_task(type)) budget = std::max(budget, spec->max_restarts);
  }
  return budget;
}

void JobLifecycle::restart_group(TaskRecord& task, bool free, const std::string& why) {
  restart(task, free, why,
          free ? ""
               : " (restart " + std::to_string(group_restarts_) + " of its group's " +
                     std::to_string(group_restart_budget()) + ")");
  const std::string cause = task.id.to_string() + " ended: " + why;
  for (auto& member : tasks_) {
    if (&member == &task || !in_group(member) || member.phase == TaskPhase::requested) continue;
    // A member still waiting for its first cluster joined no group yet: the next one names the new member.
    if (member.stopped_for_group || member.phase == TaskPhase::launching || member.phase == TaskPhase::registered) {
      continue;
    }
    if (is_final(member.phase) || member.container.empty()) {
      restart(member, true, "restarted with its group, as " + cause);
      continue;
    }
    // Its process group is broken; it starts again once its container is gone. Its address is
    // withdrawn now, so that no member that registers again is handed the broken group's cluster.
    member.stopped_for_group = true;
    rendezvous_.task_restarting(member.id);
    to_stop_.push_back(member.container);
    events_.append("stopping", member.id.to_string(), "to restart it with its group, as " + cause);
  }
}

void JobLifecycle::restart(TaskRecord& task, bool free, const std::string& why, const std::string& budget) {
  if (free) {
    ++task.lost;
  } else {
    ++task.restarts;
  }
  rendezvous_.task_restarting(task.id);
  std::string address;
  if (task.address) address = task.address->host + ":" + std::to_string(task.address->port);
  task.earlier_attempts.push_back(EarlierAttempt{task.container, task.node, address, task.exit_code,
                                                 task.exit_description, task.log_url, task.started_ms,
                                                 task.finished_ms});
  task.phase = TaskPhase::requested;
  task.container.clear();
  task.node.clear();
  task.node_http_address.clear();
  task.log_url.clear();
  task.exit_code.reset();
  task.exit_description.clear();
  task.started_ms = 0;
  task.finished_ms = 0;
  task.usage = {};
  task.address.reset();
  task.reported.reset();
  events_.append("restarting", task.id.to_string(),
                 why + (free              ? std::string(" (not counted against its restarts)")
                        : !budget.empty() ? budget
                                          : " (restart " + std::to_string(task.restarts) + " of " +
                                                std::to_string(spec_of(task.id).max_restarts) + ")"));
}

void JobLifecycle::evaluate() {
  if (ending()) return;
  const bool has_chief = spec_.find_task(task_types::chief) != nullptr;
  bool training_done = true;
  bool evaluators_alive = false;
  for (const auto& task : tasks_) {
    const auto& spec = spec_of(task.id);
    if (task.id.type == task_types::evaluator) {
      evaluators_alive = evaluators_alive || !is_final(task.phase);
      continue;
    }
    if (spec.role != TaskRole::tracked) continue;
    if (has_chief && task.id.type != task_types::chief) continue;
    if (!is_final(task.phase)) training_done = false;
  }
  if (!training_done) return;
  const std::string what = has_chief ? "the chief succeeded" : "every tracked task finished";
  if (evaluators_alive && !grace_ends_) {
    grace_ends_ = Clock::now() + evaluator_grace_;
    events_.append("job", "", what + "; evaluators have " + std::to_string(evaluator_grace_.count()) + " s to finish");
    return;
  }
  if (evaluators_alive) return;
  end(JobOutcome::succeeded, what + ".");
}

void JobLifecycle::tick(Clock::time_point now) {
  if (ending()) return;
  if (spec_.timeout.count() > 0 && now - started_ >= spec_.timeout) {
    end(JobOutcome::failed, "the job ran longer than its timeout of " + std::to_string(spec_.timeout.count()) +
                                " s; raise `timeout` in the spec if it needs longer.");
    return;
  }
  if (reattach_deadline_ && now >= *reattach_deadline_) {
    give_up_reattachment("its task did not reattach in time, so it is started again elsewhere");
  }
  if (grace_ends_ && now >= *grace_ends_) {
    end(JobOutcome::succeeded, "the chief succeeded; evaluators still running after their grace period were stopped.");
    return;
  }
  check_allocation(now);
  if (ending()) return;
  if (spec_.replacement_timeout.count() > 0) {
    for (auto& task : tasks_) {
      if (task.phase != TaskPhase::requested || !task.replacing_since) continue;
      if (now - *task.replacing_since < spec_.replacement_timeout) continue;
      task.replacing_since.reset();
      const auto why = no_replacement_diagnostic(task);
      if (spec_of(task.id).fails_job) {
        task.phase = TaskPhase::failed;
        events_.append("failed", task.id.to_string(), why);
        end(JobOutcome::failed, why);
        return;
      }
      // A task the job can do without is given up alone.
      task.phase = TaskPhase::failed;
      task.exit_description = why;
      events_.append("failed", task.id.to_string(), why);
      evaluate();
      if (ending()) return;
    }
  }
  check_stalls(now);
  if (spec_.heartbeat_timeout.count() == 0) return;
  for (auto& task : tasks_) {
    if (task.phase != TaskPhase::running || task.silent || task.reported) continue;
    if (now - task.last_heard < spec_.heartbeat_timeout) continue;
    task.silent = true;
    to_stop_.push_back(task.container);
    events_.append(
        "lost", task.id.to_string(),
        "no heartbeat for " + std::to_string(spec_.heartbeat_timeout.count()) + " s; stopping " + task.container);
  }
}

// A task that neither writes nor computes may wait for ever on something that never comes (a peer, a
// lock, a file); its heartbeats go on, so only this tells (docs/architecture.md, "Stalled tasks").
void JobLifecycle::check_stalls(Clock::time_point now) {
  if (spec_.stall_timeout.count() == 0) return;
  for (auto& task : tasks_) {
    if (task.phase != TaskPhase::running || !task.stalled.empty() || task.silent || task.reported ||
        task.stopped_for_group || task.given_back || spec_of(task.id).role != TaskRole::tracked) {
      continue;
    }
    if (now - task.last_progress < spec_.stall_timeout) continue;
    task.stalled = "stalled: it wrote nothing (stdout, stderr, the job's output) and used under 5% of a core for " +
                   format_duration(spec_.stall_timeout) + " (stall_timeout)";
    std::string action = "; it is left running (on_stall: report)";
    if (spec_.on_stall != JobSpec::OnStall::report) {
      to_stop_.push_back(task.container);
      action = "; stopping " + task.container + " (on_stall: " + std::string(to_string(spec_.on_stall)) + ")";
    }
    events_.append("stalled", task.id.to_string(), task.stalled + action);
  }
}

// A gang that cannot be completed must not hold what it got: the containers
// it holds would block the queue for every other job while it waits for ever
// (docs/architecture.md, "Never waiting for ever").
void JobLifecycle::check_allocation(Clock::time_point now) {
  if (spec_.allocation_timeout.count() == 0 || holding_back_since_ || gang_placed_) return;
  // Only the gang's first placement is bounded: once all of it ran, a task that waits again (preempted,
  // or restarted) waits for its queue, and one lost with its node has replacement_timeout.
  const bool waiting = std::any_of(tasks_.begin(), tasks_.end(),
                                   [](const TaskRecord& task) { return task.phase == TaskPhase::requested; });
  if (!waiting && !reattaching()) {
    gang_placed_ = true;
    waiting_since_.reset();
    waiting_for_.clear();
    return;
  }
  // Containers of an earlier attempt are being claimed: no new ones are asked for meanwhile.
  if (reattaching()) return;
  if (!waiting_since_) waiting_since_ = now;
  const auto waited = std::chrono::duration_cast<std::chrono::seconds>(now - *waiting_since_);
  waiting_for_ = "waits for containers: " + granted_summary() + " granted after " + format_duration(waited) +
                 "; it gives them all back at " + format_duration(spec_.allocation_timeout) + " (allocation_timeout)";
  if (waited < spec_.allocation_timeout) return;
  const std::string why = "only " + granted_summary() + " were granted in " +
                          format_duration(spec_.allocation_timeout) + " (allocation_timeout)";
  if (spec_.on_allocation_timeout == JobSpec::OnAllocationTimeout::fail) {
    waiting_for_.clear();
    end(JobOutcome::failed, why +
                                ", so the job gave back every container it held rather than block its queue "
                                "waiting for the rest. Run it when queue " +
                                spec_.queue +
                                " has room for all of it, ask for fewer or smaller containers, or set "
                                "on_allocation_timeout: retry to have it wait holding nothing.");
    return;
  }
  give_every_container_back(why, now);
}

void JobLifecycle::give_every_container_back(const std::string& why, Clock::time_point now) {
  holding_back_since_ = now;
  waiting_since_.reset();
  for (auto& task : tasks_) {
    if (task.phase == TaskPhase::requested || is_final(task.phase) || task.container.empty()) continue;
    if (task.given_back || task.stopped_for_group) continue;
    task.given_back = true;
    rendezvous_.task_restarting(task.id);
    to_stop_.push_back(task.container);
  }
  const Room whole = room_of_unfinished_tasks();
  waiting_for_ = "holds no container and waits until queue " + spec_.queue + " has room for the whole job (" +
                 std::to_string(whole.memory_mib) + " MiB, " + std::to_string(whole.vcores) + " vcores" +
                 (whole.gpus > 0 ? ", " + std::to_string(whole.gpus) + " GPUs" : std::string()) + ")";
  events_.append("job", "", why + "; every container was given back, and the job " + waiting_for_);
}

void JobLifecycle::headroom(const Room& room, Clock::time_point now) {
  if (!holding_back_since_ || ending()) return;
  // Given-back containers still count against the queue until they are gone.
  for (const auto& task : tasks_) {
    if (task.given_back) return;
  }
  const Room whole = room_of_unfinished_tasks();
  const bool room_for_all = room.memory_mib >= whole.memory_mib && room.vcores >= whole.vcores;
  const bool waited_long = now - *holding_back_since_ >= spec_.allocation_timeout;
  if (!room_for_all && !waited_long) return;
  holding_back_since_.reset();
  waiting_since_ = now;
  events_.append("job", "",
                 room_for_all ? "queue " + spec_.queue + " has room for the whole job again (" +
                                    std::to_string(room.memory_mib) + " MiB, " + std::to_string(room.vcores) +
                                    " vcores free to it); asking for its containers"
                              : "asking for the job's containers again after holding none for " +
                                    format_duration(spec_.allocation_timeout));
}

std::string JobLifecycle::granted_summary() const {
  int granted = 0;
  std::map<std::string, std::pair<int, int>> by_type;  // granted, of
  for (const auto& task : tasks_) {
    if (is_final(task.phase)) continue;
    auto& [has, of] = by_type[task.id.type];
    ++of;
    if (task.phase != TaskPhase::requested) {
      ++has;
      ++granted;
    }
  }
  std::string text;
  int total = 0;
  for (const auto& [type, counts] : by_type) {
    total += counts.second;
    if (counts.first == counts.second) continue;
    text +=
        (text.empty() ? "" : ", ") + std::to_string(counts.first) + " of " + std::to_string(counts.second) + " " + type;
  }
  return std::to_string(granted) + " of the job's " + std::to_string(total) + " containers (" + text + ")";
}

Room JobLifecycle::room_of_unfinished_tasks() const {
  Room room;
  for (const auto& task : tasks_) {
    if (is_final(task.phase)) continue;
    const auto& spec = spec_of(task.id);
    room.memory_mib += static_cast<std::int64_t>(spec.memory_mib);
    room.vcores += spec.vcores;
    room.gpus += spec.gpus;
  }
  return room;
}

std::string JobLifecycle::no_replacement_diagnostic(const TaskRecord& task) const {
  const auto& spec = spec_of(task.id);
  std::string needs = std::to_string(spec.memory_mib) + " MiB, " + std::to_string(spec.vcores) + " vcore(s)";
  if (spec.gpus > 0) needs += ", " + std::to_string(spec.gpus) + " GPU(s)";
  const std::string where =
      spec.node_label.empty() ? "on a node without label" : "on a node labelled '" + spec.node_label + "'";
  return task.id.to_string() + " lost its container with node " + (task.lost_node.empty() ? "?" : task.lost_node) +
         ", and in " + std::to_string(spec_.replacement_timeout.count()) + " s no other node of queue '" + spec_.queue +
         "' could take it: it needs " + needs + " " + where +
         ". Bring such a node back or add one, or raise replacement_timeout.";
}

std::vector<std::string> JobLifecycle::take_containers_to_stop() {
  return std::exchange(to_stop_, {});
}

void JobLifecycle::kill(const std::string& why) {
  if (!ending()) end(JobOutcome::killed, why);
}

void JobLifecycle::fail(const std::string& why) {
  if (!ending()) end(JobOutcome::failed, why);
}

void JobLifecycle::end(JobOutcome outcome, std::string diagnostics) {
  if (!adoptable_.empty()) give_up_reattachment("the job ended");
  outcome_ = outcome;
  diagnostics_ = std::move(diagnostics);
  events_.append("job", "", std::string(to_string(outcome)) + ": " + diagnostics_);
  // Running tasks learn it from the cluster they watch and stop their commands themselves.
  rendezvous_.end(diagnostics_);
}

bool JobLifecycle::stops_itself(const std::string& container) const {
  const auto owner = container_owner_.find(container);
  if (owner == container_owner_.end()) return false;
  const auto& task = tasks_[owner->second];
  return task.phase == TaskPhase::running && !task.silent;
}

std::vector<std::string> JobLifecycle::live_containers() const {
  std::vector<std::string> live;
  for (const auto& [container, index] : container_owner_) {
    if (!is_final(tasks_[index].phase)) live.push_back(container);
  }
  return live;
}

}  // namespace spindle

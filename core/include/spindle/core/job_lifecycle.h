#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/cluster_spec.h"
#include "spindle/core/event_log.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/job_status.h"
#include "spindle/core/rendezvous.h"

namespace spindle {

enum class TaskPhase {
  requested,   // waiting for a container
  launching,   // has a container; its executor has not registered yet
  registered,  // registered its address; waiting for the rest of the gang
  running,     // its command runs with the cluster spec
  succeeded,
  failed,
  stopped,  // stopped by the application master when the job ended
};
std::string_view to_string(TaskPhase phase);

struct TaskRecord {
  TaskId id;
  TaskPhase phase = TaskPhase::requested;
  std::string container;
  std::string node;  // host:port of its NodeManager
  std::string node_http_address;
  std::string log_url;
  std::optional<HostPort> address;
  int restarts = 0;  // restarts spent from its budget
  int lost = 0;      // containers preempted or lost with their node (free restarts)
  std::optional<int> exit_code;
  std::string exit_description;
  std::string stderr_tail;
  std::int64_t started_ms = 0;
  std::int64_t finished_ms = 0;
  TaskHeartbeat usage;
  std::optional<TaskResult> reported;                  // what its executor said before the container ended
  std::chrono::steady_clock::time_point last_heard{};  // registration, heartbeat or result
  bool silent = false;             // declared lost for want of heartbeats; its container is being stopped
  bool stopped_for_group = false;  // its container is being stopped to restart its collective group
  bool given_back = false;  // its container is being given back: the job's containers were not all granted in time
  std::vector<EarlierAttempt> earlier_attempts;  // containers it ran in before its restarts
  // The last heartbeat that showed it working: something written or CPU used (stall_timeout).
  std::chrono::steady_clock::time_point last_progress{};
  // While it is stalled, the sentence that says so; else empty. With on_stall restart or fail, its
  // container is then being stopped.
  std::string stalled;
  // Since when it waits for a container to replace one lost with its node,
  // and that node; see JobSpec::replacement_timeout.
  std::optional<std::chrono::steady_clock::time_point> replacing_since;
  std::string lost_node;
};

// A container an earlier application master attempt started and YARN kept
// for this attempt: its task is known once its executor registers again.
struct AdoptableContainer {
  std::string id;
  std::string type;  // the task type it was granted for
  std::string node;
  std::string node_http_address;
  std::string log_url;
};

// Resources as the scheduler counts them, for the room the job asks for.
struct Room {
  std::int64_t memory_mib = 0;
  std::int64_t vcores = 0;
  std::int64_t gpus = 0;
};

enum class JobOutcome { running, succeeded, failed, killed };
std::string_view to_string(JobOutcome outcome);

// The job life cycle (docs/architecture.md, A job's life) as a state machine without any I/O: the
// application master feeds it what YARN and the executors say and asks it
// what to do next. Not thread-safe; the application master serializes calls.
//
// In a PyTorch job, and in a TensorFlow job whose several training tasks have
// no parameter server (MultiWorkerMirroredStrategy), the chief and the workers
// are one collective group, which breaks as a whole when one member ends: they
// restart together. The first
// member to fail spends one restart of the group, whose budget is the largest
// max_restarts of the chief and worker types; the containers of the others
// are stopped and all of them start again, for free, in a new cluster version.
class JobLifecycle {
 public:
  using Clock = std::chrono::steady_clock;

  JobLifecycle(JobSpec spec, Rendezvous& rendezvous, EventLog& events,
               std::chrono::seconds evaluator_grace = std::chrono::seconds(60));

  // How many containers each task type needs now.
  std::map<std::string, int> containers_wanted() const;
  // A container granted for `type`: the task it is for, or nothing when no
  // task of that type waits (the application master releases it).
  std::optional<TaskId> assign_container(const std::string& type, const std::string& container, const std::string& node,
                                         const std::string& node_http_address, const std::string& log_url);
  // Its NodeManager refused to start the container.
  void launch_failed(const std::string& container, const std::string& why);

  // This is a later application master attempt: `containers` still run
  // tasks of the earlier one. Their tasks are adopted as their executors
  // register again; until `deadline` no replacement is asked for them, and
  // those not heard of by then are released (take_containers_to_release).
  void expect_reattachment(std::vector<AdoptableContainer> containers, Clock::time_point deadline);
  bool reattaching() const { return !adoptable_.empty(); }

  // A task's executor registers: checked against the container the task
  // runs in, then handed to the rendezvous. An executor of an earlier
  // attempt (`reattachment.present`) is adopted with its container.
  Result<void> register_task(const TaskId& task, const HostPort& address, const std::string& container,
                             const Reattachment& reattachment = {});
  // The rendezvous published a cluster: every registered task now runs.
  void cluster_published(std::uint64_t version);
  Result<void> heartbeat(const TaskId& task, const TaskHeartbeat& heartbeat, Clock::time_point now = Clock::now());
  Result<void> result(const TaskId& task, const TaskResult& result);
  // YARN says the container ended, with its exit status (negative: YARN's own).
  void container_completed(const std::string& container, int exit_status, const std::string& diagnostics);
  // Time passes: the job's timeout, the evaluators' grace period, tasks
  // whose containers were not all granted within allocation_timeout,
  // running tasks whose executors went silent and tasks stalled for
  // stall_timeout (see take_containers_to_stop).
  void tick(Clock::time_point now);
  // What the scheduler would still grant the job now. A job that gave its
  // containers back (on_allocation_timeout: retry) asks again once this
  // holds all of it, or once it has held nothing for allocation_timeout.
  void headroom(const Room& room, Clock::time_point now = Clock::now());
  // What a job waiting for its containers waits for, in a sentence; empty
  // when it waits for nothing.
  const std::string& waiting_for() const { return waiting_for_; }
  // Containers of silent tasks, once each: the application master stops
  // them, and their end then counts as the task's failure.
  std::vector<std::string> take_containers_to_stop();
  // Containers of earlier attempts that nobody claimed, once each.
  std::vector<std::string> take_containers_to_release();
  // The job is being killed from outside (a signal to the application master).
  void kill(const std::string& why);
  // Ends the job as failed for a reason outside any task (the cluster refused
  // what it asks for), unless its end is decided already.
  void fail(const std::string& why);

  JobOutcome outcome() const { return outcome_; }
  // Whether the job's end is decided (outcome may still be running while
  // evaluators use their grace period).
  bool ending() const { return outcome_ != JobOutcome::running; }
  const std::string& diagnostics() const { return diagnostics_; }
  // Containers still alive, which the application master stops once the job ends.
  std::vector<std::string> live_containers() const;
  // Whether the container's task runs its command and watches the cluster, so
  // that it stops the command itself when the job ends and reports once its
  // output is copied; the others are stopped by their NodeManagers at once.
  bool stops_itself(const std::string& container) const;
  const std::vector<TaskRecord>& tasks() const { return tasks_; }
  const JobSpec& spec() const { return spec_; }
  const TaskRecord* find(const TaskId& task) const;

 private:
  TaskRecord* find_mutable(const TaskId& task);
  TaskRecord* by_container(const std::string& container);
  const TaskSpec& spec_of(const TaskId& task) const;
  void task_ended(TaskRecord& task, int exit_code, const std::string& description, bool lost, bool may_restart = true);
  void restart(TaskRecord& task, bool free, const std::string& why, const std::string& budget = "");
  bool in_group(const TaskRecord& task) const;
  int group_restart_budget() const;
  void restart_group(TaskRecord& task, bool free, const std::string& why);
  void adopt(TaskRecord& task, const AdoptableContainer& container, const Reattachment& reattachment);
  void give_up_reattachment(const std::string& why);
  std::string no_replacement_diagnostic(const TaskRecord& task) const;
  void check_allocation(Clock::time_point now);
  void check_stalls(Clock::time_point now);
  std::string granted_summary() const;
  Room room_of_unfinished_tasks() const;
  void give_every_container_back(const std::string& why, Clock::time_point now);
  void evaluate();
  void end(JobOutcome outcome, std::string diagnostics);

  JobSpec spec_;
  Rendezvous& rendezvous_;
  EventLog& events_;
  std::chrono::seconds evaluator_grace_;
  std::vector<TaskRecord> tasks_;
  std::map<std::string, std::size_t, std::less<>> first_of_type_;  // type -> index in tasks_ of its task 0
  std::map<std::string, std::size_t> container_owner_;             // container -> index in tasks_
  Clock::time_point started_ = Clock::now();
  std::optional<Clock::time_point> grace_ends_;
  std::vector<std::string> to_stop_;
  std::map<std::string, AdoptableContainer> adoptable_;  // by container id
  std::optional<Clock::time_point> reattach_deadline_;
  std::vector<std::string> to_release_;
  JobOutcome outcome_ = JobOutcome::running;
  std::string diagnostics_;
  bool collective_group_ = false;  // the chief and workers restart together
  int group_restarts_ = 0;         // restarts of the collective group spent from its budget
  // Since when some task waits for a container (allocation_timeout).
  std::optional<Clock::time_point> waiting_since_;
  // Since when the job holds nothing and asks for nothing, having given its
  // containers back, until the queue has room for all of it.
  std::optional<Clock::time_point> holding_back_since_;
  bool gang_placed_ = false;  // every task has had its container at once
  std::string waiting_for_;
};

}  // namespace spindle

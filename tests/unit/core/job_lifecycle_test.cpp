// The job life cycle of docs/architecture.md (A job's life), fed what YARN and executors would say.

#include "spindle/core/job_lifecycle.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "spindle/core/spec_parser.h"

namespace spindle {
namespace {

JobSpec spec_of(const std::string& yaml) {
  SpecParseOptions options;
  options.check_files = false;
  auto parsed = parse_job_spec(yaml, options);
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : format_diagnostics(parsed.error()));
  return *parsed;
}

class Lifecycle : public ::testing::Test {
 protected:
  void make(const std::string& yaml, std::chrono::seconds grace = std::chrono::seconds(60)) {
    spec_ = spec_of(yaml);
    rendezvous_ = std::make_unique<Rendezvous>(spec_);
    lifecycle_ = std::make_unique<JobLifecycle>(spec_, *rendezvous_, events_, grace);
  }
  // Gives every waiting task a container and registers it.
  void start_all() {
    for (const auto& [type, count] : lifecycle_->containers_wanted()) {
      for (int i = 0; i < count; ++i) {
        const auto container = "container_" + std::to_string(++containers_);
        auto task = lifecycle_->assign_container(type, container, "node:1", "node:2", "");
        ASSERT_TRUE(task.has_value());
        ASSERT_TRUE(
            lifecycle_->register_task(*task, HostPort{"h", static_cast<std::uint16_t>(1000 + containers_)}, container)
                .ok());
      }
    }
    if (auto current = rendezvous_->current()) lifecycle_->cluster_published(current->version);
  }
  const TaskRecord& task(const std::string& type, int index) { return *lifecycle_->find(TaskId{type, index}); }
  void end(const std::string& type, int index, int exit_status) {
    lifecycle_->container_completed(task(type, index).container, exit_status, "");
  }

  JobSpec spec_;
  EventLog events_;
  std::unique_ptr<Rendezvous> rendezvous_;
  std::unique_ptr<JobLifecycle> lifecycle_;
  int containers_ = 0;
};

TEST_F(Lifecycle, AsksForEveryTaskByType) {
  make("command: x\ntasks: {chief: {}, worker: {instances: 2}, ps: {}}\n");
  const auto wanted = lifecycle_->containers_wanted();
  EXPECT_EQ(wanted.at("chief"), 1);
  EXPECT_EQ(wanted.at("worker"), 2);
  EXPECT_EQ(wanted.at("ps"), 1);
  EXPECT_FALSE(lifecycle_->assign_container("evaluator", "c", "n", "n", "").has_value());
}

TEST_F(Lifecycle, ChiefSuccessEndsTheJobAndServicesAreStopped) {
  make("command: x\ntasks: {chief: {}, worker: {instances: 2}, ps: {}}\n");
  start_all();
  EXPECT_EQ(task("worker", 0).phase, TaskPhase::running);
  end("chief", 0, 0);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::succeeded);
  EXPECT_EQ(lifecycle_->live_containers().size(), 3u);  // workers and ps, to be stopped
  // Each is told through the cluster it watches, and stops its command itself.
  EXPECT_EQ(rendezvous_->current()->ending, "the chief succeeded.");
  for (const auto& container : lifecycle_->live_containers()) EXPECT_TRUE(lifecycle_->stops_itself(container));
  end("ps", 0, -105);
  EXPECT_EQ(task("ps", 0).phase, TaskPhase::stopped);
  EXPECT_FALSE(lifecycle_->stops_itself(task("ps", 0).container));
}

TEST_F(Lifecycle, ATaskWhoseCommandHasNotStartedCannotStopItself) {
  make("command: x\ntasks: {worker: {instances: 2, max_restarts: 1}, ps: {}}\n");
  start_all();
  end("worker", 1, 3);  // restarts: its next container has no executor that registered yet
  auto replacement = lifecycle_->assign_container("worker", "container_new", "node:1", "node:2", "");
  ASSERT_TRUE(replacement.has_value());
  EXPECT_EQ(task("worker", 1).phase, TaskPhase::launching);
  EXPECT_FALSE(lifecycle_->stops_itself("container_new"));
  EXPECT_TRUE(lifecycle_->stops_itself(task("worker", 0).container));
  EXPECT_FALSE(lifecycle_->stops_itself("container_unknown"));
}

TEST_F(Lifecycle, WithoutChiefEveryWorkerMustSucceed) {
  make("command: x\ntasks: {worker: {instances: 2}, ps: {}}\n");
  start_all();
  end("worker", 0, 0);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
  end("worker", 1, 0);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::succeeded);
}

// Beside a parameter server, a TensorFlow worker restarts alone: ParameterServerStrategy's
// coordinator takes the new worker in.
TEST_F(Lifecycle, FailureAfterItsRestartsFailsTheJobNamingTask) {
  make("command: x\ntasks: {worker: {instances: 2, max_restarts: 1}, ps: {}}\n");
  start_all();
  TaskResult result;
  result.container = task("worker", 1).container;
  result.exit_code = 3;
  result.description = "exited with 3";
  result.stderr_tail = "Traceback: boom";
  ASSERT_TRUE(lifecycle_->result(TaskId{"worker", 1}, result).ok());
  end("worker", 1, 3);
  EXPECT_EQ(task("worker", 1).phase, TaskPhase::requested);  // restart 1 of 1
  EXPECT_EQ(task("worker", 1).restarts, 1);
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 1);
  EXPECT_EQ(rendezvous_->missing().size(), 1u);
  start_all();
  EXPECT_EQ(rendezvous_->current()->version, 2u);  // the restarted task's new address
  result.container = task("worker", 1).container;
  ASSERT_TRUE(lifecycle_->result(TaskId{"worker", 1}, result).ok());
  end("worker", 1, 3);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_NE(lifecycle_->diagnostics().find("worker:1 failed: exited with 3"), std::string::npos);
  EXPECT_NE(lifecycle_->diagnostics().find("Traceback: boom"), std::string::npos);
}

// PyTorch's group breaks as a whole: one member's failure restarts every member, in a new
// cluster version, spending one restart of the group; the others' ends on the way are free.
TEST_F(Lifecycle, APyTorchMemberFailingRestartsTheWholeGroup) {
  make("framework: pytorch\ncommand: x\ntasks: {chief: {}, worker: {instances: 2, max_restarts: 1}, evaluator: {}}\n");
  start_all();
  const auto first_version = rendezvous_->current()->version;
  const auto chief_container = task("chief", 0).container;
  const auto worker0_container = task("worker", 0).container;
  const auto evaluator_container = task("evaluator", 0).container;
  end("worker", 1, 137);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
  EXPECT_EQ(task("worker", 1).restarts, 1);
  EXPECT_EQ(task("worker", 1).phase, TaskPhase::requested);
  // The survivors are stopped; the evaluator, outside the group, runs on.
  auto to_stop = lifecycle_->take_containers_to_stop();
  std::sort(to_stop.begin(), to_stop.end());
  EXPECT_EQ(to_stop, (std::vector<std::string>{chief_container, worker0_container}));
  // The killed worker's replacement registers before the others' containers are gone: it must not
  // be handed the broken group's cluster, with the old chief's address.
  const auto replacement = "container_replacement";
  ASSERT_TRUE(lifecycle_->assign_container("worker", replacement, "node:1", "node:2", "").has_value());
  ASSERT_TRUE(lifecycle_->register_task(TaskId{"worker", 1}, HostPort{"h", 3000}, replacement).ok());
  bool handed_a_cluster = false;
  const auto ticket = rendezvous_->when_newer(0, [&](auto) { handed_a_cluster = true; });
  EXPECT_FALSE(handed_a_cluster);
  rendezvous_->forget(ticket);
  // Their process group broke: the chief fails on its own before it is stopped, which is free.
  lifecycle_->container_completed(chief_container, 1, "");
  lifecycle_->container_completed(worker0_container, -105, "");
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
  for (const auto& [type, index] : {std::pair{"chief", 0}, std::pair{"worker", 0}}) {
    EXPECT_EQ(task(type, index).phase, TaskPhase::requested) << type;
    EXPECT_EQ(task(type, index).restarts, 0) << type;
    EXPECT_EQ(task(type, index).lost, 1) << type;
    EXPECT_EQ(task(type, index).earlier_attempts.size(), 1u) << type;
  }
  EXPECT_EQ(task("evaluator", 0).container, evaluator_container);
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 1);
  start_all();
  EXPECT_GT(rendezvous_->current()->version, first_version);
  EXPECT_EQ(task("worker", 1).phase, TaskPhase::running);
  // The group's budget (the largest max_restarts of chief and worker, 1) is spent: the next failure ends the job.
  end("chief", 0, 3);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_NE(lifecycle_->diagnostics().find("chief:0 failed: "), std::string::npos) << lifecycle_->diagnostics();
}

TEST_F(Lifecycle, TensorFlowWorkersBesideAParameterServerRestartAlone) {
  make("command: x\ntasks: {chief: {}, worker: {instances: 2, max_restarts: 1}, ps: {}}\n");
  start_all();
  end("worker", 1, 137);
  EXPECT_TRUE(lifecycle_->take_containers_to_stop().empty());
  EXPECT_EQ(task("chief", 0).phase, TaskPhase::running);
  EXPECT_EQ(task("worker", 1).phase, TaskPhase::requested);
}

// Without a parameter server, TensorFlow's workers train as MultiWorkerMirroredStrategy's collective
// group: the survivors of a dead member would wait in their all-reduce, so they restart with it.
TEST_F(Lifecycle, AMultiWorkerMirroredMemberFailingRestartsItsGroup) {
  make("command: x\noutput: /runs/x\ntasks: {worker: {instances: 3, max_restarts: 1}, tensorboard: {}}\n");
  start_all();
  const auto first_version = rendezvous_->current()->version;
  const auto tensorboard_container = task("tensorboard", 0).container;
  end("worker", 1, 137);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
  EXPECT_EQ(task("worker", 1).restarts, 1);
  auto to_stop = lifecycle_->take_containers_to_stop();
  std::sort(to_stop.begin(), to_stop.end());
  EXPECT_EQ(to_stop, (std::vector<std::string>{task("worker", 0).container, task("worker", 2).container}));
  lifecycle_->container_completed(task("worker", 0).container, -105, "");
  lifecycle_->container_completed(task("worker", 2).container, 1, "");
  for (int index : {0, 2}) {
    EXPECT_EQ(task("worker", index).phase, TaskPhase::requested) << index;
    EXPECT_EQ(task("worker", index).restarts, 0) << index;
    EXPECT_EQ(task("worker", index).lost, 1) << index;
  }
  EXPECT_EQ(task("tensorboard", 0).container, tensorboard_container);
  start_all();
  EXPECT_GT(rendezvous_->current()->version, first_version);
  end("worker", 2, 1);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_NE(lifecycle_->diagnostics().find("worker:2 failed: "), std::string::npos) << lifecycle_->diagnostics();
}

// Before the first cluster there is no group to break: a member that dies before it registers
// restarts alone, spending the group's budget, while the others wait for the cluster that names it.
TEST_F(Lifecycle, AMemberDeadBeforeTheFirstClusterRestartsAlone) {
  make("command: x\ntasks: {worker: {instances: 2, max_restarts: 1}}\n");
  const auto granted = [&](const std::string& container) {
    auto task = lifecycle_->assign_container("worker", container, "node:1", "node:2", "");
    EXPECT_TRUE(task.has_value());
    return *task;
  };
  const auto first = granted("c_0");
  ASSERT_TRUE(lifecycle_->register_task(first, HostPort{"h", 1000}, "c_0").ok());
  const auto second = granted("c_1");
  lifecycle_->container_completed("c_1", 137, "");
  EXPECT_TRUE(lifecycle_->take_containers_to_stop().empty());
  EXPECT_EQ(task("worker", first.index).phase, TaskPhase::registered);
  EXPECT_EQ(task("worker", second.index).phase, TaskPhase::requested);
  EXPECT_EQ(task("worker", second.index).restarts, 1);
  start_all();
  EXPECT_EQ(rendezvous_->current()->version, 1u);
  EXPECT_EQ(task("worker", first.index).phase, TaskPhase::running);
  // The budget is spent: the next failure ends the job.
  end("worker", second.index, 1);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
}

TEST_F(Lifecycle, ALoneTensorFlowWorkerIsNoGroup) {
  make("command: x\ntasks: {worker: {max_restarts: 1}, evaluator: {}}\n");
  start_all();
  end("worker", 0, 137);
  EXPECT_TRUE(lifecycle_->take_containers_to_stop().empty());
  EXPECT_EQ(task("worker", 0).restarts, 1);
}

TEST_F(Lifecycle, PreemptionAndLostNodesDoNotSpendTheBudget) {
  make("command: x\ntasks: {worker: {instances: 1}}\n");
  start_all();
  end("worker", 0, -102);
  EXPECT_EQ(task("worker", 0).phase, TaskPhase::requested);
  EXPECT_EQ(task("worker", 0).restarts, 0);
  EXPECT_EQ(task("worker", 0).lost, 1);
  start_all();
  end("worker", 0, -100);
  EXPECT_EQ(task("worker", 0).lost, 2);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
}

TEST_F(Lifecycle, EvaluatorGetsItsGracePeriodAndItsFailureDoesNotFailTheJob) {
  make("command: x\ntasks: {chief: {}, evaluator: {}}\n", std::chrono::seconds(30));
  start_all();
  end("chief", 0, 0);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);  // waiting for the evaluator
  EXPECT_EQ(lifecycle_->containers_wanted().at("chief"), 0);
  lifecycle_->tick(JobLifecycle::Clock::now() + std::chrono::seconds(31));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::succeeded);

  make("command: x\ntasks: {chief: {}, evaluator: {}}\n");
  start_all();
  end("evaluator", 0, 1);
  EXPECT_EQ(task("evaluator", 0).phase, TaskPhase::failed);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
  end("chief", 0, 0);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::succeeded);
}

TEST_F(Lifecycle, PsFailureFailsTheJob) {
  make("command: x\ntasks: {chief: {}, ps: {}}\n");
  start_all();
  end("ps", 0, 137);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
}

TEST_F(Lifecycle, TimeoutFailsTheJob) {
  make("command: x\ntimeout: 10m\ntasks: {worker: {}}\n");
  start_all();
  lifecycle_->tick(JobLifecycle::Clock::now() + std::chrono::minutes(11));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_NE(lifecycle_->diagnostics().find("timeout"), std::string::npos);
}

TEST_F(Lifecycle, ASilentExecutorIsLostThenRestartedFromItsBudget) {
  make("command: x\nheartbeat_timeout: 30s\ntasks: {worker: {instances: 2, max_restarts: 1}}\n");
  start_all();
  const auto now = JobLifecycle::Clock::now();
  const auto silent = task("worker", 1).container;
  ASSERT_TRUE(
      lifecycle_
          ->heartbeat(TaskId{"worker", 0}, TaskHeartbeat{task("worker", 0).container}, now + std::chrono::seconds(20))
          .ok());
  lifecycle_->tick(now + std::chrono::seconds(20));
  EXPECT_TRUE(lifecycle_->take_containers_to_stop().empty());
  // worker:0 keeps beating; worker:1 does not.
  lifecycle_->tick(now + std::chrono::seconds(31));
  EXPECT_EQ(lifecycle_->take_containers_to_stop(), std::vector<std::string>{silent});
  lifecycle_->tick(now + std::chrono::seconds(40));
  EXPECT_TRUE(lifecycle_->take_containers_to_stop().empty()) << "a silent task is stopped once";
  lifecycle_->container_completed(silent, -105, "Container killed by the ApplicationMaster.");
  EXPECT_EQ(task("worker", 1).phase, TaskPhase::requested);
  EXPECT_EQ(task("worker", 1).restarts, 1);
  ASSERT_EQ(task("worker", 1).earlier_attempts.size(), 1u);
  EXPECT_EQ(task("worker", 1).earlier_attempts[0].container, silent);
  EXPECT_EQ(task("worker", 1).earlier_attempts[0].exit_description,
            "its executor sent no heartbeat for 30 s, so its container was stopped");
  EXPECT_TRUE(task("worker", 1).container.empty());
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 1);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
}

TEST_F(Lifecycle, ASilentExecutorWithoutRestartsLeftFailsTheJobSayingWhy) {
  make("command: x\nheartbeat_timeout: 1m\ntasks: {worker: {instances: 1}}\n");
  start_all();
  lifecycle_->tick(JobLifecycle::Clock::now() + std::chrono::seconds(61));
  const auto stopped = lifecycle_->take_containers_to_stop();
  ASSERT_EQ(stopped.size(), 1u);
  lifecycle_->container_completed(stopped[0], -105, "");
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_NE(lifecycle_->diagnostics().find("worker:0 failed: its executor sent no heartbeat for 60 s"),
            std::string::npos)
      << lifecycle_->diagnostics();
}

// A worker that died before it registered never reported: what it wrote on stderr comes from its
// NodeManager's diagnostics, and its peer, registered and waiting for the cluster, waits no longer.
TEST_F(Lifecycle, AWorkerDeadBeforeItRegisteredFailsTheJobWithTheStderrItsNodeQuotes) {
  make("command: x\ntasks: {worker: {instances: 2, max_restarts: 1}}\n");
  const auto worker0 = lifecycle_->assign_container("worker", "c0", "node:1", "node:2", "");
  const auto worker1 = lifecycle_->assign_container("worker", "c1", "node:1", "node:2", "");
  ASSERT_TRUE(worker0 && worker1);
  ASSERT_TRUE(lifecycle_->register_task(*worker0, HostPort{"h", 1000}, "c0").ok());
  const std::string diagnostics =
      "Exception from container-launch.\nContainer id: c1\nExit code: 3\n\n"
      "[2026-01-05 10:00:00.000]Container exited with a non-zero exit code 3. Error file: prelaunch.err.\n"
      "Last 4096 bytes of prelaunch.err :\nLast 4096 bytes of stderr :\nfirst attempt dies\n\n\n";
  lifecycle_->container_completed("c1", 3, diagnostics);
  EXPECT_EQ(task("worker", 1).phase, TaskPhase::requested);  // restart 1 of 1
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 1);
  const auto again = lifecycle_->assign_container("worker", "c2", "node:1", "node:2", "");
  ASSERT_TRUE(again);
  lifecycle_->container_completed("c2", 3, std::string(diagnostics).replace(diagnostics.find("first"), 5, "again"));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_EQ(lifecycle_->diagnostics(),
            "worker:1 failed: its container exited with 3 (c2 on node:1) after 1 restart(s). The end of its "
            "stderr:\nagain attempt dies\n");
}

// Killed by a signal, a container's diagnostics quote no stderr; nothing of an earlier attempt's is told.
TEST_F(Lifecycle, AContainerWhoseDiagnosticsQuoteNoStderrAddsNone) {
  make("command: x\ntasks: {worker: {max_restarts: 1}}\n");
  ASSERT_TRUE(lifecycle_->assign_container("worker", "c0", "n", "n", ""));
  lifecycle_->container_completed("c0", 3, "Last 4096 bytes of stderr :\nfirst attempt dies\n");
  ASSERT_TRUE(lifecycle_->assign_container("worker", "c1", "n", "n", ""));
  lifecycle_->container_completed(
      "c1", 137, "[2026-01-05 10:00:00.000]Container killed on request. Exit code is 137\nKilled by external signal\n");
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_EQ(lifecycle_->diagnostics(), "worker:0 failed: its container exited with 137 (c1 on n) after 1 restart(s).");
}

TEST_F(Lifecycle, HeartbeatTimeoutZeroNeverDeclaresATaskLost) {
  make("command: x\nheartbeat_timeout: 0\ntasks: {worker: {instances: 1}}\n");
  start_all();
  lifecycle_->tick(JobLifecycle::Clock::now() + std::chrono::hours(24));
  EXPECT_TRUE(lifecycle_->take_containers_to_stop().empty());
}

TEST_F(Lifecycle, RegistrationFromAnotherContainerIsRefused) {
  make("command: x\ntasks: {worker: {}}\n");
  auto task_id = lifecycle_->assign_container("worker", "container_a", "n", "n", "");
  ASSERT_TRUE(task_id.has_value());
  EXPECT_FALSE(lifecycle_->register_task(*task_id, HostPort{"h", 1}, "container_b").ok());
  EXPECT_TRUE(lifecycle_->register_task(*task_id, HostPort{"h", 1}, "container_a").ok());
}

TEST_F(Lifecycle, ContainersOfNobodyAreIgnored) {
  make("command: x\ntasks: {worker: {}}\n");
  start_all();
  lifecycle_->container_completed("container_unknown", 1, "");
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
}

TEST_F(Lifecycle, ATaskLostWithItsNodeThatNoNodeTakesFailsTheJobSayingWhy) {
  make(
      "command: x\nqueue: ml-gpu\nreplacement_timeout: 2m\n"
      "tasks: {chief: {}, worker: {gpus: 1, node_label: gpu, memory: 2 GiB}}\n");
  start_all();
  end("worker", 0, -100);
  EXPECT_EQ(task("worker", 0).restarts, 0);
  lifecycle_->tick(JobLifecycle::Clock::now() + std::chrono::seconds(60));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
  lifecycle_->tick(JobLifecycle::Clock::now() + std::chrono::seconds(121));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_EQ(lifecycle_->diagnostics(),
            "worker:0 lost its container with node node:1, and in 120 s no other node of queue 'ml-gpu' could take "
            "it: it needs 2048 MiB, 1 vcore(s), 1 GPU(s) on a node labelled 'gpu'. Bring such a node back or add "
            "one, or raise replacement_timeout.");
}

TEST_F(Lifecycle, APreemptedTaskWaitsForItsQueueAsLongAsItTakes) {
  make("command: x\nreplacement_timeout: 1m\ntasks: {worker: {}}\n");
  start_all();
  end("worker", 0, -102);
  lifecycle_->tick(JobLifecycle::Clock::now() + std::chrono::hours(2));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
}

// A gang that cannot be completed gives back what it holds at allocation_timeout.
TEST_F(Lifecycle, AGangNotPlacedInTimeFailsHoldingNothing) {
  make("command: x\nallocation_timeout: 2m\ntasks: {chief: {}, worker: {instances: 3, memory: 2 GiB}}\n");
  const auto start = JobLifecycle::Clock::now();
  lifecycle_->tick(start);
  // The chief and one worker get containers; two workers never do.
  auto chief = lifecycle_->assign_container("chief", "c1", "node:1", "node:2", "");
  auto worker = lifecycle_->assign_container("worker", "c2", "node:1", "node:2", "");
  ASSERT_TRUE(chief && worker);
  ASSERT_TRUE(lifecycle_->register_task(*chief, HostPort{"h", 1001}, "c1").ok());
  lifecycle_->tick(start + std::chrono::seconds(60));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
  EXPECT_EQ(lifecycle_->waiting_for(),
            "waits for containers: 2 of the job's 4 containers (1 of 3 worker) granted after 1m; it gives them all "
            "back at 2m (allocation_timeout)");
  lifecycle_->tick(start + std::chrono::seconds(120));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_EQ(lifecycle_->diagnostics(),
            "only 2 of the job's 4 containers (1 of 3 worker) were granted in 2m (allocation_timeout), so the job "
            "gave back every container it held rather than block its queue waiting for the rest. Run it when queue "
            "default has room for all of it, ask for fewer or smaller containers, or set on_allocation_timeout: "
            "retry to have it wait holding nothing.");
  // Nothing is asked for any more, and what it held is stopped.
  for (const auto& [type, count] : lifecycle_->containers_wanted()) EXPECT_EQ(count, 0) << type;
  auto live = lifecycle_->live_containers();
  std::sort(live.begin(), live.end());
  EXPECT_EQ(live, (std::vector<std::string>{"c1", "c2"}));
  EXPECT_TRUE(lifecycle_->waiting_for().empty());
}

TEST_F(Lifecycle, WithRetryTheGangGivesEverythingBackAndAsksAgainWhenThereIsRoom) {
  make(
      "command: x\nallocation_timeout: 1m\non_allocation_timeout: retry\n"
      "tasks: {worker: {instances: 2, memory: 2 GiB, vcores: 1}}\n");
  const auto start = JobLifecycle::Clock::now();
  lifecycle_->tick(start);
  auto first = lifecycle_->assign_container("worker", "c1", "node:1", "node:2", "");
  ASSERT_TRUE(first);
  lifecycle_->tick(start + std::chrono::seconds(61));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
  EXPECT_EQ(lifecycle_->take_containers_to_stop(), (std::vector<std::string>{"c1"}));
  for (const auto& [type, count] : lifecycle_->containers_wanted()) EXPECT_EQ(count, 0) << type;
  EXPECT_EQ(lifecycle_->waiting_for(),
            "holds no container and waits until queue default has room for the whole job (4096 MiB, 2 vcores)");
  // Room is reported while the given-back container is still there: nothing changes yet.
  lifecycle_->headroom(Room{8192, 8, 0}, start + std::chrono::seconds(62));
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 0);
  lifecycle_->container_completed("c1", -105, "Container killed by the ApplicationMaster.");
  EXPECT_EQ(task("worker", 0).phase, TaskPhase::requested);
  EXPECT_EQ(task("worker", 0).restarts, 0);  // not spent from its budget
  // Too little room: it keeps waiting, holding nothing.
  lifecycle_->headroom(Room{2048, 8, 0}, start + std::chrono::seconds(63));
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 0);
  lifecycle_->headroom(Room{4096, 8, 0}, start + std::chrono::seconds(64));
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 2);
  start_all();
  lifecycle_->tick(start + std::chrono::seconds(600));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
  EXPECT_TRUE(lifecycle_->waiting_for().empty());
}

// A beat of worker:0 at `at` seconds after `start`, having used `cpu` seconds and written `logged` bytes.
void beat(JobLifecycle& lifecycle, const TaskRecord& task, JobLifecycle::Clock::time_point start, int at, double cpu,
          std::uint64_t logged, std::uint64_t fingerprint = 0) {
  TaskHeartbeat heartbeat{task.container};
  heartbeat.cpu_seconds = cpu;
  heartbeat.log_bytes = logged;
  heartbeat.output_fingerprint = fingerprint;
  ASSERT_TRUE(lifecycle.heartbeat(task.id, heartbeat, start + std::chrono::seconds(at)).ok());
}

TEST_F(Lifecycle, ATaskThatNeitherWritesNorComputesIsReportedStalledAndLeftRunning) {
  make("command: x\nstall_timeout: 1m\nheartbeat_timeout: 0\ntasks: {worker: {}, tensorboard: {}}\noutput: /runs/x\n");
  start_all();
  const auto start = JobLifecycle::Clock::now();
  // Working: its log grows, then its output, then it computes (5 % of a core or more).
  beat(*lifecycle_, task("worker", 0), start, 5, 1.0, 100);
  beat(*lifecycle_, task("worker", 0), start, 10, 1.0, 200);
  beat(*lifecycle_, task("worker", 0), start, 15, 1.0, 200, 7);
  beat(*lifecycle_, task("worker", 0), start, 20, 1.3, 200, 7);
  // Then a thread's trickle of CPU (2 % of a core) and nothing written: no progress.
  for (int at = 25; at <= 80; at += 5) beat(*lifecycle_, task("worker", 0), start, at, 1.3 + 0.001 * (at - 20), 200, 7);
  lifecycle_->tick(start + std::chrono::seconds(79));
  EXPECT_TRUE(task("worker", 0).stalled.empty()) << "59 s after its last progress";
  lifecycle_->tick(start + std::chrono::seconds(81));
  EXPECT_EQ(task("worker", 0).stalled,
            "stalled: it wrote nothing (stdout, stderr, the job's output) and used under 5% of a core for 1m "
            "(stall_timeout)");
  EXPECT_TRUE(lifecycle_->take_containers_to_stop().empty()) << "on_stall: report leaves it running";
  // TensorBoard serves and waits, which is no stall.
  EXPECT_TRUE(task("tensorboard", 0).stalled.empty());
  const auto events = events_.after(0);
  EXPECT_EQ(std::count_if(events.begin(), events.end(), [](const JobEvent& event) { return event.kind == "stalled"; }),
            1);
  const auto status = job_status(*lifecycle_, "application_1_1", 1, 0);
  EXPECT_EQ(status.tasks[0].stalled, task("worker", 0).stalled);
  const auto read_back = parse_job_status(to_json(status).dump());
  ASSERT_TRUE(read_back.ok());
  EXPECT_EQ(read_back->tasks[0].stalled, task("worker", 0).stalled);
  // It writes again: no longer stalled.
  beat(*lifecycle_, task("worker", 0), start, 85, 1.36, 300, 7);
  EXPECT_TRUE(task("worker", 0).stalled.empty());
}

TEST_F(Lifecycle, OnStallRestartStopsTheTaskAndSpendsARestart) {
  make("command: x\nstall_timeout: 30s\non_stall: restart\ntasks: {worker: {max_restarts: 1}}\n");
  start_all();
  const auto start = JobLifecycle::Clock::now();
  const auto stalled = task("worker", 0).container;
  lifecycle_->tick(start + std::chrono::seconds(31));
  EXPECT_EQ(lifecycle_->take_containers_to_stop(), std::vector<std::string>{stalled});
  lifecycle_->tick(start + std::chrono::seconds(40));
  EXPECT_TRUE(lifecycle_->take_containers_to_stop().empty()) << "stopped once";
  lifecycle_->container_completed(stalled, -105, "Container killed by the ApplicationMaster.");
  EXPECT_EQ(task("worker", 0).phase, TaskPhase::requested);
  EXPECT_EQ(task("worker", 0).restarts, 1);
  EXPECT_EQ(task("worker", 0).earlier_attempts.at(0).exit_description,
            "stalled: it wrote nothing (stdout, stderr, the job's output) and used under 5% of a core for 30s "
            "(stall_timeout), so its container was stopped (on_stall: restart)");
  EXPECT_TRUE(task("worker", 0).stalled.empty());
}

TEST_F(Lifecycle, OnStallFailFailsTheTaskWithoutItsRestarts) {
  make("command: x\nstall_timeout: 30s\non_stall: fail\ntasks: {worker: {max_restarts: 3}}\n");
  start_all();
  const auto start = JobLifecycle::Clock::now();
  lifecycle_->tick(start + std::chrono::seconds(31));
  const auto stopped = lifecycle_->take_containers_to_stop();
  ASSERT_EQ(stopped.size(), 1u);
  lifecycle_->container_completed(stopped[0], -105, "");
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::failed);
  EXPECT_EQ(lifecycle_->diagnostics(),
            "worker:0 failed: stalled: it wrote nothing (stdout, stderr, the job's output) and used under 5% of a "
            "core for 30s (stall_timeout), so its container was stopped (on_stall: fail) (" +
                stopped[0] + " on node:1).");
}

TEST_F(Lifecycle, WithoutStallTimeoutNothingIsEverStalled) {
  make("command: x\nheartbeat_timeout: 0\ntasks: {worker: {}}\n");
  start_all();
  lifecycle_->tick(JobLifecycle::Clock::now() + std::chrono::hours(24));
  EXPECT_TRUE(task("worker", 0).stalled.empty());
  EXPECT_TRUE(lifecycle_->take_containers_to_stop().empty());
}

TEST_F(Lifecycle, OncePlacedATaskWaitingAgainIsNotBoundByTheAllocationTimeout) {
  make("command: x\nallocation_timeout: 1m\ntasks: {worker: {instances: 2, max_restarts: 1}}\n");
  const auto start = JobLifecycle::Clock::now();
  lifecycle_->tick(start);
  start_all();
  end("worker", 0, 1);  // restarted: it waits for a container again
  EXPECT_EQ(task("worker", 0).phase, TaskPhase::requested);
  lifecycle_->tick(start + std::chrono::hours(1));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
}

TEST_F(Lifecycle, AllocationTimeoutZeroWaitsForEver) {
  make("command: x\nallocation_timeout: 0\ntasks: {worker: {}}\n");
  const auto start = JobLifecycle::Clock::now();
  lifecycle_->tick(start);
  lifecycle_->tick(start + std::chrono::hours(24));
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::running);
}

// A later application master attempt: the earlier attempt's containers
// still run, and their executors register again with what they had.
class Reattach : public Lifecycle {
 protected:
  Reattachment standing(int restarts, std::uint64_t version) {
    Reattachment reattachment;
    reattachment.present = true;
    reattachment.restarts = restarts;
    reattachment.cluster_version = version;
    return reattachment;
  }
  void keep(std::vector<std::pair<std::string, std::string>> containers) {
    std::vector<AdoptableContainer> adoptable;
    for (const auto& [id, type] : containers) adoptable.push_back({id, type, "node:1", "node:2", ""});
    lifecycle_->expect_reattachment(std::move(adoptable), JobLifecycle::Clock::now() + std::chrono::seconds(60));
  }
};

TEST_F(Reattach, AdoptsRunningTasksWithoutStartingThemAgain) {
  make("command: x\ntasks: {chief: {}, worker: {instances: 2, max_restarts: 3}}\n");
  keep({{"c_chief", "chief"}, {"c_w0", "worker"}, {"c_w1", "worker"}});
  EXPECT_TRUE(lifecycle_->reattaching());
  for (const auto& [type, count] : lifecycle_->containers_wanted()) EXPECT_EQ(count, 0) << type;

  // Registered in whatever order the executors find the new attempt.
  ASSERT_TRUE(lifecycle_->register_task({"worker", 1}, {"h", 11}, "c_w0", standing(2, 4)).ok());
  ASSERT_TRUE(lifecycle_->register_task({"chief", 0}, {"h", 10}, "c_chief", standing(0, 4)).ok());
  ASSERT_TRUE(lifecycle_->register_task({"worker", 0}, {"h", 12}, "c_w1", standing(0, 4)).ok());
  EXPECT_FALSE(lifecycle_->reattaching());

  // Versions continue past what the tasks have seen, so they follow the next one.
  auto current = rendezvous_->current();
  ASSERT_TRUE(current);
  EXPECT_EQ(current->version, 5u);
  lifecycle_->cluster_published(current->version);
  EXPECT_EQ(task("worker", 1).phase, TaskPhase::running);
  EXPECT_EQ(task("worker", 1).container, "c_w0");
  EXPECT_EQ(task("worker", 1).restarts, 2);
  for (const auto& [type, count] : lifecycle_->containers_wanted()) EXPECT_EQ(count, 0) << type;

  end("chief", 0, 0);
  EXPECT_EQ(lifecycle_->outcome(), JobOutcome::succeeded);
}

TEST_F(Reattach, ContainersNotClaimedInTimeAreReleasedAndTheirTasksAskedFor) {
  make("command: x\ntasks: {worker: {instances: 2}}\n");
  keep({{"c_w0", "worker"}, {"c_w1", "worker"}});
  ASSERT_TRUE(lifecycle_->register_task({"worker", 0}, {"h", 11}, "c_w0", standing(0, 1)).ok());
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 0);

  lifecycle_->tick(JobLifecycle::Clock::now() + std::chrono::seconds(61));
  EXPECT_EQ(lifecycle_->take_containers_to_release(), std::vector<std::string>{"c_w1"});
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 1);
  // Too late: its container is being released.
  EXPECT_FALSE(lifecycle_->register_task({"worker", 1}, {"h", 12}, "c_w1", standing(0, 1)).ok());
}

TEST_F(Reattach, AContainerThatEndedBeforeReattachingFreesItsType) {
  make("command: x\ntasks: {worker: {instances: 2}}\n");
  keep({{"c_w0", "worker"}, {"c_w1", "worker"}});
  ASSERT_TRUE(lifecycle_->register_task({"worker", 1}, {"h", 11}, "c_w1", standing(0, 1)).ok());
  lifecycle_->container_completed("c_w0", -100, "lost");
  EXPECT_FALSE(lifecycle_->reattaching());
  EXPECT_EQ(lifecycle_->containers_wanted().at("worker"), 1);
  auto replacement = lifecycle_->assign_container("worker", "c_new", "n", "n", "");
  ASSERT_TRUE(replacement.has_value());
  EXPECT_EQ(*replacement, (TaskId{"worker", 0}));
}

TEST_F(Reattach, AContainerCannotBeClaimedForAnotherType) {
  make("command: x\ntasks: {chief: {}, worker: {}}\n");
  keep({{"c_w0", "worker"}});
  EXPECT_FALSE(lifecycle_->register_task({"chief", 0}, {"h", 11}, "c_w0", standing(0, 1)).ok());
  // A registration that does not say it reattaches is an ordinary one, refused here.
  EXPECT_FALSE(lifecycle_->register_task({"worker", 0}, {"h", 11}, "c_w0").ok());
  EXPECT_TRUE(lifecycle_->reattaching());
}

}  // namespace
}  // namespace spindle

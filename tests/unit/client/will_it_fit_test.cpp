#include "spindle/client/will_it_fit.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "spindle/client/queue_limits.h"
#include "spindle/core/spec_parser.h"

namespace spindle::client {
namespace {

yarn::NodeInfo node(const std::string& id, std::int64_t memory, int vcores, std::int64_t gpus,
                    std::vector<std::string> labels = {}) {
  yarn::NodeInfo info;
  info.id = id;
  info.state = "RUNNING";
  info.capability.memory_mib = memory;
  info.capability.vcores = vcores;
  if (gpus > 0) info.capability.others["yarn.io/gpu"] = gpus;
  info.labels = std::move(labels);
  return info;
}

void use(yarn::NodeInfo& info, std::int64_t memory, int vcores, std::int64_t gpus = 0) {
  info.used.memory_mib = memory;
  info.used.vcores = vcores;
  if (gpus > 0) info.used.others["yarn.io/gpu"] = gpus;
}

yarn::QueueInfo leaf(const std::string& name, std::vector<std::string> labels = {}) {
  yarn::QueueInfo queue;
  queue.name = name;
  queue.path = "root." + name;
  queue.state = "RUNNING";
  queue.capacity = 0.5f;
  queue.maximum_capacity = 1.0f;
  queue.accessible_labels = std::move(labels);
  return queue;
}

// Two unlabelled nodes of 8 GiB and 4 vcores; two `gpu` nodes of 16 GiB, 8 vcores, 4 GPUs.
ClusterState cluster() {
  ClusterState state;
  state.nodes = {node("cpu-a:45454", 8192, 4, 0), node("cpu-b:45454", 8192, 4, 0),
                 node("gpu-a:45454", 16384, 8, 4, {"gpu"}), node("gpu-b:45454", 16384, 8, 4, {"gpu"})};
  state.root.name = "root";
  state.root.path = "root";
  state.root.state = "RUNNING";
  state.root.children = {leaf("default"), leaf("ml-gpu", {"gpu"})};
  return state;
}

JobSpec spec(const std::string& yaml) {
  SpecParseOptions options;
  options.check_files = false;
  auto parsed = parse_job_spec(yaml, options);
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : format_diagnostics(parsed.error()));
  return parsed.ok() ? *parsed : JobSpec{};
}

const TaskTypeFit& type(const JobFit& fit, const std::string& name) {
  for (const auto& entry : fit.types) {
    if (entry.type == name) return entry;
  }
  static const TaskTypeFit none;
  ADD_FAILURE() << "no line for " << name;
  return none;
}

TEST(WillItFit, AJobWithRoomFitsNowAndSaysWhere) {
  const auto fit =
      will_it_fit(spec("name: a\ntasks: {worker: {instances: 2, memory: 2 GiB, command: x}}\n"), cluster());
  EXPECT_TRUE(fit.fits_now());
  ASSERT_EQ(fit.types.size(), 2u);
  EXPECT_EQ(fit.types[0].type, "application master");
  EXPECT_EQ(type(fit, "worker").sentence,
            "worker: fits now (2 containers of 2 GiB, 1 vcore on the nodes without a label)");
}

TEST(WillItFit, GpusTakenByRunningWorkMakeTheJobWaitSayingHowManyAreFree) {
  auto state = cluster();
  use(state.nodes[2], 8192, 4, 4);
  use(state.nodes[3], 4096, 2, 2);
  state.root.children[1].apps_running = 3;
  state.root.children[1].apps_pending = 1;
  const auto fit = will_it_fit(
      spec("name: a\nqueue: ml-gpu\ntasks: {worker: {instances: 4, gpus: 1, node_label: gpu, command: x}}\n"), state);
  EXPECT_FALSE(fit.fits_now());
  EXPECT_TRUE(fit.can_ever_fit());
  const auto& worker = type(fit, "worker");
  EXPECT_EQ(worker.verdict, TaskTypeFit::Verdict::waits);
  EXPECT_EQ(worker.placeable_now, 2);
  EXPECT_EQ(worker.sentence,
            "worker: waits: 2 of 4 containers fit now; label gpu has 0 of its 8 GPUs free (8 in use), and each "
            "worker container needs 1; queue ml-gpu runs 3 applications and has 1 waiting");
}

TEST(WillItFit, AContainerLargerThanEveryNodeNeverFits) {
  const auto fit = will_it_fit(spec("name: a\ntasks: {worker: {memory: 64 GiB, command: x}}\n"), cluster());
  EXPECT_FALSE(fit.can_ever_fit());
  EXPECT_EQ(type(fit, "worker").sentence,
            "worker: no node has room for one container of 64 GiB, 1 vcore; the largest offer 8 GiB, 4 vcores");
}

TEST(WillItFit, GpusWithoutALabelWhereEveryGpuNodeIsLabelledNeverFit) {
  const auto fit = will_it_fit(spec("name: a\nqueue: ml-gpu\ntasks: {chief: {gpus: 1, command: x}}\n"), cluster());
  EXPECT_EQ(type(fit, "chief").verdict, TaskTypeFit::Verdict::never);
  EXPECT_EQ(type(fit, "chief").sentence,
            "chief: asks for 1 GPU without a node label, but every node with GPUs carries a label (gpu), where "
            "containers without one never go; set node_label: gpu");
}

TEST(WillItFit, ALabelTheQueueCannotUseNeverFits) {
  const auto fit = will_it_fit(spec("name: a\ntasks: {chief: {node_label: gpu, command: x}}\n"), cluster());
  EXPECT_EQ(type(fit, "chief").sentence, "chief: queue default cannot use node label gpu (it may use: none)");
}

TEST(WillItFit, AnUnknownOrStoppedQueueIsNamed) {
  auto fit = will_it_fit(spec("name: a\nqueue: nightly\ntasks: {chief: {command: x}}\n"), cluster());
  EXPECT_EQ(type(fit, "chief").sentence,
            "chief: queue \"nightly\" does not exist on this cluster; its leaf queues are default, ml-gpu");
  auto state = cluster();
  state.root.children[0].state = "STOPPED";
  fit = will_it_fit(spec("name: a\ntasks: {chief: {command: x}}\n"), state);
  EXPECT_EQ(type(fit, "chief").sentence, "chief: queue default is STOPPED and takes no new applications");
}

TEST(WillItFit, NoRunningNodeWithTheLabel) {
  auto state = cluster();
  state.nodes[2].state = "LOST";
  state.nodes[3].state = "UNHEALTHY";
  const auto fit = will_it_fit(spec("name: a\nqueue: ml-gpu\ntasks: {chief: {node_label: gpu, command: x}}\n"), state);
  EXPECT_EQ(type(fit, "chief").sentence, "chief: no running node carries label gpu");
}

TEST(WillItFit, MemoryShortSaysHowMuchIsFree) {
  auto state = cluster();
  use(state.nodes[0], 7168, 1);
  use(state.nodes[1], 6144, 1);
  const auto fit = will_it_fit(spec("name: a\ntasks: {worker: {instances: 2, memory: 2 GiB, command: x}}\n"), state);
  // The master's 256 MiB goes first, onto the node with the most room.
  EXPECT_EQ(type(fit, "worker").sentence,
            "worker: waits: 0 of 2 containers fit now; the nodes without a label have 2816 MiB of 16 GiB free, and "
            "each worker container needs 2 GiB");
}

TEST(WillItFit, RoomSpreadOverNodesIsNotRoomForAContainer) {
  auto state = cluster();
  use(state.nodes[0], 5120, 1);
  use(state.nodes[1], 5120, 1);
  const auto fit = will_it_fit(spec("name: a\napplication_master: {memory: 128 MiB}\ntasks: {worker: {memory: "
                                    "4 GiB, command: x}}\n"),
                               state);
  EXPECT_EQ(type(fit, "worker").sentence,
            "worker: waits: 0 of 1 container fit now; enough is free on the nodes without a label in all, but no "
            "single node has room for a whole container of 4 GiB, 1 vcore");
}

TEST(WillItFit, AQueueAtItsMaximumMakesEverythingWait) {
  auto state = cluster();
  state.root.children[0].current_capacity = 2.0f;  // 2 x its 50 % capacity: all of its parent
  const auto fit = will_it_fit(spec("name: a\ntasks: {worker: {command: x}}\n"), state);
  ASSERT_EQ(fit.warnings.size(), 1u);
  EXPECT_EQ(fit.warnings[0],
            "queue default uses all it may (100% of its parent): new containers wait until its "
            "running applications release some");
  EXPECT_EQ(type(fit, "worker").verdict, TaskTypeFit::Verdict::waits);
  EXPECT_EQ(type(fit, "worker").sentence, "worker: waits: the nodes have room, but queue default uses all it may");
}

TEST(WillItFit, TypesShareTheRoomInTheSpecsOrder) {
  auto state = cluster();
  use(state.nodes[0], 4096, 1);
  use(state.nodes[1], 4096, 1);
  // 4 GiB and 3 vcores free on each: the master and one worker share one node, the chief takes the other.
  const auto fit = will_it_fit(spec("name: a\napplication_master: {memory: 128 MiB}\ntasks: {chief: {memory: 3 "
                                    "GiB, vcores: 2, command: x}, worker: {instances: 2, memory: 3 GiB, vcores: 2, "
                                    "command: x}}\n"),
                               state);
  EXPECT_EQ(type(fit, "chief").verdict, TaskTypeFit::Verdict::fits_now);
  EXPECT_EQ(type(fit, "worker").placeable_now, 1);
  EXPECT_EQ(type(fit, "worker").verdict, TaskTypeFit::Verdict::waits);
}

TEST(WillItFit, GpusPastEveryLabelledNodeNeverFit) {
  const auto fit =
      will_it_fit(spec("name: a\nqueue: ml-gpu\ntasks: {worker: {gpus: 5, node_label: gpu, command: x}}\n"), cluster());
  EXPECT_FALSE(fit.can_ever_fit());
  EXPECT_EQ(first_never_sentence(fit),
            "worker: no node with label gpu has room for one container of 1 GiB, 1 vcore, 5 GPUs; the largest offer "
            "16 GiB, 8 vcores, 4 GPUs");
}

// Each container fits a node, but not all of them at once in what the queue may ever hold: the
// gang would hold what it got and wait for ever.
TEST(WillItFit, AGangLargerThanTheQueueMayEverHoldNeverFits) {
  auto state = cluster();
  state.root.children[0].maximum_capacity = 0.5f;  // half of the 16 GiB without a label
  const auto job = spec(
      "name: a\napplication_master: {memory: 1 GiB}\ntasks: {worker: {instances: 4, memory: 2 GiB, "
      "command: x}}\n");
  const auto fit = will_it_fit(job, state);
  EXPECT_FALSE(fit.can_ever_fit());
  EXPECT_EQ(first_never_sentence(fit),
            "the whole job: its 5 containers on the nodes without a label need 9 GiB, 5 vcores at once, but queue "
            "default may never hold more than 8 GiB, 4 vcores there (50% of what those nodes have); ask for fewer "
            "or smaller containers, or use a queue that may hold more");
  // Three workers fit in 8 GiB at once.
  const auto smaller = will_it_fit(
      spec("name: a\napplication_master: {memory: 1 GiB}\ntasks: {worker: {instances: 3, memory: 2 GiB, command: "
           "x}}\n"),
      state);
  EXPECT_TRUE(smaller.can_ever_fit()) << first_never_sentence(smaller);
}

TEST(WillItFit, TheSchedulersLimitsBindOneUserAndEachContainer) {
  auto state = cluster();
  QueueLimits limits;
  limits.path = "root.default";
  limits.guaranteed_share[""] = 0.25;
  limits.maximum_share[""] = 1.0;
  limits.user_limit_factor = 2;  // one user: 50 %, under the queue's 100 %
  limits.largest_container = yarn::Resources{4096, 4, {}};
  limits.masters_limit = yarn::Resources{2048, 4, {}};
  state.limits["default"] = limits;
  auto fit = will_it_fit(
      spec("name: a\napplication_master: {memory: 1 GiB}\ntasks: {worker: {instances: 4, memory: 2 GiB, command: "
           "x}}\n"),
      state);
  EXPECT_EQ(first_never_sentence(fit),
            "the whole job: its 5 containers on the nodes without a label need 9 GiB, 5 vcores at once, but one user "
            "of queue default may never hold more than 8 GiB, 4 vcores there (50% of what those nodes have); ask for "
            "fewer or smaller containers, or use a queue that may hold more");
  fit = will_it_fit(spec("name: a\ntasks: {worker: {memory: 6 GiB, command: x}}\n"), state);
  EXPECT_EQ(first_never_sentence(fit),
            "worker: asks for containers of 6 GiB, 1 vcore, more memory than queue default grants one container (4 "
            "GiB, 4 vcores); ask for at most that");
  fit = will_it_fit(spec("name: a\napplication_master: {memory: 3 GiB}\ntasks: {worker: {command: x}}\n"), state);
  EXPECT_EQ(first_never_sentence(fit),
            "application master: needs 3 GiB, 1 vcore, more than queue default lets application masters hold (2 GiB, "
            "4 vcores); make application_master smaller");
}

TEST(QueueLimits, ReadFromTheCapacitySchedulersAnswer) {
  // The shape Hadoop 3.3 to 3.5 answer /ws/v1/cluster/scheduler with, cut to what is read; the
  // parent's one child written as Jackson writes a list of one.
  const auto answer = nlohmann::json::parse(R"({"scheduler": {"schedulerInfo": {
    "type": "capacityScheduler", "queueName": "root",
    "queues": {"queue": [
      {"queueName": "team", "queuePath": "root.team", "queues": {"queue":
        {"type": "capacitySchedulerLeafQueueInfo", "queueName": "ml", "queuePath": "root.team.ml",
         "absoluteCapacity": 20.0, "absoluteMaxCapacity": 60.0, "userLimitFactor": 2.0,
         "capacities": {"queueCapacitiesByPartition": [
           {"partitionName": "", "absoluteCapacity": 20.0, "absoluteMaxCapacity": 60.0},
           {"partitionName": "gpu", "absoluteCapacity": 100.0, "absoluteMaxCapacity": 100.0}]},
         "maximumAllocation": {"memory": 8192, "vCores": 16, "resourceInformations": {"resourceInformation": [
           {"name": "memory-mb", "value": 8192}, {"name": "vcores", "value": 16},
           {"name": "yarn.io/gpu", "value": 2}]}},
         "AMResourceLimit": {"memory": 6144, "vCores": 3}}}},
      {"type": "capacitySchedulerLeafQueueInfo", "queueName": "default", "queuePath": "root.default",
       "absoluteCapacity": 80.0, "absoluteMaxCapacity": 100.0, "userLimitFactor": -1}]}}}})");
  auto limits = queue_limits_from(answer);
  ASSERT_TRUE(limits.ok()) << limits.error().message;
  ASSERT_TRUE(limits->count("ml") && limits->count("root.team.ml") && limits->count("default"));
  const auto& ml = limits->at("ml");
  EXPECT_DOUBLE_EQ(ml.share_one_user_may_hold(""), 0.4);  // 20 % twice, under 60 %
  EXPECT_DOUBLE_EQ(ml.share_one_user_may_hold("gpu"), 1.0);
  ASSERT_TRUE(ml.largest_container.has_value());
  EXPECT_EQ(ml.largest_container->memory_mib, 8192);
  EXPECT_EQ(ml.largest_container->others.at("yarn.io/gpu"), 2);
  EXPECT_EQ(ml.masters_limit->memory_mib, 6144);
  EXPECT_DOUBLE_EQ(limits->at("default").share_one_user_may_hold(""), 1.0);  // no user bound
  EXPECT_FALSE(limits->count("team"));
}

TEST(QueueLimits, AnotherSchedulerOrAnOddAnswerIsSaid) {
  auto fair =
      queue_limits_from(nlohmann::json::parse(R"({"scheduler": {"schedulerInfo": {"type": "fairScheduler"}}})"));
  ASSERT_FALSE(fair.ok());
  EXPECT_EQ(fair.error().message,
            "the cluster's scheduler is fairScheduler, whose queue limits are not read; only the CapacityScheduler's "
            "are");
  for (const char* odd : {R"([])", R"({"scheduler": 3})", R"({"scheduler": {"schedulerInfo": {"type":
       "capacityScheduler", "queues": {"queue": [1, "x", {"queueName": 5}]}}}})"}) {
    EXPECT_FALSE(queue_limits_from(nlohmann::json::parse(odd)).ok()) << odd;
  }
}

}  // namespace
}  // namespace spindle::client

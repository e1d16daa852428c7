#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include "spindle/core/quantities.h"
#include "spindle/core/spec_parser.h"
#include "spindle/core/spec_writer.h"
#include "spindle/core/sweep_spec.h"

namespace spindle {
namespace {

SpecParseOptions no_file_checks() {
  SpecParseOptions options;
  options.check_files = false;
  options.base_dir = "/jobs";
  return options;
}

JobSpec parse_ok(const std::string& text, const SpecParseOptions& options = no_file_checks()) {
  auto result = parse_job_spec(text, options);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : format_diagnostics(result.error()));
  return result.ok() ? *result : JobSpec{};
}

constexpr const char* design_spec = R"(name: wine-quality
queue: ml-gpu
framework: tensorflow
files: {train.py: ./train.py}
archives: {venv: ./venv.tar.gz}
env: {TF_CPP_MIN_LOG_LEVEL: "1"}
output: hdfs:///user/me/runs/wine
tasks:
  chief:       {memory: 2 GiB, vcores: 4, gpus: 1, node_label: gpu, command: python train.py}
  worker:      {instances: 2, memory: 2 GiB, vcores: 4, command: python train.py, max_restarts: 2}
  ps:          {memory: 2 GiB, vcores: 2, command: python train.py}
  evaluator:   {memory: 1 GiB, vcores: 1, command: python train.py}
  tensorboard: {memory: 1 GiB, vcores: 1}
)";

TEST(SpecParser, ReadsTheDesignExample) {
  const JobSpec spec = parse_ok(design_spec);
  EXPECT_EQ(spec.name, "wine-quality");
  EXPECT_EQ(spec.queue, "ml-gpu");
  ASSERT_EQ(spec.tasks.size(), 5u);
  const TaskSpec* chief = spec.find_task("chief");
  ASSERT_NE(chief, nullptr);
  EXPECT_EQ(chief->memory_mib, 2048u);
  EXPECT_EQ(chief->gpus, 1);
  EXPECT_EQ(chief->node_label, "gpu");
  EXPECT_EQ(spec.find_task("worker")->instances, 2);
  EXPECT_EQ(spec.find_task("worker")->max_restarts, 2);
  EXPECT_EQ(spec.find_task("ps")->role, TaskRole::service);
  EXPECT_EQ(spec.find_task("evaluator")->fails_job, false);
  EXPECT_EQ(spec.find_task("tensorboard")->command, "");
  ASSERT_EQ(spec.files.size(), 1u);
  EXPECT_EQ(spec.files[0].source, "/jobs/train.py");
  EXPECT_EQ(spec.archives[0].source, "/jobs/venv.tar.gz");
  EXPECT_EQ(spec.env.at("TF_CPP_MIN_LOG_LEVEL"), "1");
  EXPECT_EQ(spec.total_instances(), 6);
}

TEST(SpecParser, FillsDefaults) {
  const JobSpec spec = parse_ok("tasks: {worker: {command: python x.py}}\n");
  EXPECT_EQ(spec.name, "spindle-job");
  EXPECT_EQ(spec.queue, "default");
  EXPECT_EQ(spec.max_attempts, 1);
  EXPECT_EQ(spec.framework, Framework::tensorflow);
  const TaskSpec& worker = spec.tasks.at(0);
  EXPECT_EQ(worker.instances, 1);
  EXPECT_EQ(worker.memory_mib, 1024u);
  EXPECT_EQ(worker.vcores, 1);
  EXPECT_EQ(worker.role, TaskRole::tracked);
  EXPECT_TRUE(worker.fails_job);
}

TEST(SpecParser, NameDefaultsToFileStem) {
  SpecParseOptions options = no_file_checks();
  options.source_name = "/specs/nightly-run.yaml";
  EXPECT_EQ(parse_ok("tasks: {worker: {command: x}}\n", options).name, "nightly-run");
}

TEST(SpecParser, OrdersTasksCanonically) {
  const JobSpec spec = parse_ok(
      "output: /out\ntasks:\n  reader: {command: r}\n  tensorboard: {}\n  ps: {command: p}\n  worker: {command: w}\n"
      "  chief: {command: c}\n");
  std::vector<std::string> order;
  for (const auto& task : spec.tasks) order.push_back(task.type);
  EXPECT_EQ(order, (std::vector<std::string>{"chief", "worker", "ps", "tensorboard", "reader"}));
}

TEST(SpecParser, TopLevelCommandAppliesToTasksWithoutOne) {
  const JobSpec spec = parse_ok(
      "output: /o\ncommand: python train.py\ntasks:\n  worker: {}\n  ps:\n  evaluator: {command: python "
      "eval.py}\n  tensorboard:\n");
  EXPECT_EQ(spec.find_task("worker")->command, "python train.py");
  EXPECT_EQ(spec.find_task("ps")->command, "python train.py");
  EXPECT_EQ(spec.find_task("evaluator")->command, "python eval.py");
  EXPECT_EQ(spec.find_task("tensorboard")->command, "");
}

TEST(SpecParser, CommandListIsShellQuoted) {
  const JobSpec spec = parse_ok("tasks: {worker: {command: [python, train.py, --name, \"it's here\"]}}\n");
  EXPECT_EQ(spec.tasks[0].command, "python train.py --name 'it'\\''s here'");
}

TEST(SpecParser, RoleAndFailsJobOverrideDefaults) {
  const JobSpec spec = parse_ok(
      "tasks:\n  worker: {command: w}\n  ps: {command: p, role: tracked, fails_job: false}\n"
      "  evaluator: {command: e, fails_job: yes}\n");
  EXPECT_EQ(spec.find_task("ps")->role, TaskRole::tracked);
  EXPECT_FALSE(spec.find_task("ps")->fails_job);
  EXPECT_TRUE(spec.find_task("evaluator")->fails_job);
}

TEST(SpecParser, FileListsTakeTheirNamesFromTheSource) {
  const JobSpec spec = parse_ok(
      "files: [lib/helpers.py, hdfs:///data/x.csv]\narchives: [envs/venv.tar.gz, hdfs:///e/py.zip]\n"
      "tasks: {worker: {command: x}}\n");
  ASSERT_EQ(spec.files.size(), 2u);
  EXPECT_EQ(spec.files[0], (ShippedFile{"helpers.py", "/jobs/lib/helpers.py"}));
  EXPECT_EQ(spec.files[1], (ShippedFile{"x.csv", "hdfs:///data/x.csv"}));
  EXPECT_EQ(spec.archives[0], (ShippedFile{"py", "hdfs:///e/py.zip"}));
  EXPECT_EQ(spec.archives[1], (ShippedFile{"venv", "/jobs/envs/venv.tar.gz"}));
}

TEST(SpecParser, ScriptIsShippedAndNamed) {
  const JobSpec spec = parse_ok("script: src/mnist.py\ntasks: {worker: {command: \"python ${DTF_TASK_SCRIPT}\"}}\n");
  EXPECT_EQ(spec.script, "mnist.py");
  ASSERT_EQ(spec.files.size(), 1u);
  EXPECT_EQ(spec.files[0].source, "/jobs/src/mnist.py");
}

TEST(SpecParser, AcceptsJson) {
  const JobSpec spec = parse_ok(R"({"name": "j", "timeout": "2h", "tags": ["a", "b"],
    "tasks": {"worker": {"instances": 3, "memory": "1.5 GiB", "command": "python t.py"}}})");
  EXPECT_EQ(spec.timeout.count(), 7200);
  EXPECT_EQ(spec.tags, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(spec.tasks[0].instances, 3);
  EXPECT_EQ(spec.tasks[0].memory_mib, 1536u);
}

TEST(SpecParser, NormalizedYamlRoundTrips) {
  const JobSpec spec = parse_ok(design_spec);
  const std::string yaml = to_yaml(spec);
  const JobSpec again = parse_ok(yaml);
  EXPECT_EQ(again, spec) << yaml;
}

TEST(SpecParser, StallHandlingRoundTrips) {
  JobSpec spec = parse_ok(design_spec);
  EXPECT_EQ(spec.stall_timeout.count(), 0) << "off unless asked for";
  EXPECT_EQ(spec.on_stall, JobSpec::OnStall::report);
  spec.stall_timeout = std::chrono::minutes(20);
  spec.on_stall = JobSpec::OnStall::restart;
  EXPECT_EQ(parse_ok(to_yaml(spec)), spec);
  EXPECT_EQ(parse_ok(to_json(spec).dump()), spec);
}

TEST(SpecParser, NormalizedJsonIsAValidSpecToo) {
  JobSpec spec = parse_ok(design_spec);
  spec.timeout = std::chrono::seconds(5400);
  spec.tags = {"nightly"};
  spec.script = "train.py";
  const std::string json = to_json(spec).dump();
  const JobSpec again = parse_ok(json);
  EXPECT_EQ(again, spec) << json;
}

TEST(SpecParser, JsonOutputHasMemoryInMiB) {
  const auto json = to_json(parse_ok(design_spec));
  EXPECT_EQ(json["tasks"]["chief"]["memory"], 2048);
  EXPECT_EQ(json["application_master"]["memory"], 256);
}

TEST(SpecParser, EveryExampleValidates) {
  int examples = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(SPINDLE_SOURCE_DIR) /
                                                                         "resources/examples")) {
    const auto extension = entry.path().extension();
    if (extension != ".yaml" && extension != ".json") continue;
    ++examples;
    // A sweep's example is a job spec with a search: both halves must hold.
    auto text = read_spec_file(entry.path());
    ASSERT_TRUE(text.ok());
    if (has_sweep_section(*text)) {
      auto sweep = load_sweep_spec(entry.path(), true);
      EXPECT_TRUE(sweep.ok()) << entry.path() << ":\n" << (sweep.ok() ? "" : format_diagnostics(sweep.error()));
      continue;
    }
    auto spec = load_job_spec(entry.path());
    EXPECT_TRUE(spec.ok()) << entry.path() << ":\n" << (spec.ok() ? "" : format_diagnostics(spec.error()));
  }
  EXPECT_GE(examples, 4);
}

}  // namespace
}  // namespace spindle

// Every way a spec can be wrong gets one diagnostic naming the field, its
// place and what would be right.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "spindle/core/spec_parser.h"
#include "spindle/core/spec_writer.h"

namespace spindle {
namespace {

struct BadSpec {
  const char* name;
  const char* text;
  const char* field;    // expected field of the (first matching) diagnostic
  const char* message;  // fragment its message must contain
  int line = 0;         // expected line, 0 to skip
  int column = 0;       // expected column, 0 to skip
};

void PrintTo(const BadSpec& bad, std::ostream* out) {
  *out << bad.name;
}

class SpecErrorsTest : public ::testing::TestWithParam<BadSpec> {
 protected:
  static void SetUpTestSuite() {
    // ctest runs test cases as parallel processes: each needs its own directory.
    base_ = std::filesystem::temp_directory_path() / ("spindle-spec-errors-" + std::to_string(::getpid()));
    std::filesystem::remove_all(base_);
    std::filesystem::create_directories(base_ / "folder.tar.gz");
    std::ofstream(base_ / "train.py") << "print('hi')\n";
    std::ofstream(base_ / "other.py") << "print('other')\n";
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(base_); }
  static std::filesystem::path base_;
};

std::filesystem::path SpecErrorsTest::base_;

TEST_P(SpecErrorsTest, ReportsFieldPlaceAndRemedy) {
  const BadSpec& bad = GetParam();
  SpecParseOptions options;
  options.source_name = "job.yaml";
  options.base_dir = base_;
  auto result = parse_job_spec(bad.text, options);
  ASSERT_FALSE(result.ok()) << "accepted:\n" << bad.text;
  const Diagnostics& diagnostics = result.error();
  const Diagnostic* match = nullptr;
  for (const auto& diagnostic : diagnostics) {
    if (diagnostic.field == bad.field && diagnostic.message.find(bad.message) != std::string::npos) {
      match = &diagnostic;
      break;
    }
  }
  ASSERT_NE(match, nullptr) << "expected " << bad.field << ": ..." << bad.message << "...\ngot:\n"
                            << format_diagnostics(diagnostics);
  EXPECT_EQ(match->file, "job.yaml");
  if (bad.line > 0) {
    EXPECT_EQ(match->line, bad.line) << match->to_string();
  }
  if (bad.column > 0) {
    EXPECT_EQ(match->column, bad.column) << match->to_string();
  }
}

const BadSpec bad_specs[] = {
    {"yaml_syntax", "tasks:\n  worker: [1\n", "", "is not valid YAML or JSON", 3},
    {"json_syntax", "{\"tasks\": {\"worker\": }", "", "is not valid YAML or JSON", 1},
    {"root_is_list", "- worker\n", "", "must be a mapping with at least a `tasks` key", 1, 1},
    {"root_is_scalar", "hello\n", "", "must be a mapping"},
    {"empty_document", "", "", "must be a mapping"},
    {"tasks_missing", "name: job\n", "tasks", "is missing"},
    {"tasks_empty", "tasks: {}\n", "tasks", "has no task types", 1},
    {"tasks_is_list", "tasks: [worker]\n", "tasks", "must map task types to their settings", 1, 8},
    {"unknown_key_suggestion", "nmae: job\ntasks: {worker: {command: x}}\n", "nmae", "did you mean \"name\"?", 1, 1},
    {"unknown_key_list", "colour: red\ntasks: {worker: {command: x}}\n", "colour", "allowed keys are name, queue"},
    {"unknown_task_key", "tasks:\n  worker:\n    instnces: 2\n    command: x\n", "tasks.worker.instnces",
     "did you mean \"instances\"?", 3, 5},
    {"duplicate_top_key", "name: a\nname: b\ntasks: {worker: {command: x}}\n", "name", "appears twice", 2, 1},
    {"duplicate_task_type", "tasks:\n  worker: {command: x}\n  worker: {command: y}\n", "tasks.worker", "appears twice",
     3, 3},
    {"json_duplicate_key", "{\"tasks\": {\"worker\": {\"command\": \"x\", \"command\": \"y\"}}}",
     "tasks.worker.command", "appears twice"},
    {"instances_zero", "tasks: {worker: {instances: 0, command: x}}\n", "tasks.worker.instances", "is 0", 1, 29},
    {"instances_negative", "tasks: {worker: {instances: -2, command: x}}\n", "tasks.worker.instances", "is negative"},
    {"instances_quoted", "tasks: {worker: {instances: \"2\", command: x}}\n", "tasks.worker.instances",
     "is the text \"2\""},
    {"instances_fraction", "tasks: {worker: {instances: 1.5, command: x}}\n", "tasks.worker.instances",
     "is not a whole number"},
    {"instances_list", "tasks: {worker: {instances: [1], command: x}}\n", "tasks.worker.instances", "not a list"},
    {"memory_zero", "tasks: {worker: {memory: 0, command: x}}\n", "tasks.worker.memory", "is zero"},
    {"memory_negative", "tasks: {worker: {memory: -512, command: x}}\n", "tasks.worker.memory", "is negative"},
    {"memory_unknown_unit", "tasks: {worker: {memory: 2 gigs, command: x}}\n", "tasks.worker.memory",
     "unknown unit \"gigs\""},
    {"memory_decimal_unit", "tasks: {worker: {memory: 2GB, command: x}}\n", "tasks.worker.memory",
     "write 2 GiB (binary) instead"},
    {"memory_bare_fraction", "tasks: {worker: {memory: 1.5, command: x}}\n", "tasks.worker.memory",
     "has a fraction but no unit"},
    {"memory_mapping", "tasks: {worker: {memory: {size: 2}, command: x}}\n", "tasks.worker.memory",
     "must be a memory size"},
    {"memory_empty", "tasks:\n  worker:\n    memory:\n    command: x\n", "tasks.worker.memory", "not nothing", 3},
    {"vcores_zero", "tasks: {worker: {vcores: 0, command: x}}\n", "tasks.worker.vcores", "out of range"},
    {"gpus_fraction", "tasks: {worker: {gpus: 0.5, command: x}}\n", "tasks.worker.gpus", "is not a whole number"},
    {"gpus_negative", "tasks: {worker: {gpus: -1, command: x}}\n", "tasks.worker.gpus", "out of range"},
    {"gpus_text", "tasks: {worker: {gpus: \"one\", command: x}}\n", "tasks.worker.gpus", "is the text \"one\""},
    {"two_chiefs", "tasks:\n  chief: {instances: 2, command: x}\n", "tasks.chief.instances", "at most one chief", 2,
     11},
    {"two_evaluators", "tasks:\n  worker: {command: x}\n  evaluator: {instances: 2, command: x}\n",
     "tasks.evaluator.instances", "at most one evaluator", 3},
    {"tensorboard_without_output", "tasks:\n  worker: {command: x}\n  tensorboard: {}\n", "tasks.tensorboard",
     "needs the job's `output` directory", 3, 3},
    {"worker_without_command", "tasks:\n  worker: {instances: 2}\n", "tasks.worker", "has no command", 2, 3},
    {"ps_without_command", "tasks:\n  worker: {command: x}\n  ps:\n", "tasks.ps", "has no command", 3},
    {"max_restarts_negative", "tasks: {worker: {max_restarts: -1, command: x}}\n", "tasks.worker.max_restarts",
     "out of range"},
    {"role_unknown", "tasks: {worker: {role: leader, command: x}}\n", "tasks.worker.role", "is not a role"},
    {"role_typo", "tasks: {worker: {role: servce, command: x}}\n", "tasks.worker.role", "did you mean \"service\"?"},
    {"fails_job_not_bool", "tasks: {worker: {fails_job: maybe, command: x}}\n", "tasks.worker.fails_job",
     "is not true or false"},
    {"framework_unknown", "framework: caffe\ntasks: {worker: {command: x}}\n", "framework",
     "use tensorflow, pytorch or generic", 1, 12},
    {"framework_typo", "framework: pytorh\ntasks: {worker: {command: x}}\n", "framework", "did you mean \"pytorch\"?"},
    {"file_missing", "files: {data.csv: ./missing.csv}\ntasks: {worker: {command: x}}\n", "files.data.csv",
     "missing.csv\" does not exist", 1, 19},
    {"file_list_missing", "files: [./train.py, ./gone.py]\ntasks: {worker: {command: x}}\n", "files[1]",
     "gone.py\" does not exist"},
    {"script_missing", "script: ./nope.py\ntasks: {worker: {command: x}}\n", "script", "nope.py\" does not exist"},
    {"archive_extension", "archives: {venv: ./train.py}\ntasks: {worker: {command: x}}\n", "archives.venv",
     "is not an archive YARN can unpack"},
    {"archive_is_directory", "archives: {venv: ./folder.tar.gz}\ntasks: {worker: {command: x}}\n", "archives.venv",
     "is not a regular file"},
    {"remote_archive_extension", "archives: {venv: hdfs:///envs/venv.txt}\ntasks: {worker: {command: x}}\n",
     "archives.venv", "is not an archive YARN can unpack"},
    {"file_name_with_slash", "files: {\"lib/a.py\": ./train.py}\ntasks: {worker: {command: x}}\n", "files.lib/a.py",
     "contains a slash"},
    {"shipped_name_twice", "script: ./train.py\nfiles: {train.py: ./other.py}\ntasks: {worker: {command: x}}\n",
     "files.train.py", "ships a second file named \"train.py\""},
    {"files_scalar", "files: ./train.py\ntasks: {worker: {command: x}}\n", "files", "must map names in the container"},
    {"env_reserved", "env: {TF_CONFIG: \"{}\"}\ntasks: {worker: {command: x}}\n", "env.TF_CONFIG",
     "cannot be overridden", 1, 7},
    {"env_reserved_prefix", "tasks: {worker: {command: x, env: {DTF_TASK_INDEX: \"3\"}}}\n",
     "tasks.worker.env.DTF_TASK_INDEX", "cannot be overridden"},
    {"env_bad_name", "env: {1ST: a}\ntasks: {worker: {command: x}}\n", "env.1ST", "not a valid variable name"},
    {"env_value_mapping", "env: {A: {b: c}}\ntasks: {worker: {command: x}}\n", "env.A", "must be a text value"},
    {"env_not_mapping", "tasks: {worker: {command: x, env: [A=1]}}\n", "tasks.worker.env", "must be a mapping"},
    {"priority_text", "priority: high\ntasks: {worker: {command: x}}\n", "priority", "is not a whole number"},
    {"max_attempts_zero", "max_attempts: 0\ntasks: {worker: {command: x}}\n", "max_attempts", "out of range"},
    {"timeout_words", "timeout: soon\ntasks: {worker: {command: x}}\n", "timeout", "is not a duration"},
    {"timeout_negative", "timeout: -5m\ntasks: {worker: {command: x}}\n", "timeout", "is negative"},
    {"timeout_no_unit_tail", "timeout: 1h30\ntasks: {worker: {command: x}}\n", "timeout", "without a unit"},
    {"heartbeat_timeout_too_short", "heartbeat_timeout: 5s\ntasks: {worker: {command: x}}\n", "heartbeat_timeout",
     "use 15 s or more"},
    {"stall_timeout_too_short", "stall_timeout: 10s\ntasks: {worker: {command: x}}\n", "stall_timeout",
     "use 30 s or more"},
    {"on_stall_unknown", "on_stall: kill\ntasks: {worker: {command: x}}\n", "on_stall",
     "use report (the default), restart or fail"},
    {"tags_scalar", "tags: nightly\ntasks: {worker: {command: x}}\n", "tags", "must be a list of words"},
    {"tag_non_ascii", "tags: [\"t\u00e9st\"]\ntasks: {worker: {command: x}}\n", "tags[0]", "printable ASCII"},
    {"node_label_invalid", "tasks: {worker: {node_label: gpu nodes, command: x}}\n", "tasks.worker.node_label",
     "is not a valid YARN node label"},
    {"task_type_capitals", "tasks: {Worker: {command: x}}\n", "tasks.Worker", "is not a valid task type name"},
    {"task_type_typo", "tasks: {wroker: {command: x}}\n", "tasks.wroker", "misspelling of \"worker\""},
    {"pytorch_with_ps", "framework: pytorch\ntasks: {worker: {command: x}, ps: {command: x}}\n", "tasks.ps",
     "PyTorch jobs do not have"},
    {"pytorch_without_workers", "framework: pytorch\ntasks: {reader: {command: x}}\n", "tasks",
     "has neither chief nor worker"},
    {"only_services", "tasks: {ps: {command: x}}\n", "tasks", "has only service tasks"},
    {"name_empty", "name: \"\"\ntasks: {worker: {command: x}}\n", "name", "is empty"},
    {"command_blank", "tasks: {worker: {command: \"  \"}}\n", "tasks.worker.command", "is empty"},
    {"command_list_with_mapping", "tasks: {worker: {command: [python, {a: b}]}}\n", "tasks.worker.command",
     "item 2 is a mapping"},
    {"queue_list", "queue: [a, b]\ntasks: {worker: {command: x}}\n", "queue", "must be a text value, not a list"},
    {"am_memory", "application_master: {memory: lots}\ntasks: {worker: {command: x}}\n", "application_master.memory",
     "is not a memory size"},
    {"am_unknown_key", "application_master: {vcore: 2}\ntasks: {worker: {command: x}}\n", "application_master.vcore",
     "did you mean \"vcores\"?"},
    {"not_utf8", "name: caf\xe9\ntasks: {worker: {command: x}}\n", "", "is not UTF-8 text (byte 9)", 1, 10},
    {"utf8_surrogate", "tasks: {worker: {command: \"\xed\xa0\x80\"}}\n", "", "is not UTF-8 text", 1, 28},
    {"control_character", "tasks: {worker: {command: \"python\x01x\"}}\n", "", "control character 0x01 (byte 33)", 1,
     34},
    {"task_not_mapping", "tasks: {worker: python train.py}\n", "tasks.worker", "must be a mapping"},
};

INSTANTIATE_TEST_SUITE_P(BadSpecs, SpecErrorsTest, ::testing::ValuesIn(bad_specs),
                         [](const ::testing::TestParamInfo<BadSpec>& param_info) {
                           return std::string(param_info.param.name);
                         });

TEST(SpecErrors, ReportsEveryProblemAtOnce) {
  SpecParseOptions options;
  options.check_files = false;
  auto result = parse_job_spec(
      "nmae: x\n"
      "tasks:\n"
      "  chief: {instances: 3, command: x}\n"
      "  worker: {memory: 0}\n"
      "  tensorboard: {}\n",
      options);
  ASSERT_FALSE(result.ok());
  // unknown key, chief count, worker memory, worker command, tensorboard output
  EXPECT_EQ(result.error().size(), 5u) << format_diagnostics(result.error());
}

TEST(SpecErrors, FormatsAsFileLineColumnFieldMessage) {
  SpecParseOptions options;
  options.source_name = "train.yaml";
  auto result = parse_job_spec("tasks:\n  worker: {vcores: 0, command: x}\n", options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().front().to_string(),
            "train.yaml:2:20: tasks.worker.vcores: 0 is out of range; it must be a whole number from 1 to 1024");
}

// An environment on the nodes is on their file systems, not this machine's: only its form is checked.
TEST(SpecErrors, PythonEnvOnTheNodesNeedsAnAbsoluteDirectory) {
  SpecParseOptions options;
  options.source_name = "job.yaml";
  auto installed =
      parse_job_spec("python_env: node:/opt/envs/../envs/torch\ncommand: x\ntasks: {worker: {}}\n", options);
  ASSERT_TRUE(installed.ok()) << format_diagnostics(installed.error());
  EXPECT_EQ(installed->python_env, "node:/opt/envs/torch");
  for (const char* value : {"node:", "node:envs/torch"}) {
    auto refused =
        parse_job_spec(std::string("python_env: '") + value + "'\ncommand: x\ntasks: {worker: {}}\n", options);
    ASSERT_FALSE(refused.ok()) << value;
    EXPECT_EQ(refused.error().front().to_string(),
              std::string("job.yaml:1:13: python_env: node: must be followed by the absolute directory of an "
                          "environment installed on every node, e.g. node:/opt/envs/torch, not \"") +
                  value + "\"");
  }
}

TEST(SpecErrors, SeveralProcessesOnlyInPyTorchsGroupAndWithGpusShared) {
  SpecParseOptions options;
  options.source_name = "job.yaml";
  auto tensorflow = parse_job_spec("command: x\ntasks: {worker: {processes: 2}}\n", options);
  ASSERT_FALSE(tensorflow.ok());
  EXPECT_EQ(tensorflow.error().front().to_string(),
            "job.yaml:2:18: tasks.worker.processes: is 2, but only PyTorch jobs run several processes (ranks) in a "
            "container; set `framework: pytorch`, or add instances instead");
  auto ps = parse_job_spec("framework: pytorch\ncommand: x\ntasks: {worker: {}, ps: {processes: 2}}\n", options);
  ASSERT_FALSE(ps.ok());
  EXPECT_EQ(ps.error().front().to_string(),
            "job.yaml:3:37: tasks.ps.processes: only chief and worker run several processes (the ranks of PyTorch's "
            "group); run ps as one process, or add instances");
  auto gpus = parse_job_spec("framework: pytorch\ncommand: x\ntasks: {worker: {gpus: 3, processes: 2}}\n", options);
  ASSERT_FALSE(gpus.ok());
  EXPECT_NE(gpus.error().front().message.find("2 processes cannot share 3 GPUs evenly"), std::string::npos);
  auto many = parse_job_spec("framework: pytorch\ncommand: x\ntasks: {worker: {processes: 65}}\n", options);
  ASSERT_FALSE(many.ok());
  auto fine = parse_job_spec("framework: pytorch\ncommand: x\ntasks: {worker: {gpus: 4, processes: 2}}\n", options);
  ASSERT_TRUE(fine.ok()) << format_diagnostics(fine.error());
  EXPECT_EQ(fine->tasks.front().processes, 2);
  auto again = parse_job_spec(to_yaml(*fine), options);
  ASSERT_TRUE(again.ok()) << to_yaml(*fine);
  EXPECT_EQ(again->tasks.front().processes, 2);
}

TEST(SpecErrors, MissingSpecFileIsOneSentence) {
  auto result = load_job_spec("/nonexistent/job.yaml");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().front().to_string(),
            "/nonexistent/job.yaml: does not exist; check the path of the spec file");
}

TEST(SpecErrors, DirectoryAsSpecFile) {
  auto result = load_job_spec(std::filesystem::temp_directory_path());
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().front().message.find("is a directory"), std::string::npos);
}

TEST(SpecErrors, OversizedSpecIsRefused) {
  SpecParseOptions options;
  auto result = parse_job_spec(std::string(5 * 1024 * 1024, '#'), options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().front().message.find("more than the 4 MiB"), std::string::npos);
}

}  // namespace
}  // namespace spindle

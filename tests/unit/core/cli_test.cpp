// Runs the spindle binary as a user would and checks its output and exit codes.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace {

struct CliRun {
  int exit_code;
  std::string out;
  std::string err;
};

// `environment` is a prefix of NAME=VALUE words for env(1), or empty.
CliRun spindle(const std::string& arguments, const std::string& environment = "") {
  // ctest runs each test case as its own process, in parallel: one file each.
  static int calls = 0;
  const std::string err_file =
      testing::TempDir() + "/spindle-cli-stderr-" + std::to_string(::getpid()) + "-" + std::to_string(++calls);
  const std::string command =
      (environment.empty() ? "" : "env " + environment + " ") + SPINDLE_CLI_PATH + " " + arguments + " 2>" + err_file;
  CliRun run{};
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  run.err.assign(std::istreambuf_iterator<char>(err), {});
  std::remove(err_file.c_str());
  return run;
}

const std::string source = SPINDLE_SOURCE_DIR;
const std::string full_job = source + "/tests/data/render-env/full_job.yaml";

// Files the tests write live in one directory per test process, removed when it exits.
const std::filesystem::path& scratch_directory() {
  static const struct Scratch {
    std::filesystem::path path =
        std::filesystem::path(testing::TempDir()) / ("spindle-cli-test-" + std::to_string(::getpid()));
    Scratch() { std::filesystem::create_directories(path); }
    ~Scratch() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } scratch;
  return scratch.path;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = (scratch_directory() / name).string();
  std::ofstream(path) << text;
  return path;
}

TEST(Cli, ValidatePrintsTheNormalizedSpec) {
  const CliRun run = spindle("validate " + source + "/resources/examples/wine-quality/wine_quality.yaml");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("memory: 2 GiB"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("name: wine-quality"), std::string::npos);
}

TEST(Cli, ValidateJsonHasMemoryInMiB) {
  const CliRun run = spindle("validate --json " + source + "/resources/examples/wine-quality/wine_quality.yaml");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["valid"], true);
  EXPECT_EQ(json["spec"]["tasks"]["chief"]["memory"], 2048);
}

TEST(Cli, InvalidSpecExitsTwoWithEveryError) {
  const std::string path =
      write_temp("bad.yaml", "tasks:\n  worker: {instances: 0}\n  chief: {instances: 2, command: x}\n");
  const CliRun run = spindle("validate " + path);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(run.out.empty());
  EXPECT_NE(run.err.find(path + ":2:23: tasks.worker.instances: is 0"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(path + ":3:11: tasks.chief.instances: is 2, but a job has at most one chief"),
            std::string::npos)
      << run.err;
}

TEST(Cli, InvalidSpecAsJson) {
  const std::string path = write_temp("bad-json.yaml", "tasks: {worker: {memory: 2GB, command: x}}\n");
  const CliRun run = spindle("validate --json " + path);
  EXPECT_EQ(run.exit_code, 2);
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["valid"], false);
  ASSERT_EQ(json["errors"].size(), 1u);
  EXPECT_EQ(json["errors"][0]["field"], "tasks.worker.memory");
  EXPECT_EQ(json["errors"][0]["line"], 1);
  EXPECT_EQ(json["errors"][0]["column"], 26);
}

TEST(Cli, ValidateShorthand) {
  const CliRun run = spindle("validate --json -r ps:1,worker:2 -m 2g -- python train.py --steps 10");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto spec = nlohmann::json::parse(run.out)["spec"];
  EXPECT_EQ(spec["tasks"]["worker"]["instances"], 2);
  EXPECT_EQ(spec["tasks"]["worker"]["memory"], 2048);
  EXPECT_EQ(spec["tasks"]["ps"]["command"], "python train.py --steps 10");
}

TEST(Cli, ShorthandWithoutCommand) {
  const CliRun run = spindle("validate -r worker:2");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("COMMAND: is missing"), std::string::npos) << run.err;
}

TEST(Cli, MissingSpecFile) {
  const CliRun run = spindle("validate /nonexistent/spec.yaml");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "/nonexistent/spec.yaml: does not exist; check the path of the spec file\n");
}

TEST(Cli, UnknownOptionIsBadInput) {
  const CliRun run = spindle("validate --frobnicate x.yaml");
  EXPECT_EQ(run.exit_code, 2);
}

TEST(Cli, RenderEnvMatchesGoldenJson) {
  const std::string hosts =
      "chief:0=c0:2000,worker:0=w0:2001,worker:1=w1:2002,ps:0=p0:2003,evaluator:0=e0:2004,tensorboard:0=t0:2005,"
      "reader:0=r0:2006";
  for (const char* task : {"chief-0", "worker-1", "ps-0", "evaluator-0", "tensorboard-0", "reader-0"}) {
    std::string id = task;
    id[id.find('-')] = ':';
    const CliRun run = spindle("render-env --json " + full_job + " --hosts " + hosts + " --task " + id +
                               " --app-id application_1700000000000_0042 --attempt 1");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::ifstream golden(source + "/tests/data/render-env/full_job." + task + ".json");
    EXPECT_EQ(nlohmann::json::parse(run.out), nlohmann::json::parse(golden)) << task;
  }
}

TEST(Cli, RenderEnvShellFormIsSourceable) {
  const CliRun run = spindle("render-env " + full_job +
                             " --hosts chief:0=c0:1,worker:0=w0:2,worker:1=w1:3,ps:0=p0:4,evaluator:0=e0:5,"
                             "tensorboard:0=t0:6,reader:0=r0:7 --task ps:0");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string script = write_temp("env.sh", run.out + "printf '%s|%s' \"$DTF_TASK_JOB_NAME\" \"$TF_CONFIG\"\n");
  FILE* pipe = popen(("sh " + script).c_str(), "r");
  std::array<char, 4096> buffer{};
  const std::size_t n = fread(buffer.data(), 1, buffer.size(), pipe);
  pclose(pipe);
  EXPECT_EQ(std::string(buffer.data(), n),
            "ps|{\"cluster\":{\"chief\":[\"c0:1\"],\"worker\":[\"w0:2\",\"w1:3\"],\"ps\":[\"p0:4\"]},"
            "\"task\":{\"type\":\"ps\",\"index\":0}}");
}

TEST(Cli, RenderEnvRejectsBadHostsAndTasks) {
  CliRun run = spindle("render-env " + full_job + " --hosts worker:0=w0:1 --task worker:0");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--hosts: no address for chief:0, worker:1, ps:0"), std::string::npos) << run.err;
  run = spindle("render-env -r worker:1 --hosts worker:0=w:1 --task worker:3 -- python x.py");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--task: worker:3 is not a task of this job"), std::string::npos) << run.err;
  run = spindle("render-env -r worker:1 --hosts worker:0=w:1 -- python x.py");
  EXPECT_EQ(run.exit_code, 2);
}

}  // namespace

namespace {

// A container binary from another release is refused before the cluster is
// asked for anything: the ResourceManager configured here does not exist.
TEST(Cli, SubmitRefusesAContainerBinaryOfAnotherRelease) {
  const std::string configuration = (scratch_directory() / "conf").string();
  std::filesystem::create_directories(configuration);
  std::ofstream(configuration + "/yarn-site.xml")
      << "<configuration><property><name>yarn.resourcemanager.address</name><value>127.0.0.1:1</value>"
         "</property></configuration>\n";
  const std::string old_binary = write_temp("old-spindle-container", "#!/bin/sh\necho 'spindle-container 0.0.1'\n");
  std::filesystem::permissions(old_binary, std::filesystem::perms::owner_all);
  const CliRun run = spindle("submit -r worker:1 -- python3 -c pass",
                             "HADOOP_CONF_DIR=" + configuration + " SPINDLE_CONTAINER_BINARY=" + old_binary);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  std::string own_version = spindle("--version").out;  // "spindle 0.1.0\n"
  own_version = own_version.substr(0, own_version.find('\n'));
  ASSERT_TRUE(own_version.starts_with("spindle ")) << own_version;
  EXPECT_NE(run.err.find("the container binary " + old_binary + " says \"spindle-container 0.0.1\", but this is " +
                         own_version),
            std::string::npos)
      << run.err;
}

}  // namespace

namespace {

TEST(Cli, EnvPackOfAMissingDirectoryIsOneSentence) {
  const CliRun run = spindle("env pack /nonexistent/env");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_NE(run.err.find("python_env: /nonexistent/env does not exist"), std::string::npos) << run.err;
}

TEST(Cli, EnvListWithoutAClusterConfigurationIsBadInput) {
  const CliRun run = spindle("env list", "HADOOP_CONF_DIR= HADOOP_HOME=");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("spindle env list: "), std::string::npos) << run.err;
}

}  // namespace

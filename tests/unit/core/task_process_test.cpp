#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "spindle/core/task_process.h"

namespace spindle {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Every test process gets its own directory: ctest runs tests in parallel.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ =
        fs::temp_directory_path() / ("spindle-task-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = 20s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return condition();
}

struct Stat {
  char state = '?';
  pid_t ppid = 0;
  pid_t pgrp = 0;
};

std::optional<Stat> stat_of(pid_t pid) {
  const std::string line = read_text("/proc/" + std::to_string(pid) + "/stat");
  const auto paren = line.rfind(')');
  if (paren == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(paren + 2));
  Stat stat;
  fields >> stat.state >> stat.ppid >> stat.pgrp;
  if (!fields) return std::nullopt;
  return stat;
}

// A zombie has ended; only its parent has not collected it yet.
bool running(pid_t pid) {
  if (::kill(pid, 0) != 0 && errno == ESRCH) return false;
  const auto stat = stat_of(pid);
  return stat && stat->state != 'Z' && stat->state != 'X';
}

std::vector<pid_t> live_members(pid_t group) {
  std::vector<pid_t> members;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = std::stoi(name);
    const auto stat = stat_of(pid);
    if (stat && stat->pgrp == group && stat->state != 'Z' && stat->state != 'X') members.push_back(pid);
  }
  return members;
}

// Should the code under test fail, what it left behind must not outlive the
// test: it would keep ctest's output pipe open and the whole run waiting.
class Leftovers {
 public:
  Leftovers() = default;
  Leftovers(const Leftovers&) = delete;
  Leftovers& operator=(const Leftovers&) = delete;
  ~Leftovers() {
    for (pid_t group : groups_) {
      if (group > 0 && !live_members(group).empty()) ::kill(-group, SIGKILL);
    }
    for (pid_t pid : processes_) {
      if (pid > 0 && running(pid)) ::kill(pid, SIGKILL);
    }
  }
  void group(pid_t group) { groups_.push_back(group); }
  void process(pid_t pid) { processes_.push_back(pid); }

 private:
  std::vector<pid_t> groups_;
  std::vector<pid_t> processes_;
};

pid_t read_pid(const fs::path& path) {
  pid_t pid = 0;
  EXPECT_TRUE(eventually([&] {
    std::ifstream in(path);
    return static_cast<bool>(in >> pid);
  })) << path;
  return pid;
}

TaskProcessOptions options_for(const TempDir& dir, std::string command) {
  TaskProcessOptions options;
  options.command = std::move(command);
  options.environment = {{"PATH", "/usr/local/bin:/usr/bin:/bin"}};
  options.working_directory = dir.path();
  options.leftover_grace = 300ms;
  options.orphaned_grace = 300ms;
  return options;
}

TaskProcess start(const TaskProcessOptions& options) {
  auto task = TaskProcess::start(options);
  if (!task) ADD_FAILURE() << task.error().message;
  return std::move(task).value();
}

TEST(TaskProcess, ReportsTheExitCode) {
  TempDir dir;
  auto failing = start(options_for(dir, "exit 3"));
  const ExitStatus status = failing.wait();
  EXPECT_EQ(status.code, 3);
  EXPECT_EQ(status.signal, 0);
  EXPECT_EQ(status.shell_code(), 3);
  EXPECT_FALSE(status.success());
  EXPECT_EQ(status.describe(), "exited with 3");

  auto fine = start(options_for(dir, "true"));
  EXPECT_TRUE(fine.wait().success());
  // Asked again, the same answer.
  ASSERT_TRUE(fine.poll());
  EXPECT_TRUE(fine.poll()->success());
}

TEST(TaskProcess, ReportsTheKillingSignal) {
  TempDir dir;
  auto task = start(options_for(dir, "kill -KILL $$"));
  const ExitStatus status = task.wait();
  EXPECT_EQ(status.signal, SIGKILL);
  EXPECT_EQ(status.shell_code(), 137);
  EXPECT_EQ(status.describe(), "killed by SIGKILL");
}

TEST(TaskProcess, MissingShellCommandGivesShellCode127) {
  TempDir dir;
  auto task = start(options_for(dir, "no-such-command-spindle"));
  EXPECT_EQ(task.wait().code, 127);
}

TEST(TaskProcess, EnvironmentIsReplacedNotMerged) {
  TempDir dir;
  ::setenv("SPINDLE_TEST_LEAKED", "1", 1);
  auto options = options_for(dir, "env > environment");
  options.environment["TF_CONFIG"] = R"({"task": {"type": "worker", "index": 0}})";
  options.environment["WITH_EQUALS"] = "a=b c";
  auto task = start(options);
  ASSERT_TRUE(task.wait().success());
  ::unsetenv("SPINDLE_TEST_LEAKED");
  const std::string environment = read_text(dir / "environment");
  EXPECT_NE(environment.find("TF_CONFIG={\"task\": {\"type\": \"worker\", \"index\": 0}}\n"), std::string::npos)
      << environment;
  EXPECT_NE(environment.find("WITH_EQUALS=a=b c\n"), std::string::npos) << environment;
  EXPECT_EQ(environment.find("SPINDLE_TEST_LEAKED"), std::string::npos) << environment;
  EXPECT_EQ(environment.find("HOME="), std::string::npos) << environment;
}

TEST(TaskProcess, RejectsInvalidEnvironmentNames) {
  TempDir dir;
  auto options = options_for(dir, "true");
  options.environment["A=B"] = "x";
  auto task = TaskProcess::start(options);
  ASSERT_FALSE(task);
  EXPECT_NE(task.error().message.find("A=B"), std::string::npos);
}

TEST(TaskProcess, RunsInTheWorkingDirectory) {
  TempDir dir;
  fs::create_directories(dir / "work");
  auto options = options_for(dir, "pwd -P > ../where");
  options.working_directory = dir / "work";
  auto task = start(options);
  ASSERT_TRUE(task.wait().success());
  EXPECT_EQ(read_text(dir / "where"), fs::canonical(dir / "work").string() + "\n");
}

TEST(TaskProcess, MissingWorkingDirectoryIsAnError) {
  TempDir dir;
  auto options = options_for(dir, "true");
  options.working_directory = dir / "absent";
  auto task = TaskProcess::start(options);
  ASSERT_FALSE(task);
  EXPECT_NE(task.error().message.find("absent"), std::string::npos) << task.error().message;
}

TEST(TaskProcess, RunsInItsOwnProcessGroup) {
  TempDir dir;
  auto task = start(options_for(dir, "sleep 300"));
  ASSERT_GT(task.pid(), 0);
  const auto stat = stat_of(task.pid());
  ASSERT_TRUE(stat);
  EXPECT_EQ(stat->pgrp, task.pid());
  EXPECT_NE(stat->pgrp, ::getpgrp());
  // The guardian, the shell's parent, is in neither group: the executor's
  // group may be SIGKILLed by YARN, the command's by the executor.
  const auto guardian = stat_of(stat->ppid);
  ASSERT_TRUE(guardian);
  EXPECT_NE(stat->ppid, ::getpid());
  EXPECT_NE(guardian->pgrp, ::getpgrp());
  EXPECT_NE(guardian->pgrp, task.pid());
  EXPECT_EQ(task.stop(10s).signal, SIGTERM);
}

TEST(TaskProcess, PollDoesNotBlockAndWaitForTimesOut) {
  TempDir dir;
  auto task = start(options_for(dir, "sleep 300"));
  EXPECT_FALSE(task.poll());
  EXPECT_FALSE(task.wait_for(100ms));
  EXPECT_FALSE(task.poll());
  ASSERT_TRUE(task.signal(SIGKILL));
  const auto status = task.wait_for(20s);
  ASSERT_TRUE(status);
  EXPECT_EQ(status->signal, SIGKILL);
}

TEST(TaskProcess, CompletionFdBecomesReadableWhenDone) {
  TempDir dir;
  auto task = start(options_for(dir, "while [ ! -e go ]; do sleep 0.02; done; exit 4"));
  pollfd watch{task.completion_fd(), POLLIN, 0};
  EXPECT_EQ(::poll(&watch, 1, 0), 0);
  std::ofstream(dir / "go").put('\n');
  ASSERT_EQ(::poll(&watch, 1, 20'000), 1);
  const auto status = task.poll();
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 4);
}

TEST(TaskProcess, SignalReachesTheWholeGroup) {
  TempDir dir;
  auto task = start(options_for(dir, "sleep 300 & echo $! > background; sleep 300"));
  const pid_t background = read_pid(dir / "background");
  Leftovers leftovers;
  leftovers.process(background);
  ASSERT_TRUE(eventually([&] { return live_members(task.pid()).size() >= 2; }));
  ASSERT_TRUE(task.signal(SIGTERM));
  const ExitStatus status = task.wait();
  EXPECT_EQ(status.signal, SIGTERM);
  EXPECT_FALSE(running(background));
  EXPECT_TRUE(live_members(task.pid()).empty());
  // Once ended, signalling is harmless.
  EXPECT_TRUE(task.signal(SIGTERM));
}

TEST(TaskProcess, StopGivesGraceThenKills) {
  TempDir dir;
  auto task = start(options_for(dir, "trap 'echo term >> got' TERM; echo > ready; while :; do sleep 0.05; done"));
  ASSERT_TRUE(eventually([&] { return fs::exists(dir / "ready"); }));
  const ExitStatus status = task.stop(500ms);
  EXPECT_EQ(status.signal, SIGKILL) << status.describe();
  EXPECT_NE(read_text(dir / "got").find("term"), std::string::npos);
  EXPECT_TRUE(live_members(task.pid()).empty());
}

TEST(TaskProcess, StopLetsACooperativeCommandEndItsOwnWay) {
  TempDir dir;
  auto task = start(options_for(dir, "trap 'exit 5' TERM; echo > ready; sleep 300 & wait"));
  ASSERT_TRUE(eventually([&] { return fs::exists(dir / "ready"); }));
  const ExitStatus status = task.stop(20s);
  EXPECT_EQ(status.code, 5) << status.describe();
  EXPECT_EQ(status.signal, 0);
}

TEST(TaskProcess, LeftoversInTheGroupAreKilledWhenTheCommandEnds) {
  TempDir dir;
  auto task = start(options_for(dir, "sleep 300 & echo $! > background; exit 0"));
  Leftovers leftovers;
  leftovers.group(task.pid());
  const ExitStatus status = task.wait();
  EXPECT_TRUE(status.success()) << status.describe();
  const pid_t background = read_pid(dir / "background");
  ASSERT_GT(background, 0);
  leftovers.process(background);
  // The guardian reaped it as well: not even a zombie is left.
  EXPECT_EQ(::kill(background, 0), -1);
  EXPECT_EQ(errno, ESRCH);
  EXPECT_TRUE(live_members(task.pid()).empty());
}

TEST(TaskProcess, LeftoversIgnoringSigtermAreKilledAfterTheGrace) {
  TempDir dir;
  auto task = start(options_for(dir, "trap '' TERM; sleep 300 & echo $! > background; exit 6"));
  Leftovers leftovers;
  leftovers.group(task.pid());
  const ExitStatus status = task.wait();
  EXPECT_EQ(status.code, 6);
  EXPECT_FALSE(running(read_pid(dir / "background")));
  EXPECT_TRUE(live_members(task.pid()).empty());
}

TEST(TaskProcess, ProcessesThatLeftTheGroupAreKilledToo) {
  ASSERT_TRUE(::access("/usr/bin/setsid", X_OK) == 0 || ::access("/bin/setsid", X_OK) == 0) << "no setsid (util-linux)";
  TempDir dir;
  auto task =
      start(options_for(dir, "setsid sleep 300 & echo $! > escaped; while [ ! -e go ]; do sleep 0.02; done; exit 0"));
  const pid_t escaped = read_pid(dir / "escaped");
  Leftovers leftovers;
  leftovers.process(escaped);
  // Wait until it has its own session, out of the command's group.
  ASSERT_TRUE(eventually([&] {
    const auto stat = stat_of(escaped);
    return stat && stat->pgrp == escaped;
  }));
  ASSERT_NE(escaped, task.pid());
  std::ofstream(dir / "go").put('\n');
  EXPECT_TRUE(task.wait().success());
  EXPECT_FALSE(running(escaped));
}

TEST(TaskProcess, DestroyingARunningTaskKillsEverything) {
  TempDir dir;
  pid_t group = 0;
  pid_t background = 0;
  Leftovers leftovers;
  {
    auto task = start(options_for(dir, "trap '' TERM; sleep 300 & echo $! > background; sleep 300"));
    group = task.pid();
    background = read_pid(dir / "background");
    leftovers.group(group);
    leftovers.process(background);
  }
  EXPECT_FALSE(running(background));
  EXPECT_TRUE(live_members(group).empty());
}

TEST(TaskProcess, MovedTaskKeepsTheProcess) {
  TempDir dir;
  auto first = start(options_for(dir, "exit 9"));
  TaskProcess second = std::move(first);
  EXPECT_EQ(second.wait().code, 9);
  auto third = start(options_for(dir, "exit 10"));
  third = std::move(second);
  EXPECT_EQ(third.wait().code, 9);
}

TEST(TaskProcess, SignalDispositionsAndMaskAreNotInherited) {
  TempDir dir;
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction old_pipe {};
  struct sigaction old_int {};
  ASSERT_EQ(::sigaction(SIGPIPE, &ignore, &old_pipe), 0);
  ASSERT_EQ(::sigaction(SIGINT, &ignore, &old_int), 0);
  sigset_t blocked;
  sigset_t old_mask;
  ::sigemptyset(&blocked);
  ::sigaddset(&blocked, SIGUSR2);
  ::pthread_sigmask(SIG_BLOCK, &blocked, &old_mask);

  auto task = start(options_for(dir, "grep -E '^Sig(Ign|Blk)' /proc/self/status > signals"));
  const ExitStatus status = task.wait();
  ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  ::sigaction(SIGPIPE, &old_pipe, nullptr);
  ::sigaction(SIGINT, &old_int, nullptr);

  ASSERT_TRUE(status.success()) << status.describe();
  EXPECT_EQ(read_text(dir / "signals"), "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

TEST(TaskProcess, WorksWhenTheExecutorIgnoresSigchld) {
  TempDir dir;
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction old_child {};
  ASSERT_EQ(::sigaction(SIGCHLD, &ignore, &old_child), 0);
  auto task = start(options_for(dir, "sleep 300 & echo $! > background; exit 3"));
  Leftovers leftovers;
  leftovers.group(task.pid());
  const auto status = task.wait_for(20s);
  ::sigaction(SIGCHLD, &old_child, nullptr);
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 3) << status->describe();
  EXPECT_FALSE(running(read_pid(dir / "background")));
}

TEST(TaskProcess, DescriptorsOfTheExecutorAreNotInherited) {
  TempDir dir;
  const int file = ::open((dir / "held").c_str(), O_WRONLY | O_CREAT, 0600);  // no O_CLOEXEC
  ASSERT_GE(file, 0);
  ASSERT_EQ(::dup2(file, 57), 57);
  auto task = start(options_for(dir, "[ -e /proc/$$/fd/1 ] || exit 2; [ -e /proc/$$/fd/57 ] && exit 1; exit 0"));
  const ExitStatus status = task.wait();
  ::close(57);
  ::close(file);
  EXPECT_EQ(status.code, 0) << "exit 1: descriptor 57 was inherited";
}

TEST(TaskProcess, StartingThreadMayEnd) {
  // PR_SET_PDEATHSIG would fire here, when the thread that forked ends.
  TempDir dir;
  std::optional<TaskProcess> task;
  std::thread starter([&] { task.emplace(start(options_for(dir, "sleep 300"))); });
  starter.join();
  ASSERT_TRUE(task);
  EXPECT_FALSE(task->wait_for(500ms));
  EXPECT_TRUE(running(task->pid()));
  EXPECT_EQ(task->stop(10s).signal, SIGTERM);
}

TEST(TaskProcess, UsageOfAShellCommand) {
  TempDir dir;
  auto task = start(options_for(dir, "sleep 300 & sleep 300"));
  ASSERT_TRUE(eventually([&] { return task.usage().processes >= 2; }));
  const ProcessUsage usage = task.usage();
  EXPECT_GT(usage.resident_bytes, 0u);
  EXPECT_GE(usage.cpu_seconds, 0.0);
  task.stop(10s);
  EXPECT_EQ(task.usage().processes, 0);
}

TEST(TaskProcess, UsageCountsMemoryAndCpu) {
  const fs::path python = SPINDLE_PYTHON;
  ASSERT_TRUE(fs::exists(python)) << "no Python at " << python << "; scripts/setup makes it";
  TempDir dir;
  // Bytes written, not just reserved, so they are resident; then some work.
  auto task = start(options_for(
      dir, python.string() + " -c \"import pathlib, time\nb = b'x' * (160 << 20)\nt = time.process_time()\n"
                             "while time.process_time() - t < 0.3: sum(range(10000))\npathlib.Path('ready').touch()\n"
                             "time.sleep(300)\""));
  ASSERT_TRUE(eventually([&] { return fs::exists(dir / "ready"); }, 60s));
  const ProcessUsage usage = task.usage();
  EXPECT_GE(usage.resident_bytes, 150u << 20);
  EXPECT_GE(usage.cpu_seconds, 0.2);
  EXPECT_GE(usage.processes, 1);
  task.stop(10s);
}

// A child process plays the executor, so that it can die like one.
struct FakeExecutor {
  pid_t pid = -1;
  pid_t group = -1;
  pid_t guardian = -1;
};

// The child starts the task, reports its group, then waits to be killed.
FakeExecutor spawn_executor(const TaskProcessOptions& options, bool forward_signals) {
  int report[2];
  EXPECT_EQ(::pipe(report), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(report[0]);
    // A container: the NodeManager signals this group as a whole.
    ::setpgid(0, 0);
    std::unique_ptr<SignalForwarder> forwarder;
    if (forward_signals) {
      auto installed = SignalForwarder::install();
      if (!installed) ::_exit(3);
      forwarder = std::move(installed).value();
    }
    auto task = TaskProcess::start(options);
    if (!task) ::_exit(2);
    if (forwarder) forwarder->forward_to(task->process_group());
    const pid_t group = task->process_group();
    [[maybe_unused]] const auto written = ::write(report[1], &group, sizeof group);
    for (;;) ::pause();
  }
  ::close(report[1]);
  FakeExecutor executor;
  executor.pid = pid;
  EXPECT_EQ(::read(report[0], &executor.group, sizeof executor.group), static_cast<ssize_t>(sizeof executor.group));
  ::close(report[0]);
  if (const auto stat = stat_of(executor.group)) executor.guardian = stat->ppid;
  return executor;
}

// The guardian is reparented to this process when the fake executor dies.
bool guardian_exits(pid_t guardian) {
  int status = -1;
  const bool reaped = eventually([&] { return ::waitpid(guardian, &status, WNOHANG) == guardian; });
  return reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(TaskProcess, NothingSurvivesTheExecutorKilledBySigkill) {
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  TempDir dir;
  const auto executor =
      spawn_executor(options_for(dir, "trap '' TERM; sleep 300 & echo $! > background; sleep 300"), false);
  Leftovers leftovers;
  leftovers.group(executor.group);
  leftovers.process(executor.guardian);
  leftovers.process(executor.pid);
  ASSERT_GT(executor.group, 0);
  ASSERT_GT(executor.guardian, 0);
  ASSERT_NE(executor.guardian, executor.pid);
  const pid_t background = read_pid(dir / "background");
  leftovers.process(background);
  ASSERT_TRUE(eventually([&] { return live_members(executor.group).size() >= 2; }));

  ASSERT_EQ(::kill(executor.pid, SIGKILL), 0);
  ASSERT_EQ(::waitpid(executor.pid, nullptr, 0), executor.pid);

  EXPECT_TRUE(eventually([&] { return live_members(executor.group).empty(); }))
      << live_members(executor.group).size() << " processes of the task are left";
  EXPECT_FALSE(running(background));
  EXPECT_TRUE(guardian_exits(executor.guardian));
}

TEST(TaskProcess, NothingSurvivesAContainerKilledTheWayYarnDoes) {
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  TempDir dir;
  // The command handles SIGTERM and keeps running; a process it started
  // ignores SIGTERM altogether.
  const auto executor =
      spawn_executor(options_for(dir,
                                 "trap 'echo term >> got' TERM; sh -c 'trap \"\" TERM; exec sleep 300' & echo > ready; "
                                 "while :; do sleep 0.05; done"),
                     true);
  Leftovers leftovers;
  leftovers.group(executor.group);
  leftovers.process(executor.guardian);
  leftovers.process(executor.pid);
  ASSERT_GT(executor.group, 0);
  ASSERT_TRUE(eventually([&] { return fs::exists(dir / "ready"); }));
  ASSERT_TRUE(eventually([&] { return live_members(executor.group).size() >= 2; }));

  // The NodeManager: SIGTERM to the container's group, SIGKILL a little later. The test sends the
  // SIGKILL once the command has seen the SIGTERM, as a slow machine could otherwise kill first.
  ASSERT_EQ(::kill(-executor.pid, SIGTERM), 0);
  EXPECT_TRUE(eventually([&] { return read_text(dir / "got").find("term") != std::string::npos; }))
      << "the command never saw SIGTERM";
  ::kill(-executor.pid, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(executor.pid, &status, 0), executor.pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the forwarder let SIGTERM end the executor";

  EXPECT_TRUE(eventually([&] { return live_members(executor.group).empty(); }))
      << live_members(executor.group).size() << " processes of the task are left";
  EXPECT_TRUE(guardian_exits(executor.guardian));
}

TEST(SignalForwarder, ForwardsToTheGroupAndRecords) {
  TempDir dir;
  auto forwarder = SignalForwarder::install();
  ASSERT_TRUE(forwarder) << forwarder.error().message;
  auto task = start(options_for(dir, "trap 'exit 7' USR1; echo > ready; sleep 300 & wait"));
  ASSERT_TRUE(eventually([&] { return fs::exists(dir / "ready"); }));
  (*forwarder)->forward_to(task.process_group());
  ASSERT_EQ(::kill(::getpid(), SIGUSR1), 0);

  pollfd watch{(*forwarder)->fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&watch, 1, 20'000), 1);
  EXPECT_EQ((*forwarder)->take(), std::vector<int>{SIGUSR1});
  EXPECT_TRUE((*forwarder)->take().empty());
  const auto status = task.wait_for(20s);
  ASSERT_TRUE(status) << "the command never got SIGUSR1";
  EXPECT_EQ(status->code, 7) << status->describe();
  (*forwarder)->forward_to(0);
}

TEST(SignalForwarder, RecordsWithoutATargetAndRestoresOnDestruction) {
  struct sigaction before {};
  ASSERT_EQ(::sigaction(SIGHUP, nullptr, &before), 0);
  {
    auto forwarder = SignalForwarder::install();
    ASSERT_TRUE(forwarder) << forwarder.error().message;
    // Would end this process without the handler.
    ASSERT_EQ(::kill(::getpid(), SIGHUP), 0);
    ASSERT_EQ(::kill(::getpid(), SIGTERM), 0);
    std::vector<int> received;
    ASSERT_TRUE(eventually([&] {
      for (int sig : (*forwarder)->take()) received.push_back(sig);
      return received.size() >= 2;
    }));
    EXPECT_EQ(received, (std::vector<int>{SIGHUP, SIGTERM}));

    auto second = SignalForwarder::install();
    EXPECT_FALSE(second);
  }
  struct sigaction after {};
  ASSERT_EQ(::sigaction(SIGHUP, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
  // Installable again once the first is gone.
  auto again = SignalForwarder::install({SIGUSR2});
  EXPECT_TRUE(again);
}

TEST(SignalForwarder, RefusesSignalsThatCannotBeHandled) {
  EXPECT_FALSE(SignalForwarder::install({SIGKILL}));
  EXPECT_FALSE(SignalForwarder::install({0}));
  // A refused install leaves none behind.
  EXPECT_TRUE(SignalForwarder::install());
}

}  // namespace
}  // namespace spindle

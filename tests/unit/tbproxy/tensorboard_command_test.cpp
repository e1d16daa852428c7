// `spindle tensorboard` as a user runs it, with a job record on this machine
// and a ResourceManager that does not answer: the command must serve its
// pages, refuse other jobs, and stop cleanly on a signal.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "http_test_support.h"

namespace spindle::tbproxy::testing {
namespace {

constexpr const char* job = "application_1700000000000_0001";

class TensorBoardCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/spindle-tb-command-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    directory_ = pattern;
    std::filesystem::create_directories(directory_ / "state" / "jobs");
    std::filesystem::create_directories(directory_ / "conf");
    std::ofstream(directory_ / "state" / "jobs" / (std::string(job) + ".json"))
        << R"({"application_id": ")" << job << R"(", "name": "t", "secret": "s", "staging": "", "submitted_ms": 0})";
    // Nothing listens on port 1, so the ResourceManager is unreachable at once.
    std::ofstream(directory_ / "conf" / "yarn-site.xml")
        << "<configuration><property><name>yarn.resourcemanager.address</name><value>127.0.0.1:1</value>"
           "</property></configuration>";
  }
  void TearDown() override {
    if (child_ > 0) {
      kill(child_, SIGKILL);
      waitpid(child_, nullptr, 0);
    }
    std::filesystem::remove_all(directory_);
  }

  // Starts the command; returns the first line it prints (the URL).
  std::string start(const std::vector<std::string>& arguments) {
    const auto output = directory_ / "output.txt";
    child_ = fork();
    if (child_ == 0) {
      setenv("SPINDLE_STATE_DIR", (directory_ / "state").c_str(), 1);
      setenv("HADOOP_CONF_DIR", (directory_ / "conf").c_str(), 1);
      freopen(output.c_str(), "w", stdout);
      std::vector<char*> argv{const_cast<char*>(SPINDLE_CLI_PATH), const_cast<char*>("tensorboard")};
      for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
      argv.push_back(nullptr);
      execv(SPINDLE_CLI_PATH, argv.data());
      _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      std::ifstream in(output);
      std::string line;
      if (std::getline(in, line) && in.good()) return line;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return "";
  }

  int stop(int signal_number) {
    kill(child_, signal_number);
    int status = 0;
    waitpid(child_, &status, 0);
    child_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  static std::uint16_t port_of(const std::string& url) {
    const auto colon = url.find(':', 7);
    return static_cast<std::uint16_t>(std::stoi(url.substr(colon + 1)));
  }

  std::filesystem::path directory_;
  pid_t child_ = -1;
};

TEST_F(TensorBoardCommandTest, ServesTheJobsPagesUntilInterrupted) {
  const auto port = unused_port();
  const auto url = start({job, "--port", std::to_string(port)});
  EXPECT_EQ(url, "http://127.0.0.1:" + std::to_string(port) + "/tb/" + job + "/");
  Client client(port);
  auto response = client.send(get(std::string("/tb/") + job + "/"));
  EXPECT_EQ(response.result(), http::status::bad_gateway);
  EXPECT_NE(response.body().find("cannot reach the ResourceManager at 127.0.0.1:1"), std::string::npos)
      << response.body();
  response = client.send(get("/tb/application_1700000000000_0002/"));
  EXPECT_EQ(response.result(), http::status::not_found);
  EXPECT_NE(response.body().find("No job application_1700000000000_0002 was submitted from this machine."),
            std::string::npos);
  EXPECT_EQ(stop(SIGINT), 0);
}

TEST_F(TensorBoardCommandTest, ANonLocalBindPrintsATokenAndNeedsIt) {
  const auto url = start({job, "--bind", "0.0.0.0"});
  const auto token_at = url.find("/?token=");
  ASSERT_NE(token_at, std::string::npos) << url;
  EXPECT_EQ(url.size() - token_at - 8, 64u);
  const auto port = port_of(url);
  EXPECT_EQ(Client(port).send(get(std::string("/tb/") + job + "/")).result(), http::status::unauthorized);
  const auto accepted = Client(port).send(get(url.substr(url.find("/tb/"))));
  EXPECT_EQ(accepted.result(), http::status::found);
  EXPECT_EQ(accepted[http::field::location], std::string("/tb/") + job + "/");
  EXPECT_EQ(stop(SIGTERM), 0);
}

TEST_F(TensorBoardCommandTest, RefusesJobsItCannotServe) {
  const auto run = [this](const std::string& arguments) {
    const std::string command = "SPINDLE_STATE_DIR=" + (directory_ / "state").string() +
                                " HADOOP_CONF_DIR=" + (directory_ / "conf").string() + " " + SPINDLE_CLI_PATH +
                                " tensorboard " + arguments + " > /dev/null 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(run("not-an-id"), 2);
  EXPECT_EQ(run("application_1700000000000_0009"), 2);
  EXPECT_EQ(run(std::string(job) + " --bind 'no address'"), 2);
}

}  // namespace
}  // namespace spindle::tbproxy::testing

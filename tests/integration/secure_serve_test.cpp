// The desktop app's client of `spindle serve` signing in with Kerberos
// instead of the token, against the secure local YARN (scripts/local-yarn
// --secure): a real `spindle serve --keytab` with the cluster's HTTP key,
// real tickets of two users from the cluster's KDC. The server runs with a
// ticket cache of its own; the client's cache changes from test to test.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "secure_cluster_environment.h"
#include "spindle/client/dashboard_client.h"

namespace spindle::client {
namespace {

namespace fs = std::filesystem;

class KerberosThroughServe : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    environment_ = new std::map<std::string, std::string>(secure_test::secure_cluster_environment(SPINDLE_SOURCE_DIR));
    auto& env = *environment_;
    for (const char* name : secure_test::secure_cluster_variables) {
      ASSERT_FALSE(env[name].empty()) << name << " is unknown: is `scripts/local-yarn --secure up` running?";
    }
    ::setenv("KRB5_CONFIG", env["KRB5_CONFIG"].c_str(), 1);
    directory_ = new fs::path(fs::temp_directory_path() / ("spindle-secure-serve-" + std::to_string(::getpid())));
    fs::create_directories(*directory_ / "state");
    const auto kerberos = fs::path(env["SPINDLE_SECURE_KEYTAB"]).parent_path();
    ASSERT_EQ(kinit(env["SPINDLE_SECURE_KEYTAB"], env["SPINDLE_SECURE_PRINCIPAL"], "server"), 0);
    ASSERT_EQ(kinit(env["SPINDLE_SECURE_KEYTAB"], env["SPINDLE_SECURE_PRINCIPAL"], "owner"), 0);
    ASSERT_EQ(kinit((kerberos / "alice.keytab").string(), "alice@EXAMPLE.COM", "alice"), 0);
    const std::string command = "sh -c 'echo $$; exec env HADOOP_CONF_DIR=\"" + env["HADOOP_CONF_DIR"] +
                                "\" KRB5CCNAME=\"" + cache("server") + "\" SPINDLE_STATE_DIR=\"" +
                                (*directory_ / "state").string() + "\" SPINDLE_DATA_DIR=\"" +
                                (*directory_ / "state").string() + "\" \"" + SPINDLE_CLI + "\" serve --keytab \"" +
                                (kerberos / "http.keytab").string() + "\"'";
    server_ = ::popen(command.c_str(), "r");
    ASSERT_NE(server_, nullptr);
    char line[4096];
    ASSERT_NE(std::fgets(line, sizeof line, server_), nullptr);
    server_pid_ = std::atoi(line);
    ASSERT_NE(std::fgets(line, sizeof line, server_), nullptr) << "spindle serve printed no address";
    const std::string printed(line);
    // The address without its token: the client is to sign in with Kerberos.
    url_ = new std::string(printed.substr(0, printed.find("/?token=")));
    ASSERT_TRUE(url_->starts_with("http://127.0.0.1:")) << printed;
    *url_ = "http://localhost:" + url_->substr(std::string("http://127.0.0.1:").size());
  }

  static void TearDownTestSuite() {
    if (server_pid_ > 0) ::kill(server_pid_, SIGTERM);
    if (server_) ::pclose(server_);
    if (directory_) fs::remove_all(*directory_);
    delete directory_;
    delete environment_;
    delete url_;
  }

  static std::string cache(const std::string& who) { return "FILE:" + (*directory_ / (who + ".cc")).string(); }
  static int kinit(const std::string& keytab, const std::string& principal, const std::string& who) {
    const std::string command = "KRB5CCNAME='" + cache(who) + "' kinit -kt '" + keytab + "' '" + principal + "'";
    return std::system(command.c_str());
  }

  static DashboardClient client_as(const std::string& who) {
    ::setenv("KRB5CCNAME", cache(who).c_str(), 1);
    auto address = parse_dashboard_address(*url_);
    EXPECT_TRUE(address) << address.error().message;
    EXPECT_TRUE(address->token.empty());
    return DashboardClient(*address);
  }

  static std::string user() {
    const auto& principal = environment_->at("SPINDLE_SECURE_PRINCIPAL");
    return principal.substr(0, principal.find('@'));
  }

  static inline std::map<std::string, std::string>* environment_ = nullptr;
  static inline fs::path* directory_ = nullptr;
  static inline std::string* url_ = nullptr;
  static inline FILE* server_ = nullptr;
  static inline int server_pid_ = 0;
};

TEST_F(KerberosThroughServe, TheOwnersTicketIsEnoughForEveryView) {
  const auto client = client_as("owner");
  auto who = client.user();
  ASSERT_TRUE(who) << who.error().message;
  EXPECT_EQ(*who, user());
  auto jobs = client.jobs();
  ASSERT_TRUE(jobs) << jobs.error().message;
  auto cluster = client.cluster();
  ASSERT_TRUE(cluster) << cluster.error().message;
  EXPECT_FALSE(cluster->nodes.empty());
}

TEST_F(KerberosThroughServe, AnotherUsersTicketIsRefusedWithTheServersSentence) {
  auto jobs = client_as("alice").jobs();
  ASSERT_FALSE(jobs);
  EXPECT_NE(jobs.error().message.find("as alice@EXAMPLE.COM"), std::string::npos) << jobs.error().message;
  EXPECT_NE(jobs.error().message.find("acts for " + user() + " alone"), std::string::npos) << jobs.error().message;
}

TEST_F(KerberosThroughServe, WithoutATicketTheSentenceSaysKinit) {
  auto jobs = client_as("nobody").jobs();
  ASSERT_FALSE(jobs);
  EXPECT_NE(jobs.error().message.find("kinit"), std::string::npos) << jobs.error().message;
  EXPECT_NE(jobs.error().message.find("asks for a Kerberos login"), std::string::npos) << jobs.error().message;
}

}  // namespace
}  // namespace spindle::client

// A keytab job's tokens on the container side: the token file replaced
// while readers hold it, and when the master asks for the next set.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "container/token_file.h"
#include "container/token_refresher.h"
#include "spindle/yarn/credentials.h"

namespace spindle::container {
namespace {

using namespace std::chrono_literals;

yarn::Token token(std::string password, std::string kind = "HDFS_DELEGATION_TOKEN") {
  return yarn::Token{"identifier", std::move(password), std::move(kind), "127.0.0.1:8020"};
}

class TokenFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() / ("spindle-token-file-" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory_);
    path_ = (directory_ / "container_tokens").string();
    yarn::Credentials credentials;
    credentials.secrets["spindle.job.secret"] = "s3cret";
    credentials.tokens["127.0.0.1:8020"] = token("old");
    credentials.tokens["amrm"] = token("am", "YARN_AM_RM_TOKEN");
    std::ofstream(path_, std::ios::binary) << credentials.serialize();
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::filesystem::path directory_;
  std::string path_;
};

TEST_F(TokenFileTest, ReplacingKeepsTheSecretsAndTheFileStaysPrivate) {
  ASSERT_TRUE(TokenFile::replace_tokens(path_, {{"127.0.0.1:8020", token("new")}}));
  auto back = yarn::Credentials::read_file(path_);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->secrets.at("spindle.job.secret"), "s3cret");
  EXPECT_EQ(back->tokens.at("127.0.0.1:8020").password, "new");
  EXPECT_EQ(back->tokens.at("amrm").password, "am");
  const auto permissions = std::filesystem::status(path_).permissions();
  EXPECT_EQ(permissions & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_FALSE(std::filesystem::exists(path_ + ".next"));
}

TEST_F(TokenFileTest, AReaderTakesTheNewTokensWithoutTheAmRmToken) {
  TokenFile file(path_);
  auto before = file.delegation_tokens();
  EXPECT_EQ(before.at("127.0.0.1:8020").password, "old");
  EXPECT_EQ(before.count("amrm"), 0u);
  ASSERT_TRUE(TokenFile::replace_tokens(path_, {{"127.0.0.1:8020", token("new")}}));
  std::this_thread::sleep_for(1100ms);  // it looks at most once a second
  EXPECT_EQ(file.delegation_tokens().at("127.0.0.1:8020").password, "new");
}

TEST_F(TokenFileTest, AFileThatDoesNotReadLeavesTheTokensHeld) {
  TokenFile file(path_);
  (void)file.delegation_tokens();
  std::filesystem::remove(path_);
  std::ofstream(path_, std::ios::binary) << "not credentials";
  std::this_thread::sleep_for(1100ms);
  EXPECT_EQ(file.delegation_tokens().at("127.0.0.1:8020").password, "old");
  EXPECT_FALSE(TokenFile::replace_tokens(path_, {}));
}

TEST(NextRefresh, ThreeQuartersOfTheShorterOfIntervalAndLifetime) {
  const auto now = std::chrono::system_clock::now();
  // No token whose identifier tells its end: the interval alone.
  const std::map<std::string, yarn::Token> unknown{{"x", token("p")}};
  EXPECT_EQ(next_refresh(unknown, std::chrono::milliseconds(60'000), now), now + 45s);
  EXPECT_EQ(next_refresh(unknown, std::nullopt, now), std::chrono::system_clock::time_point::max());
}

TEST(NextRefresh, TheSubmittedSetIsReplacedBeforeTheResourceManagerStopsRenewingIt) {
  // A real HDFS token of the local Kerberos YARN: issued at 1795909633688 ms, seven days to live.
  std::string identifier;
  const std::string_view hex = "0004726f6f74047961726e008a01a2248e46988a01a2489aca980102";
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    identifier.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  const std::map<std::string, yarn::Token> submitted{
      {"hdfs", yarn::Token{identifier, "p", "HDFS_DELEGATION_TOKEN", "127.0.0.1:8020"}}};
  const std::chrono::system_clock::time_point issued(std::chrono::milliseconds(1795909633688));
  const auto week = std::chrono::hours(24 * 7);
  // Three quarters of the lifetime, where the renewal stops later than that.
  EXPECT_EQ(next_refresh(submitted, std::nullopt, issued), issued + week * 3 / 4);
  EXPECT_EQ(next_refresh(submitted, std::nullopt, issued, std::chrono::hours(3)), issued + week * 3 / 4);
  // A renewal that stops two days before the end: the set is due a tenth of that earlier still.
  EXPECT_EQ(next_refresh(submitted, std::nullopt, issued, std::chrono::hours(48)),
            issued + week - std::chrono::minutes(48 * 60 * 11 / 10));
  // A set the refresher got itself is renewed by nobody: its interval decides, not the ResourceManager.
  EXPECT_EQ(next_refresh(submitted, std::chrono::milliseconds(3'600'000), issued, std::chrono::hours(48)),
            issued + 45min);
}

}  // namespace
}  // namespace spindle::container

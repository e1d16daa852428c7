#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "spindle/core/spec_parser.h"
#include "spindle/core/spec_writer.h"

namespace spindle {
namespace {

class KerberosSpec : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("spindle-kerberos-spec-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(directory_);
    std::ofstream(directory_ / "alice.keytab") << "not really a keytab";
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  Result<JobSpec, Diagnostics> parse(const std::string& yaml) {
    SpecParseOptions options;
    options.base_dir = directory_;
    return parse_job_spec(yaml + "tasks: {worker: {command: x}}\n", options);
  }

  std::filesystem::path directory_;
};

TEST_F(KerberosSpec, ALoginResolvesTheKeytabAndSurvivesYaml) {
  auto parsed = parse("kerberos: {principal: alice@EXAMPLE.COM, keytab: alice.keytab}\n");
  ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.error());
  ASSERT_TRUE(parsed->kerberos.has_value());
  EXPECT_EQ(parsed->kerberos->principal, "alice@EXAMPLE.COM");
  EXPECT_EQ(parsed->kerberos->keytab, (directory_ / "alice.keytab").string());
  auto again = parse_job_spec(to_yaml(*parsed), {});
  ASSERT_TRUE(again.ok()) << format_diagnostics(again.error());
  EXPECT_EQ(again->kerberos->keytab, parsed->kerberos->keytab);
}

TEST_F(KerberosSpec, HalfALoginIsRefusedWithTheRemedy) {
  auto parsed = parse("kerberos: {principal: alice@EXAMPLE.COM}\n");
  ASSERT_FALSE(parsed.ok());
  const auto text = format_diagnostics(parsed.error());
  EXPECT_NE(text.find("kerberos: names a principal without a keytab; give both"), std::string::npos) << text;
}

TEST_F(KerberosSpec, AMissingKeytabIsNamed) {
  auto parsed = parse("kerberos: {principal: alice@EXAMPLE.COM, keytab: bob.keytab}\n");
  ASSERT_FALSE(parsed.ok());
  const auto text = format_diagnostics(parsed.error());
  EXPECT_NE(text.find("kerberos.keytab: the keytab \"" + (directory_ / "bob.keytab").string() + "\" does not exist"),
            std::string::npos)
      << text;
}

TEST_F(KerberosSpec, UnknownKeysAreRefused) {
  auto parsed = parse("kerberos: {principal: a@B, keytab: alice.keytab, password: hunter2}\n");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(format_diagnostics(parsed.error()).find("kerberos.password"), std::string::npos);
}

}  // namespace
}  // namespace spindle

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/rpc_options.h"

namespace spindle::yarn {
namespace {

std::string site(const std::string& properties) {
  return "<?xml version=\"1.0\"?>\n<configuration>\n" + properties + "</configuration>\n";
}

std::string property(const std::string& name, const std::string& value, bool final_value = false) {
  return "  <property><name>" + name + "</name><value>" + value + "</value>" +
         (final_value ? "<final>true</final>" : "") + "</property>\n";
}

class ConfDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(testing::TempDir()) / ("hadoop-conf-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  std::filesystem::path dir_;
};

TEST_F(ConfDir, ReadsTheSiteFilesInHadoopsOrder) {
  write("core-site.xml", site(property("fs.defaultFS", "hdfs://nn:8020") + property("shared", "core")));
  write("hdfs-site.xml", site(property("dfs.namenode.http-address", "nn:9870") + property("shared", "hdfs")));
  write("yarn-site.xml", site(property("yarn.resourcemanager.hostname", "rm1") + property("shared", "yarn")));
  auto conf = HadoopConfiguration::load_directory(dir_);
  ASSERT_TRUE(conf.ok()) << conf.error().message;
  EXPECT_EQ(conf->get("fs.defaultFS"), "hdfs://nn:8020");
  EXPECT_EQ(conf->get("dfs.namenode.http-address"), "nn:9870");
  EXPECT_EQ(conf->get("shared"), "yarn");
  EXPECT_EQ(conf->sources().size(), 3u);
  // The default address expands the host name the site file gave.
  EXPECT_EQ(conf->resource_manager_address(RmService::client), "rm1:8032");
  EXPECT_EQ(conf->resource_manager_address(RmService::scheduler), "rm1:8030");
  EXPECT_EQ(conf->resource_manager_address(RmService::webapp), "rm1:8088");
}

TEST_F(ConfDir, FinalValuesCannotBeOverridden) {
  write("core-site.xml", site(property("locked", "first", true) + property("open", "first")));
  write("yarn-site.xml", site(property("locked", "second") + property("open", "second")));
  auto conf = HadoopConfiguration::load_directory(dir_);
  ASSERT_TRUE(conf.ok());
  EXPECT_EQ(conf->get("locked"), "first");
  EXPECT_EQ(conf->get("open"), "second");
}

TEST_F(ConfDir, MissingDirectoryAndEmptyDirectoryAreExplained) {
  auto missing = HadoopConfiguration::load_directory(dir_ / "nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("does not exist; set HADOOP_CONF_DIR"), std::string::npos);
  auto empty = HadoopConfiguration::load_directory(dir_);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("has none of core-site.xml"), std::string::npos);
}

TEST_F(ConfDir, BrokenXmlNamesFileAndLine) {
  write("yarn-site.xml", "<configuration>\n<property>\n<name>a</name>\n</configuration>\n");
  auto conf = HadoopConfiguration::load_directory(dir_);
  ASSERT_FALSE(conf.ok());
  EXPECT_NE(conf.error().message.find((dir_ / "yarn-site.xml").string() + ":5: is not valid XML"), std::string::npos)
      << conf.error().message;
}

TEST(HadoopConfiguration, NotAConfigurationFile) {
  HadoopConfiguration conf;
  auto added = conf.add_xml("<html><body/></html>", "page.xml");
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().message, "page.xml: has no <configuration> element; it is not a Hadoop configuration file");
}

TEST(HadoopConfiguration, ExpandsVariablesAndEnvironment) {
  HadoopConfiguration conf;
  ASSERT_TRUE(conf.add_xml(site(property("base", "/data") + property("logs", "${base}/logs") +
                                property("home", "${env.SPINDLE_TEST_HOME}/x") + property("unknown", "${nope}/y") +
                                property("loop", "${loop}")),
                           "core-site.xml")
                  .ok());
  ::setenv("SPINDLE_TEST_HOME", "/home/me", 1);
  EXPECT_EQ(conf.get("logs"), "/data/logs");
  EXPECT_EQ(conf.get("home"), "/home/me/x");
  EXPECT_EQ(conf.get("unknown"), "${nope}/y");
  EXPECT_TRUE(conf.get("loop").has_value());  // stops after Hadoop's 20 rounds
}

TEST(HadoopConfiguration, DefaultsAndTypedReads) {
  HadoopConfiguration conf;
  EXPECT_EQ(conf.get("fs.defaultFS"), "file:///");
  EXPECT_EQ(conf.get("hadoop.security.authentication"), "simple");
  EXPECT_EQ(conf.get_int("ipc.client.connect.timeout", 0), 20000);
  EXPECT_FALSE(conf.get("not.a.key").has_value());
  conf.set("list", " a, b ,,c ");
  EXPECT_EQ(conf.get_list("list"), (std::vector<std::string>{"a", "b", "c"}));
  conf.set("flag", "true");
  EXPECT_TRUE(conf.get_bool("flag", false));
  conf.set("number", "12x");
  EXPECT_EQ(conf.get_int("number", 7), 7);
}

TEST(HadoopConfiguration, ResourceManagerHighAvailability) {
  HadoopConfiguration conf;
  ASSERT_TRUE(conf.add_xml(site(property("yarn.resourcemanager.ha.enabled", "true") +
                                property("yarn.resourcemanager.ha.rm-ids", "rm1,rm2") +
                                property("yarn.resourcemanager.hostname.rm1", "master1") +
                                property("yarn.resourcemanager.address.rm2", "master2:18032")),
                           "yarn-site.xml")
                  .ok());
  EXPECT_EQ(conf.resource_manager_ids(), (std::vector<std::string>{"rm1", "rm2"}));
  EXPECT_EQ(conf.resource_manager_address(RmService::client, "rm1"), "master1:8032");
  EXPECT_EQ(conf.resource_manager_address(RmService::scheduler, "rm1"), "master1:8030");
  EXPECT_EQ(conf.resource_manager_address(RmService::client, "rm2"), "master2:18032");
  EXPECT_EQ(conf.resource_manager_addresses(RmService::client),
            (std::vector<std::string>{"master1:8032", "master2:18032"}));
}

TEST(HadoopConfiguration, WithoutHaThereIsOneResourceManager) {
  HadoopConfiguration conf;
  conf.set("yarn.resourcemanager.ha.rm-ids", "rm1,rm2");
  EXPECT_EQ(conf.resource_manager_ids(), (std::vector<std::string>{""}));
}

TEST(RpcProtection, ReadsHadoopsListInAnyCase) {
  HadoopConfiguration conf;
  EXPECT_EQ(*rpc_protection(conf), (std::vector<RpcProtection>{RpcProtection::authentication}));
  conf.set("hadoop.rpc.protection", " Privacy , integrity,,privacy");
  EXPECT_EQ(*rpc_protection(conf), (std::vector<RpcProtection>{RpcProtection::privacy, RpcProtection::integrity}));
}

TEST(RpcProtection, AnUnknownLevelIsASentenceAndEveryCallSaysIt) {
  HadoopConfiguration conf;
  ASSERT_TRUE(conf.add_xml("<configuration><property><name>hadoop.rpc.protection</name><value>secret</value>"
                           "</property></configuration>",
                           "/etc/hadoop/core-site.xml")
                  .ok());
  auto levels = rpc_protection(conf);
  ASSERT_FALSE(levels.ok());
  EXPECT_EQ(levels.error().message,
            "hadoop.rpc.protection in /etc/hadoop/core-site.xml names \"secret\"; it takes authentication, integrity "
            "or privacy, or a comma-separated list of them");
  RpcOptions options;
  configure_rpc_protection(conf, options);
  EXPECT_EQ(options.configuration_problem, levels.error().message);
}

}  // namespace
}  // namespace spindle::yarn

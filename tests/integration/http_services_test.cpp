// WebHDFS and the ResourceManager's REST API of the local YARN.

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "spindle/core/shell_quote.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::yarn {
namespace {

HadoopConfiguration configuration() {
  auto loaded = HadoopConfiguration::from_environment();
  EXPECT_TRUE(loaded.ok()) << loaded.error().message;
  return *loaded;
}

WebHdfs hdfs() {
  auto client = WebHdfs::from_configuration(configuration());
  EXPECT_TRUE(client.ok()) << client.error().message;
  return *client;
}

const std::string base = "/tmp/spindle-webhdfs-test-" + std::to_string(::getpid());

TEST(WebHdfs, FilesAndDirectoriesRoundTrip) {
  WebHdfs fs = hdfs();
  ASSERT_TRUE(fs.mkdirs(base + "/a/b").ok());
  ASSERT_TRUE(fs.write(base + "/a/hello.txt", "hello, hdfs", true).ok());
  auto status = fs.status(base + "/a/hello.txt");
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_FALSE(status->directory);
  EXPECT_EQ(status->length, 11);
  EXPECT_GT(status->modification_time, 0);
  auto text = fs.read_all(base + "/a/hello.txt");
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "hello, hdfs");
  auto entries = fs.list(base + "/a");
  ASSERT_TRUE(entries.ok());
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_TRUE(*fs.rename(base + "/a/hello.txt", base + "/a/b/moved name.txt"));
  EXPECT_FALSE(*fs.exists(base + "/a/hello.txt"));
  EXPECT_TRUE(*fs.exists(base + "/a/b/moved name.txt"));
  EXPECT_EQ(*fs.read_all(base + "/a/b/moved name.txt"), "hello, hdfs");
  EXPECT_EQ(fs.uri("/x/y").rfind("hdfs://", 0), 0u);
  EXPECT_TRUE(*fs.remove(base, true));
  EXPECT_FALSE(*fs.exists(base));
}

TEST(WebHdfs, AFileWrittenWholeIsReadOldOrNewNeverPartlyEvenWithTwoWriters) {
  WebHdfs fs = hdfs();
  const auto path = base + "-whole/record.json";
  const auto version = [](int n) { return std::string(256 * 1024, static_cast<char>('a' + n % 26)); };
  ASSERT_TRUE(fs.write_whole(path, version(0)).ok());
  // Two writers at once, as a sweep's controller stopping and `sweep kill` are:
  // neither may refuse the other, and a reader sees whole versions only.
  std::atomic<int> writing{2};
  std::mutex problems_mutex;
  std::string write_problem;
  const auto write_versions = [&](int first, int last) {
    WebHdfs own = hdfs();
    for (int n = first; n <= last; ++n) {
      if (auto written = own.write_whole(path, version(n)); !written) {
        std::lock_guard lock(problems_mutex);
        write_problem = written.error().message;
        break;
      }
    }
    --writing;
  };
  std::thread one(write_versions, 1, 8);
  std::thread other(write_versions, 9, 16);
  WebHdfs reader = hdfs();
  int reads = 0;
  std::string bad_read;
  while (writing > 0 && bad_read.empty()) {
    auto text = reader.read_all(path);
    ++reads;
    if (!text) {
      bad_read = text.error().message;
    } else if (text->size() != 256 * 1024 || text->find_first_not_of(text->front()) != std::string::npos) {
      bad_read = "a read of " + std::to_string(text->size()) + " bytes that is no whole version";
    }
  }
  one.join();
  other.join();
  EXPECT_EQ(write_problem, "");
  EXPECT_EQ(bad_read, "") << "after " << reads << " reads";
  EXPECT_GT(reads, 1);
  const auto last = fs.read_all(path);
  ASSERT_TRUE(last.ok()) << last.error().message;
  EXPECT_TRUE(*last == version(8) || *last == version(16)) << "the last write of one of the writers";
  auto entries = fs.list(base + "-whole");
  ASSERT_TRUE(entries.ok()) << entries.error().message;
  EXPECT_EQ(entries->size(), 1u) << "nothing is left beside the file";
  EXPECT_TRUE(*fs.remove(base + "-whole", true));
}

TEST(WebHdfs, ProblemsAreSentences) {
  WebHdfs fs = hdfs();
  auto missing = fs.status("/no/such/file");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("looking at /no/such/file in HDFS: File does not exist"), std::string::npos)
      << missing.error().message;
  ASSERT_TRUE(fs.write(base + "-once", "x", true).ok());
  auto again = fs.write(base + "-once", "y", false);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("writing " + base + "-once to HDFS"), std::string::npos);
  (void)fs.remove(base + "-once", false);
  WebHdfs nowhere(WebHdfs::Options{.namenode_http = "127.0.0.1:9",
                                   .default_fs = "hdfs://127.0.0.1:8020",
                                   .user = "me",
                                   .kerberos = false,
                                   .delegation = std::nullopt,
                                   .connect_timeout = std::chrono::milliseconds(2'000)});
  auto refused = nowhere.status("/");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("127.0.0.1:9"), std::string::npos);
}

long max_resident_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

std::string sha256_of(EVP_MD_CTX* context) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(context, digest, &length);
  return std::string(reinterpret_cast<char*>(digest), length);
}

TEST(WebHdfs, LargeFilesStreamWithoutBeingHeld) {
  WebHdfs fs = hdfs();
  constexpr std::int64_t size = 256LL * 1024 * 1024;
  const long before = max_resident_kib();
  // The data is made as it is sent and hashed as it comes back; neither side keeps it.
  EVP_MD_CTX* sent = EVP_MD_CTX_new();
  EVP_DigestInit_ex(sent, EVP_sha256(), nullptr);
  std::int64_t produced = 0;
  std::int64_t last_progress = 0;
  auto written = fs.write(
      base + "-large",
      [&](char* buffer, std::size_t room) {
        const auto n =
            static_cast<std::size_t>(std::min<std::int64_t>(static_cast<std::int64_t>(room), size - produced));
        for (std::size_t i = 0; i < n; ++i)
          buffer[i] = static_cast<char>((produced + static_cast<std::int64_t>(i)) * 31 % 251);
        EVP_DigestUpdate(sent, buffer, n);
        produced += static_cast<std::int64_t>(n);
        return n;
      },
      size, true, [&](std::int64_t done, std::int64_t) { last_progress = done; });
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(last_progress, size);
  EXPECT_EQ((*fs.status(base + "-large")).length, size);
  EVP_MD_CTX* received = EVP_MD_CTX_new();
  EVP_DigestInit_ex(received, EVP_sha256(), nullptr);
  std::int64_t consumed = 0;
  auto read = fs.read(base + "-large", [&](std::string_view chunk) {
    EVP_DigestUpdate(received, chunk.data(), chunk.size());
    consumed += static_cast<std::int64_t>(chunk.size());
    return true;
  });
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(consumed, size);
  EXPECT_EQ(sha256_of(sent), sha256_of(received));
  EVP_MD_CTX_free(sent);
  EVP_MD_CTX_free(received);
  const long grown_mib = (max_resident_kib() - before) / 1024;
  EXPECT_LT(grown_mib, 32) << "the transfer held " << grown_mib << " MiB";
  (void)fs.remove(base + "-large", false);
}

TEST(ResourceManagerRest, ClusterNodesSchedulerLabels) {
  auto rest = ResourceManagerRest::from_configuration(configuration());
  auto info = rest.cluster_info();
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ((*info)["clusterInfo"]["state"], "STARTED");
  auto nodes = rest.nodes();
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ((*nodes)["nodes"]["node"].size(), 2u);
  auto scheduler = rest.scheduler();
  ASSERT_TRUE(scheduler.ok());
  EXPECT_EQ((*scheduler)["scheduler"]["schedulerInfo"]["type"], "capacityScheduler");
  auto labels = rest.node_labels();
  ASSERT_TRUE(labels.ok());
  EXPECT_NE(labels->dump().find("gpu"), std::string::npos);
  auto missing = rest.application("application_1_9999");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("application_1_9999"), std::string::npos) << missing.error().message;
}

// A running application master's stdout, read from its NodeManager while it runs.
TEST(ResourceManagerRest, LogsOfARunningContainer) {
  const auto conf = configuration();
  ApplicationClient client(ApplicationClient::options_for(conf));
  auto created = client.new_application();
  ASSERT_TRUE(created.ok()) << created.error().message;
  SubmissionRequest request;
  request.id = created->id;
  request.name = "container-log-test";
  request.am.commands = {shell_quote(DISTRIBUTED_SHELL_MASTER) +
                         " '-|0|sleep 6' 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"};
  ASSERT_TRUE(client.submit(request).ok());
  auto rest = ResourceManagerRest::from_configuration(conf);
  const std::string app = created->id.to_string();
  std::string log;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline && log.find("registered in queue") == std::string::npos) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto attempts = rest.attempts(app);
    if (!attempts.ok() || (*attempts)["appAttempts"]["appAttempt"].empty()) continue;
    const auto& attempt = (*attempts)["appAttempts"]["appAttempt"][0];
    if (!attempt.contains("containerId") || !attempt.contains("nodeHttpAddress")) continue;
    auto text = rest.container_log(attempt["nodeHttpAddress"], attempt["containerId"], "stdout");
    if (text.ok()) log = *text;
  }
  // Hadoop 3.4 and later name the queue by its path, 3.3 by its leaf name.
  EXPECT_TRUE(log.starts_with("registered in queue root.default\n") || log.starts_with("registered in queue default\n"))
      << log;
  // The same application seen through ApplicationClientProtocol while it runs.
  auto attempts = client.attempts(created->id);
  ASSERT_TRUE(attempts.ok()) << attempts.error().message;
  ASSERT_EQ(attempts->size(), 1u);
  auto containers = client.containers(attempts->front().id);
  ASSERT_TRUE(containers.ok()) << containers.error().message;
  bool saw_master = false;
  for (const auto& container : *containers) {
    saw_master = saw_master || (container.id == attempts->front().am_container && container.state == "RUNNING");
  }
  EXPECT_TRUE(saw_master) << attempts->front().am_container;
  (void)client.kill(created->id, "test done");
}

}  // namespace
}  // namespace spindle::yarn

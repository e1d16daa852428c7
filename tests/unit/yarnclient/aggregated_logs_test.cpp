#include "spindle/yarn/aggregated_logs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace spindle::yarn {
namespace {

const std::filesystem::path data_dir = SPINDLE_TEST_DATA_DIR "/aggregated-logs";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

using LogKey = std::pair<std::string, std::string>;  // container, file

// Every (container, file) and its contents as Hadoop's LogsCLI printed them.
std::map<LogKey, std::string> logs_cli_output(const std::string& text) {
  std::map<LogKey, std::string> logs;
  std::string container;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    const auto line = text.substr(at, end - at);
    at = end == std::string::npos ? text.size() : end + 1;
    if (line.starts_with("Container: ")) container = line.substr(11, line.find(" on ") - 11);
    if (!line.starts_with("LogType:")) continue;
    const auto file = line.substr(8);
    std::size_t length = 0;
    while (at < text.size()) {
      const auto next = text.find('\n', at);
      const auto header = text.substr(at, next - at);
      at = next + 1;
      if (header.starts_with("LogLength:")) length = std::stoul(header.substr(10));
      if (header == "LogContents:") break;
    }
    logs[{container, file}] = text.substr(at, length);
    at += length;
  }
  return logs;
}

struct Sample {
  std::string prefix;  // format-compression
  std::string file;
  std::string application;
};

std::vector<Sample> samples() {
  std::vector<Sample> found;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir)) {
    const auto name = entry.path().filename().string();
    if (entry.path().extension() == ".logscli" || name == "README.md") continue;
    const auto split = name.find('_');
    const auto node = name.rfind("_localhost");
    found.push_back({name.substr(0, split), name, name.substr(split + 1, node - split - 1)});
  }
  return found;
}

TEST(AggregatedLogs, EveryFormatReadsAsHadoopsLogsCliPrintsIt) {
  const auto all = samples();
  ASSERT_EQ(all.size(), 4u) << "one sample per format and compression in " << data_dir;
  for (const auto& sample : all) {
    SCOPED_TRACE(sample.file);
    const auto expected = logs_cli_output(read_file(data_dir / (sample.prefix + ".logscli")));
    ASSERT_EQ(expected.size(), 18u);  // three containers, six files each
    MemoryByteSource source(read_file(data_dir / sample.file));
    auto logs = read_aggregated_logs(source, sample.file, sample.application, {});
    ASSERT_TRUE(logs) << logs.error().message;
    std::map<LogKey, std::string> read;
    for (const auto& log : *logs) {
      EXPECT_EQ(log.length, log.contents.size());
      read[{log.container, log.file}] = log.contents;
    }
    EXPECT_EQ(read, expected);
    // The tasks' own lines are there, so the comparison is not of two empty sets.
    bool greeted = false;
    for (const auto& [key, contents] : read) greeted |= contents.starts_with("hello from worker:");
    EXPECT_TRUE(greeted);
  }
}

TEST(AggregatedLogs, FilterTakesOneContainersFileAndCanListWithoutContents) {
  for (const auto& sample : samples()) {
    SCOPED_TRACE(sample.file);
    const auto expected = logs_cli_output(read_file(data_dir / (sample.prefix + ".logscli")));
    const auto& [key, contents] = *expected.rbegin();
    MemoryByteSource source(read_file(data_dir / sample.file));
    AggregatedLogFilter filter;
    filter.containers = {key.first};
    filter.files = {key.second};
    auto one = read_aggregated_logs(source, sample.file, sample.application, filter);
    ASSERT_TRUE(one) << one.error().message;
    ASSERT_EQ(one->size(), 1u);
    EXPECT_EQ((*one)[0].contents, contents);
    AggregatedLogFilter listing;
    listing.contents = false;
    auto listed = read_aggregated_logs(source, sample.file, sample.application, listing);
    ASSERT_TRUE(listed) << listed.error().message;
    ASSERT_EQ(listed->size(), expected.size());
    for (const auto& log : *listed) {
      EXPECT_TRUE(log.contents.empty());
      EXPECT_EQ(log.length, expected.at({log.container, log.file}).size());
    }
  }
}

TEST(AggregatedLogs, IndexedFilesKeepEachLogsModificationTime) {
  for (const auto& sample : samples()) {
    MemoryByteSource source(read_file(data_dir / sample.file));
    auto logs = read_aggregated_logs(source, sample.file, sample.application, {});
    ASSERT_TRUE(logs) << logs.error().message;
    for (const auto& log : *logs) {
      if (sample.prefix.starts_with("ifile")) {
        EXPECT_GT(log.modified_ms, 1'700'000'000'000) << log.container << " " << log.file;
      } else {
        EXPECT_EQ(log.modified_ms, 0);
      }
    }
  }
}

TEST(AggregatedLogs, AFileCutShortNamesTheFileAndTheByte) {
  for (const auto& sample : samples()) {
    SCOPED_TRACE(sample.file);
    const auto whole = read_file(data_dir / sample.file);
    int refused = 0;
    for (std::size_t keep :
         {std::size_t{0}, std::size_t{10}, whole.size() / 3, whole.size() / 2, whole.size() - 40, whole.size() - 1}) {
      MemoryByteSource source(whole.substr(0, keep));
      auto logs = read_aggregated_logs(source, "/app-logs/x/" + sample.file, sample.application, {});
      ASSERT_FALSE(logs) << "cut to " << keep << " bytes";
      EXPECT_NE(logs.error().message.find("/app-logs/x/" + sample.file), std::string::npos) << logs.error().message;
      EXPECT_NE(logs.error().message.find("byte"), std::string::npos) << logs.error().message;
      ++refused;
    }
    EXPECT_EQ(refused, 6);
  }
}

TEST(AggregatedLogs, DamagedBytesAreRefusedOrReadNeverCrash) {
  for (const auto& sample : samples()) {
    SCOPED_TRACE(sample.file);
    const auto whole = read_file(data_dir / sample.file);
    int refused = 0;
    for (std::size_t at = 0; at < whole.size(); at += 97) {
      auto damaged = whole;
      damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
      MemoryByteSource source(damaged);
      auto logs = read_aggregated_logs(source, sample.file, sample.application, {});
      if (!logs) {
        EXPECT_NE(logs.error().message.find(sample.file), std::string::npos) << logs.error().message;
        ++refused;
      }
    }
    EXPECT_GT(refused, 0);
  }
}

TEST(AggregatedLogs, AnIndexedFileOfAnotherApplicationIsRefused) {
  for (const auto& sample : samples()) {
    if (!sample.prefix.starts_with("ifile")) continue;
    MemoryByteSource source(read_file(data_dir / sample.file));
    auto logs = read_indexed_logs(source, sample.file, "application_1_0002", {});
    ASSERT_FALSE(logs);
    EXPECT_NE(logs.error().message.find("application_1_0002"), std::string::npos) << logs.error().message;
  }
}

TEST(AggregatedLogs, DirectoriesFollowHadoopsLayouts) {
  HadoopConfiguration configuration;
  configuration.set("yarn.nodemanager.remote-app-log-dir", "/app-logs/");
  configuration.set("yarn.log-aggregation.file-formats", "IFile,TFile");
  configuration.set("yarn.log-aggregation.TFile.remote-app-log-dir-suffix", "tlogs");
  const auto directories = aggregated_log_directories(configuration, "alice", "application_1700000000000_12345");
  std::vector<std::string> paths;
  for (const auto& directory : directories) paths.push_back(directory.format + " " + directory.path);
  const std::vector<std::string> expected = {
      "IFile /app-logs/alice/bucket-logs-ifile/2345/application_1700000000000_12345",
      "TFile /app-logs/alice/bucket-tlogs/2345/application_1700000000000_12345",
      "IFile /app-logs/alice/logs-ifile/application_1700000000000_12345",
      "IFile /app-logs/alice/logs/application_1700000000000_12345",
      "IFile /app-logs/alice/bucket-logs/2345/application_1700000000000_12345",
      "TFile /app-logs/alice/tlogs/application_1700000000000_12345",
  };
  EXPECT_EQ(paths, expected);
  EXPECT_FALSE(log_aggregation_enabled(configuration));
  configuration.set("yarn.log-aggregation-enable", "true");
  EXPECT_TRUE(log_aggregation_enabled(configuration));
}

}  // namespace
}  // namespace spindle::yarn

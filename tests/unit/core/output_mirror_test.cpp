// The task executor's output mirror against a scripted WebHDFS (an HA pair of NameNodes and their
// DataNodes, in memory) on a real local directory and inotify: what HDFS holds comes in at the
// start; what the task closes or moves in goes out whole, in close order, through a temporary
// name, even when it is written again while it goes; writers' temporaries never go; deletions
// pass on only for the task's own files, and not for a directory removed as a whole; others'
// files come in; event files go as they grow and grow in place; failovers and refusals are lived
// through or reported within the patience given.

#include "container/output_mirror.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "scripted_webhdfs.h"

namespace spindle::container {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using yarn::testing::ScriptedWebHdfs;

const std::string job = "/user/tester/runs/wine";
constexpr auto pull_interval = 100ms;
constexpr auto open_file_interval = 200ms;
// What the mirror does within a second; the limit only bounds a failing test.
constexpr auto limit = 5s;

std::string remote(const std::string& relative) {
  return job + "/" + relative;
}

// Every byte value, so that a copy that is not byte for byte shows.
std::string binary(std::size_t size, unsigned seed) {
  std::string data(size, '\0');
  std::uint32_t state = seed * 2654435761u + 1;
  for (auto& byte : data) {
    state = state * 1664525u + 1013904223u;
    byte = static_cast<char>(state >> 24);
  }
  return data;
}

void write_file(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), std::ssize(content));
}

// As TensorFlow writes its "checkpoint" state file: whole under "<name>.tmp<32 hex digits>", then renamed.
void write_atomically(const fs::path& path, const std::string& content) {
  const fs::path temporary = path.string() + ".tmp0123456789abcdef0123456789abcdef";
  write_file(temporary, content);
  fs::rename(temporary, path);
}

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds within = limit) {
  const auto deadline = Clock::now() + within;
  while (!condition()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

std::string base_name(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

std::string parent_of(const std::string& path) {
  return path.substr(0, path.rfind('/'));
}

bool is_mirror_temporary(const std::string& path) {
  const auto name = base_name(path);
  return name.starts_with(".spindle-worker-1-") && name.ends_with(".partial");
}

class OutputMirrorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("spindle-output-mirror-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
    local_ = root_ / "spindle-output";
  }
  void TearDown() override {
    mirror_.reset();
    fs::remove_all(root_);
  }

  ::testing::AssertionResult start() {
    OutputMirror::Options options;
    options.local = local_;
    options.remote = job;
    options.writer = "worker-1";
    options.pull_interval = pull_interval;
    options.open_file_interval = open_file_interval;
    options.log = [this](const std::string& line) {
      std::lock_guard lock(log_mutex_);
      log_ += line + "\n";
    };
    auto started = OutputMirror::start(hdfs_.client(), std::move(options));
    if (!started) return ::testing::AssertionFailure() << started.error().message;
    mirror_ = std::move(*started);
    return ::testing::AssertionSuccess();
  }

  ::testing::AssertionResult finish(std::chrono::seconds patience = 10s) {
    auto finished = mirror_->finish(patience);
    if (!finished) return ::testing::AssertionFailure() << finished.error().message << "\n" << log();
    return ::testing::AssertionSuccess();
  }

  std::string log() {
    std::lock_guard lock(log_mutex_);
    return "mirror's log:\n" + log_;
  }

  bool in_hdfs(const std::string& relative, const std::string& content) const {
    return hdfs_.content(remote(relative)) == content;
  }

  // Where the mirror's successful RENAMEs put files, relative to the job's output, in order.
  std::vector<std::string> renamed_to() const {
    std::vector<std::string> names;
    for (const auto& operation : hdfs_.operations()) {
      if (operation.op == "RENAME" && operation.status == 200)
        names.push_back(operation.destination.substr(job.size() + 1));
    }
    return names;
  }

  std::vector<ScriptedWebHdfs::Operation> operations(const std::string& op) const {
    std::vector<ScriptedWebHdfs::Operation> found;
    for (auto& operation : hdfs_.operations()) {
      if (operation.op == op) found.push_back(std::move(operation));
    }
    return found;
  }

  // The mirror's own temporaries left in HDFS (none, when it is done).
  std::vector<std::string> temporaries_in_hdfs() const {
    std::vector<std::string> left;
    for (const auto& [relative, content] : hdfs_.files(job)) {
      if (base_name(relative).starts_with(".spindle-")) left.push_back(relative);
    }
    return left;
  }

  ScriptedWebHdfs hdfs_;
  fs::path root_, local_;
  std::mutex log_mutex_;
  std::string log_;
  std::unique_ptr<OutputMirror> mirror_;
};

TEST_F(OutputMirrorTest, StartCopiesWhatHdfsHoldsInByteForByte) {
  const std::map<std::string, std::string> held{
      {"model.ckpt-10.index", binary(300, 1)},
      {"model.ckpt-10.data-00000-of-00001", binary(200'000, 2)},
      {"checkpoint", "model_checkpoint_path: \"model.ckpt-10\"\n"},
      {"logs/train/events.out.tfevents.1700000000.chief", binary(5000, 3)},
      {"logs/eval/deep/empty", ""},
  };
  for (const auto& [relative, content] : held) hdfs_.put(remote(relative), content);
  // Another task's transfer under way, and a checkpoint TensorFlow has not renamed into place yet.
  hdfs_.put(remote(".spindle-worker-2-7.partial"), "half of it");
  hdfs_.put(remote("model.ckpt-20_temp/part-00000-of-00001"), "not yet");

  ASSERT_TRUE(start());
  for (const auto& [relative, content] : held) EXPECT_EQ(read_file(local_ / relative), content) << relative;
  EXPECT_FALSE(fs::exists(local_ / ".spindle-worker-2-7.partial"));
  EXPECT_FALSE(fs::exists(local_ / "model.ckpt-20_temp"));
  std::vector<std::string> local_files;
  for (const auto& entry : fs::recursive_directory_iterator(local_)) {
    if (entry.is_regular_file()) local_files.push_back(entry.path().lexically_relative(local_).generic_string());
  }
  EXPECT_EQ(local_files.size(), held.size()) << ::testing::PrintToString(local_files);

  ASSERT_TRUE(finish());
  // What came in is in HDFS already: nothing goes back.
  EXPECT_TRUE(operations("CREATE").empty());
  EXPECT_TRUE(operations("RENAME").empty());
  EXPECT_TRUE(operations("DELETE").empty());
  std::int64_t bytes = 0;
  for (const auto& [relative, content] : held) bytes += std::ssize(content);
  EXPECT_EQ(mirror_->totals().files_in, std::ssize(held));
  EXPECT_EQ(mirror_->totals().bytes_in, bytes);
  EXPECT_EQ(mirror_->totals().files_out, 0);
}

TEST_F(OutputMirrorTest, AClosedFileGoesUnderATemporaryNameAndIsRenamedOverItsOwn) {
  hdfs_.put(remote("model/weights.bin"), "the version of an earlier attempt");
  // New in HDFS; here, followed from the start, so that each file in them is seen closing.
  fs::create_directories(local_ / "metrics" / "eval");
  ASSERT_TRUE(start());
  EXPECT_TRUE(hdfs_.is_directory(job));
  const std::string weights = binary(300'000, 4);
  const std::string metrics = R"({"accuracy": 0.93})";
  write_file(local_ / "model" / "weights.bin", weights);
  write_file(local_ / "metrics" / "eval" / "final.json", metrics);

  EXPECT_TRUE(eventually([&] { return in_hdfs("model/weights.bin", weights); })) << log();
  EXPECT_TRUE(eventually([&] { return in_hdfs("metrics/eval/final.json", metrics); })) << log();
  ASSERT_TRUE(finish());

  // Each CREATE, at the NameNode and at the DataNode, is of a temporary beside the file.
  const auto creates = operations("CREATE");
  ASSERT_FALSE(creates.empty());
  for (const auto& create : creates) {
    EXPECT_TRUE(is_mirror_temporary(create.path)) << create.path;
    EXPECT_TRUE(create.path.starts_with(remote("model/")) || create.path.starts_with(remote("metrics/eval/")))
        << create.path;
  }
  // Each file got to its name by one rename with OVERWRITE, from a temporary written whole before.
  const auto renames = operations("RENAME");
  ASSERT_EQ(renames.size(), 2u);
  for (const auto& rename : renames) {
    EXPECT_EQ(rename.status, 200);
    EXPECT_EQ(rename.rename_options, "OVERWRITE");
    EXPECT_TRUE(is_mirror_temporary(rename.path)) << rename.path;
    EXPECT_EQ(parent_of(rename.path), parent_of(rename.destination));
    EXPECT_TRUE(std::any_of(creates.begin(), creates.end(), [&](const auto& create) {
      return create.datanode && create.status == 201 && create.path == rename.path;
    })) << rename.path;
  }
  // A reader of the file saw the old version or the new one, never part of one.
  EXPECT_EQ(hdfs_.versions(remote("model/weights.bin")),
            (std::vector<std::string>{"the version of an earlier attempt", weights}));
  EXPECT_EQ(hdfs_.versions(remote("metrics/eval/final.json")), std::vector<std::string>{metrics});
  EXPECT_TRUE(temporaries_in_hdfs().empty()) << ::testing::PrintToString(temporaries_in_hdfs());
}

TEST_F(OutputMirrorTest, EveryClosedFileGoesWithoutWaitingForTheEnd) {
  // The kernel sends a close event a moment before it lets go of the writer, a longer moment for
  // a file truncated and written again (ext4 then starts writing it out): a file just closed must
  // not be taken for one still being written, and left for the last pass.
  std::map<std::string, std::string> written;
  for (int step = 0; step < 20; ++step) {
    const std::string name = "step-" + std::to_string(step) + ".pt";
    hdfs_.put(remote(name), "from an earlier attempt");
    written[name] = binary(100'000 + static_cast<std::size_t>(step), 60 + static_cast<unsigned>(step));
  }
  ASSERT_TRUE(start());
  for (const auto& [name, content] : written) {
    write_file(local_ / name, content);
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(eventually([&] { return hdfs_.files(job) == written; })) << [&] {
    std::string missing;
    const auto there = hdfs_.files(job);
    for (const auto& [name, content] : written) {
      if (!there.contains(name) || there.at(name) != content) missing += name + " ";
    }
    return "not in HDFS: " + missing + "\n" + log();
  }();
  ASSERT_TRUE(finish());
}

TEST_F(OutputMirrorTest, FilesReachHdfsInTheOrderTheyWereClosed) {
  ASSERT_TRUE(start());
  // A checkpoint as TensorFlow writes it: data, index, then the state file that names them.
  write_file(local_ / "model.ckpt-1.data-00000-of-00001", binary(100'000, 5));
  write_file(local_ / "model.ckpt-1.index", binary(400, 6));
  write_atomically(local_ / "checkpoint", "model_checkpoint_path: \"model.ckpt-1\"\n");
  write_file(local_ / "model.ckpt-2.data-00000-of-00001", binary(100'000, 7));
  write_file(local_ / "model.ckpt-2.index", binary(400, 8));
  write_atomically(local_ / "checkpoint", "model_checkpoint_path: \"model.ckpt-2\"\n");

  EXPECT_TRUE(eventually([&] { return in_hdfs("checkpoint", "model_checkpoint_path: \"model.ckpt-2\"\n"); })) << log();
  ASSERT_TRUE(finish());
  const auto renamed = renamed_to();
  const auto before = [&](std::size_t end, const std::string& name) {
    return std::find(renamed.begin(), renamed.begin() + static_cast<std::ptrdiff_t>(end), name) !=
           renamed.begin() + static_cast<std::ptrdiff_t>(end);
  };
  // Whenever HDFS's "checkpoint" named a checkpoint, its data and index were there already.
  const auto versions = hdfs_.versions(remote("checkpoint"));
  std::size_t version = 0;
  for (std::size_t at = 0; at < renamed.size(); ++at) {
    if (renamed[at] != "checkpoint") continue;
    ASSERT_LT(version, versions.size());
    const auto& named = versions[version++];
    const auto quote = named.find('"');
    const std::string prefix = named.substr(quote + 1, named.rfind('"') - quote - 1);
    EXPECT_TRUE(before(at, prefix + ".data-00000-of-00001")) << named << ::testing::PrintToString(renamed);
    EXPECT_TRUE(before(at, prefix + ".index")) << named << ::testing::PrintToString(renamed);
  }
  EXPECT_EQ(version, versions.size());
  for (const std::string prefix : {"model.ckpt-1", "model.ckpt-2"}) {
    const auto index = std::find(renamed.begin(), renamed.end(), prefix + ".index");
    ASSERT_NE(index, renamed.end()) << ::testing::PrintToString(renamed);
    EXPECT_TRUE(before(static_cast<std::size_t>(index - renamed.begin()), prefix + ".data-00000-of-00001"))
        << ::testing::PrintToString(renamed);
  }
  for (const auto& operation : hdfs_.operations()) {
    EXPECT_EQ(operation.path.find(".tmp0123456789abcdef"), std::string::npos) << operation.path;
  }
}

TEST_F(OutputMirrorTest, AFileWrittenAgainWhileItWaitsTakesANewPlaceInLine) {
  ASSERT_TRUE(start());
  // No NameNode is active (a failover under way): nothing can go, and the line builds up.
  hdfs_.make_active(-1);
  const std::string data_1 = binary(50'000, 9), data_2 = binary(50'000, 10);
  const std::string names_2 = "model_checkpoint_path: \"model.ckpt-2\"\n";
  write_file(local_ / "model.ckpt-1.data", data_1);
  write_atomically(local_ / "checkpoint", "model_checkpoint_path: \"model.ckpt-1\"\n");
  write_file(local_ / "model.ckpt-2.data", data_2);
  write_atomically(local_ / "checkpoint", names_2);
  ASSERT_TRUE(eventually([&] {
    const auto creates = operations("CREATE");
    return std::any_of(creates.begin(), creates.end(), [](const auto& create) { return create.status == 403; });
  })) << log();

  // nn2 takes over.
  hdfs_.make_active(1);
  EXPECT_TRUE(eventually([&] { return in_hdfs("checkpoint", names_2); })) << log();
  ASSERT_TRUE(finish());
  EXPECT_TRUE(in_hdfs("model.ckpt-1.data", data_1));
  EXPECT_TRUE(in_hdfs("model.ckpt-2.data", data_2));
  // The state file went once, after both checkpoints it could name; its first version never.
  EXPECT_EQ(renamed_to(), (std::vector<std::string>{"model.ckpt-1.data", "model.ckpt-2.data", "checkpoint"}));
  EXPECT_EQ(hdfs_.versions(remote("checkpoint")), std::vector<std::string>{names_2});
  // Once nn2 answered, the client went to it first.
  const auto all = hdfs_.operations();
  const auto first_on_nn2 = std::find_if(
      all.begin(), all.end(), [](const auto& operation) { return operation.namenode == 1 && operation.status < 400; });
  ASSERT_NE(first_on_nn2, all.end());
  EXPECT_TRUE(
      std::none_of(std::next(first_on_nn2), all.end(), [](const auto& operation) { return operation.namenode == 0; }));
}

TEST_F(OutputMirrorTest, WritersTemporaryNamesNeverReachHdfs) {
  ASSERT_TRUE(start());
  write_file(local_ / "checkpoint.tmp0123456789abcdef0123456789abcdef", "a state file on its way");
  write_file(local_ / "model.ckpt-5_temp" / "part-00000-of-00001.data-00000-of-00001", binary(1000, 11));
  write_file(local_ / "model.ckpt-5_temp_1a2b" / "part-00000-of-00001.index", binary(100, 12));
  write_file(local_ / "train.tempstate1234567890", "iterator state on its way");
  write_file(local_ / ".spindle-in-4", "a copy coming in");
  write_file(local_ / "logs" / ".spindle-worker-7-1.partial", "another writer's, copied here");
  write_file(local_ / "done", "the last file written");

  ASSERT_TRUE(eventually([&] { return in_hdfs("done", "the last file written"); })) << log();
  ASSERT_TRUE(finish());
  std::vector<std::string> in_hdfs_now;
  for (const auto& [relative, content] : hdfs_.files(job)) in_hdfs_now.push_back(relative);
  EXPECT_EQ(in_hdfs_now, std::vector<std::string>{"done"});
  for (const auto& operation : hdfs_.operations()) {
    for (const auto* transient : {".tmp0123", "_temp", ".tempstate", ".spindle-in-", "/logs"}) {
      EXPECT_EQ(operation.path.find(transient), std::string::npos) << operation.op << " " << operation.path;
      EXPECT_EQ(operation.destination.find(transient), std::string::npos) << operation.destination;
    }
  }
  EXPECT_EQ(mirror_->totals().files_out, 1);
}

TEST_F(OutputMirrorTest, AFileOrDirectoryMovedInIsCopied) {
  // Written beside the output directory, on the same file system, then moved in whole.
  const fs::path staging = root_ / "staging";
  const std::string exported = binary(20'000, 13), variables = binary(3000, 14), graph = binary(7000, 15);
  write_file(staging / "exported.bin", exported);
  write_file(staging / "saved_model" / "variables" / "variables.index", variables);
  write_file(staging / "saved_model" / "saved_model.pb", graph);
  ASSERT_TRUE(start());

  fs::rename(staging / "exported.bin", local_ / "exported.bin");
  fs::rename(staging / "saved_model", local_ / "saved_model");
  EXPECT_TRUE(eventually([&] { return in_hdfs("exported.bin", exported); })) << log();
  EXPECT_TRUE(eventually([&] { return in_hdfs("saved_model/variables/variables.index", variables); })) << log();
  EXPECT_TRUE(eventually([&] { return in_hdfs("saved_model/saved_model.pb", graph); })) << log();
  ASSERT_TRUE(finish());
  EXPECT_EQ(mirror_->totals().files_out, 3);
  EXPECT_TRUE(temporaries_in_hdfs().empty());
}

// A directory whose creation the mirror sees late (or one moved in) already holds files: they go
// in the order they were written, as their closes would have put them, not as the directory lists
// them. A host cut off meanwhile must lose only the last of them.
TEST_F(OutputMirrorTest, FilesFoundInADirectorySeenLateGoOldestFirst) {
  const fs::path staging = root_ / "staging" / "worker-1-attempt-0";
  const auto written_at = fs::file_time_type::clock::now() - 1h;
  std::vector<std::string> oldest_first;
  for (int index = 0; index < 40; ++index) {
    char name[16];
    std::snprintf(name, sizeof name, "%05d", index);
    write_file(staging / name, binary(2000, static_cast<unsigned>(index)));
    fs::last_write_time(staging / name, written_at + std::chrono::seconds(index));
    oldest_first.push_back(std::string("worker-1-attempt-0/") + name);
  }
  ASSERT_TRUE(start());
  fs::rename(staging, local_ / "worker-1-attempt-0");
  EXPECT_TRUE(eventually([&] { return renamed_to().size() == oldest_first.size(); })) << log();
  ASSERT_TRUE(finish());
  EXPECT_EQ(renamed_to(), oldest_first);
}

TEST_F(OutputMirrorTest, DeletionsPassOnOnlyForFilesThisTaskWrote) {
  hdfs_.put(remote("restored.txt"), "from an earlier attempt");
  fs::create_directories(local_ / "sub");
  ASSERT_TRUE(start());
  write_file(local_ / "mine.txt", "written here");
  write_file(local_ / "sub" / "moved-away.txt", "written here too");
  ASSERT_TRUE(eventually([&] { return in_hdfs("mine.txt", "written here"); })) << log();
  ASSERT_TRUE(eventually([&] { return in_hdfs("sub/moved-away.txt", "written here too"); })) << log();
  hdfs_.put(remote("others/pulled.txt"), "another task's");
  ASSERT_TRUE(eventually([&] { return fs::exists(local_ / "others" / "pulled.txt"); })) << log();

  fs::remove(local_ / "mine.txt");
  fs::rename(local_ / "sub" / "moved-away.txt", root_ / "elsewhere.txt");
  // A reader's copies vanishing (YARN cleaning the container's directory away).
  fs::remove(local_ / "restored.txt");
  fs::remove(local_ / "others" / "pulled.txt");
  EXPECT_TRUE(eventually([&] { return !hdfs_.content(remote("mine.txt")); })) << log();
  EXPECT_TRUE(eventually([&] { return !hdfs_.content(remote("sub/moved-away.txt")); })) << log();
  ASSERT_TRUE(finish());

  EXPECT_TRUE(in_hdfs("restored.txt", "from an earlier attempt"));
  EXPECT_TRUE(in_hdfs("others/pulled.txt", "another task's"));
  std::vector<std::string> deleted;
  for (const auto& operation : operations("DELETE")) deleted.push_back(operation.path);
  EXPECT_EQ(deleted, (std::vector<std::string>{remote("mine.txt"), remote("sub/moved-away.txt")}));
  EXPECT_EQ(mirror_->totals().removed, 2);
}

TEST_F(OutputMirrorTest, AStoppedTasksDeletionsStayHere) {
  fs::create_directories(local_ / "sub");
  ASSERT_TRUE(start());
  write_file(local_ / "kept.txt", "written before the stop");
  write_file(local_ / "sub" / "also-kept.txt", "and this");
  ASSERT_TRUE(eventually([&] { return in_hdfs("kept.txt", "written before the stop"); })) << log();
  ASSERT_TRUE(eventually([&] { return in_hdfs("sub/also-kept.txt", "and this"); })) << log();

  // The task is being stopped; YARN removes the container's directory next, file by file.
  mirror_->keep_remote_files();
  fs::remove(local_ / "kept.txt");
  fs::remove(local_ / "sub" / "also-kept.txt");
  ASSERT_TRUE(finish());
  EXPECT_TRUE(in_hdfs("kept.txt", "written before the stop"));
  EXPECT_TRUE(in_hdfs("sub/also-kept.txt", "and this"));
  EXPECT_TRUE(operations("DELETE").empty());
  EXPECT_EQ(mirror_->totals().removed, 0);
}

TEST_F(OutputMirrorTest, TheOutputDirectoryGoneAsAWholeEmptiesNothing) {
  fs::create_directories(local_ / "sub");
  ASSERT_TRUE(start());
  write_file(local_ / "sub" / "model.ckpt-1.index", "an index");
  ASSERT_TRUE(eventually([&] { return in_hdfs("sub/model.ckpt-1.index", "an index"); })) << log();
  // Not the command deleting what it wrote: YARN cleaning the container's directory away, the
  // files first, the directory last.
  fs::remove_all(local_);
  // Longer than a deletion waits (a second) and one of the mirror's passes.
  std::this_thread::sleep_for(1700ms);
  EXPECT_TRUE(in_hdfs("sub/model.ckpt-1.index", "an index"));
  EXPECT_TRUE(operations("DELETE").empty());
}

TEST_F(OutputMirrorTest, AnotherWritersFileComesInWithinAFewPullIntervals) {
  // Some WebHDFS servers answer OPEN with the data themselves.
  hdfs_.answer_open_directly(true);
  ASSERT_TRUE(start());
  const std::string index = binary(800, 16);
  hdfs_.put(remote("chief/model.ckpt-100.index"), index);
  hdfs_.put(remote("chief/checkpoint"), "model_checkpoint_path: \"model.ckpt-100\"\n");
  // The mirror also wakes every half second when nothing happens here, whatever its pull interval.
  const auto few_intervals = std::max<std::chrono::milliseconds>(10 * pull_interval, 1s);
  EXPECT_TRUE(eventually(
      [&] {
        return read_file(local_ / "chief" / "checkpoint") == "model_checkpoint_path: \"model.ckpt-100\"\n" &&
               read_file(local_ / "chief" / "model.ckpt-100.index") == index;
      },
      few_intervals))
      << log();

  // A newer version replaces it; a file deleted there goes here too.
  hdfs_.answer_open_directly(false);
  hdfs_.put(remote("chief/checkpoint"), "model_checkpoint_path: \"model.ckpt-200\"\n");
  EXPECT_TRUE(eventually([&] {
    return read_file(local_ / "chief" / "checkpoint") == "model_checkpoint_path: \"model.ckpt-200\"\n";
  })) << log();
  hdfs_.remove(remote("chief/model.ckpt-100.index"));
  EXPECT_TRUE(eventually([&] { return !fs::exists(local_ / "chief" / "model.ckpt-100.index"); })) << log();
  ASSERT_TRUE(finish());
  // What came in is not sent back.
  EXPECT_TRUE(operations("CREATE").empty());
  EXPECT_TRUE(operations("RENAME").empty());
  EXPECT_TRUE(operations("DELETE").empty());
  EXPECT_EQ(mirror_->totals().files_in, 3);
}

TEST_F(OutputMirrorTest, AnOpenEventFileIsCopiedAsItGrows) {
  fs::create_directories(local_ / "logs" / "train");
  ASSERT_TRUE(start());
  const std::string relative = "logs/train/events.out.tfevents.1700000000.worker-1";
  const std::string first = binary(1000, 17), second = binary(2000, 18), third = binary(500, 19);
  std::ofstream events(local_ / relative, std::ios::binary);
  events.write(first.data(), std::ssize(first));
  events.flush();
  EXPECT_TRUE(eventually([&] { return in_hdfs(relative, first); })) << log();
  events.write(second.data(), std::ssize(second));
  events.flush();
  EXPECT_TRUE(eventually([&] { return in_hdfs(relative, first + second); })) << log();
  // The command has ended with the file still open: the last pass copies all of it.
  events.write(third.data(), std::ssize(third));
  events.flush();
  ASSERT_TRUE(finish());
  events.close();

  const std::string whole = first + second + third;
  EXPECT_TRUE(in_hdfs(relative, whole));
  // Every version TensorBoard could have read was a beginning of the file.
  const auto versions = hdfs_.versions(remote(relative));
  EXPECT_GE(versions.size(), 3u);
  for (const auto& version : versions) EXPECT_TRUE(whole.starts_with(version)) << version.size() << " bytes";
  EXPECT_TRUE(temporaries_in_hdfs().empty());
}

TEST_F(OutputMirrorTest, ATransferCutByAFailoverStartsAgainAndLandsWhole) {
  ASSERT_TRUE(start());
  // The DataNode's NameNode went standby under it: it refuses after taking part of the data.
  hdfs_.refuse_transfers(1, "StandbyException", "Operation category WRITE is not supported in state standby");
  const std::string data = binary(250'000, 20);
  write_file(local_ / "model.ckpt-3.data-00000-of-00001", data);

  EXPECT_TRUE(eventually([&] { return in_hdfs("model.ckpt-3.data-00000-of-00001", data); })) << log();
  ASSERT_TRUE(finish());
  std::vector<int> transfers;
  std::string temporary;
  for (const auto& create : operations("CREATE")) {
    if (!create.datanode) continue;
    transfers.push_back(create.status);
    temporary = create.path;
  }
  EXPECT_EQ(transfers, (std::vector<int>{403, 201}));
  EXPECT_TRUE(is_mirror_temporary(temporary)) << temporary;
  EXPECT_EQ(hdfs_.versions(remote("model.ckpt-3.data-00000-of-00001")), std::vector<std::string>{data});
  EXPECT_TRUE(temporaries_in_hdfs().empty()) << ::testing::PrintToString(temporaries_in_hdfs());
  EXPECT_EQ(mirror_->totals().files_out, 1);
}

TEST_F(OutputMirrorTest, FinishReportsWhatHdfsRefusesWithinItsPatience) {
  ASSERT_TRUE(start());
  hdfs_.refuse_transfers(INT_MAX, "DSQuotaExceededException",
                         "The DiskSpace quota of /user/tester is exceeded: quota = 1048576 B = 1 MB but diskspace "
                         "consumed = 134217728 B = 128 MB");
  write_file(local_ / "model.ckpt-9.index", binary(2000, 21));

  // Long enough for one more pass (two seconds apart), short enough to see it kept.
  const auto patience = 3s;
  const auto started = Clock::now();
  auto finished = mirror_->finish(patience);
  const auto took = Clock::now() - started;
  ASSERT_FALSE(finished);
  EXPECT_NE(finished.error().message.find("model.ckpt-9.index"), std::string::npos) << finished.error().message;
  EXPECT_NE(finished.error().message.find("quota"), std::string::npos) << finished.error().message;
  EXPECT_LT(took, patience + 1s);
  // It tried again, and each refused transfer's partial file went.
  std::int64_t transfers = 0;
  for (const auto& create : operations("CREATE")) transfers += create.datanode ? 1 : 0;
  EXPECT_GE(transfers, 2);
  EXPECT_TRUE(hdfs_.files(job).empty()) << ::testing::PrintToString(hdfs_.files(job));
  EXPECT_EQ(mirror_->totals().files_out, 0);
}

TEST_F(OutputMirrorTest, TotalsCountFilesAndBytesEachWay) {
  hdfs_.put(remote("a"), binary(10, 22));
  hdfs_.put(remote("deep/b"), binary(2000, 23));
  fs::create_directories(local_ / "more");
  ASSERT_TRUE(start());
  EXPECT_EQ(mirror_->totals().files_in, 2);
  EXPECT_EQ(mirror_->totals().bytes_in, 2010);

  hdfs_.put(remote("c"), binary(5, 24));
  ASSERT_TRUE(eventually([&] { return fs::exists(local_ / "c"); })) << log();
  const std::string x = binary(100, 25), y = binary(300'000, 26);
  write_file(local_ / "x", x);
  write_file(local_ / "more" / "y", y);
  ASSERT_TRUE(eventually([&] { return in_hdfs("x", x) && in_hdfs("more/y", y); })) << log();
  fs::remove(local_ / "x");
  ASSERT_TRUE(eventually([&] { return !hdfs_.content(remote("x")); })) << log();
  ASSERT_TRUE(finish());

  const auto totals = mirror_->totals();
  EXPECT_EQ(totals.files_in, 3);
  EXPECT_EQ(totals.bytes_in, 2015);
  EXPECT_EQ(totals.files_out, 2);
  EXPECT_EQ(totals.bytes_out, 300'100);
  EXPECT_EQ(totals.removed, 1);
}

TEST_F(OutputMirrorTest, AFileStillOpenInANewDirectoryIsNotCopiedInPart) {
  ASSERT_TRUE(start());
  // The mirror is busy (no NameNode active) while a directory is made and a file in it half written.
  hdfs_.make_active(-1);
  write_file(local_ / "first", "x");
  ASSERT_TRUE(eventually([&] {
    const auto creates = operations("CREATE");
    return std::any_of(creates.begin(), creates.end(), [](const auto& create) { return create.status == 403; });
  })) << log();
  fs::create_directories(local_ / "export");
  const std::string model = binary(100'000, 30);
  std::ofstream out(local_ / "export" / "model.pt", std::ios::binary);
  out.write(model.data(), 50'000);
  out.flush();
  hdfs_.make_active(0);
  ASSERT_TRUE(eventually([&] { return in_hdfs("first", "x"); })) << log();
  // More than one of its passes (it wakes at least every half second).
  std::this_thread::sleep_for(700ms);
  EXPECT_FALSE(hdfs_.content(remote("export/model.pt"))) << hdfs_.content(remote("export/model.pt"))->size();
  out.write(model.data() + 50'000, 50'000);
  out.close();
  EXPECT_TRUE(eventually([&] { return in_hdfs("export/model.pt", model); })) << log();
  ASSERT_TRUE(finish());
  for (const auto& version : hdfs_.versions(remote("export/model.pt"))) EXPECT_EQ(version.size(), model.size());
}

// The first transfer of `first` is cut by a failover; while the mirror waits to start it again,
// the file is written again in place (truncated, as open(..., "w") does) with `second`.
void rewrite_during_a_restarted_transfer(ScriptedWebHdfs& hdfs, const fs::path& file, const std::string& first,
                                         const std::string& second) {
  hdfs.refuse_transfers(1, "StandbyException", "Operation category WRITE is not supported in state standby");
  write_file(file, first);
  ASSERT_TRUE(eventually([&] {
    const auto all = hdfs.operations();
    return std::any_of(all.begin(), all.end(), [](const auto& operation) {
      return operation.datanode && operation.op == "CREATE" && operation.status == 403;
    });
  }));
  write_file(file, second);
}

TEST_F(OutputMirrorTest, AFileWrittenAgainShorterWhileItIsCopiedGoesAgainWhole) {
  ASSERT_TRUE(start());
  const std::string first = binary(100'000, 40), second = binary(10'000, 41);
  ASSERT_NO_FATAL_FAILURE(rewrite_during_a_restarted_transfer(hdfs_, local_ / "model.pt", first, second)) << log();
  // The transfer started again finds less than it announced to the DataNode.
  EXPECT_TRUE(eventually([&] { return in_hdfs("model.pt", second); })) << log();
  ASSERT_TRUE(finish());
  EXPECT_EQ(hdfs_.versions(remote("model.pt")), std::vector<std::string>{second});
  EXPECT_TRUE(temporaries_in_hdfs().empty()) << ::testing::PrintToString(temporaries_in_hdfs());
}

TEST_F(OutputMirrorTest, AFileWrittenAgainLongerWhileItIsCopiedNeverReachesHdfsInPart) {
  ASSERT_TRUE(start());
  const std::string first = binary(10'000, 42), second = binary(100'000, 43);
  ASSERT_NO_FATAL_FAILURE(rewrite_during_a_restarted_transfer(hdfs_, local_ / "model.pt", first, second)) << log();
  EXPECT_TRUE(eventually([&] { return in_hdfs("model.pt", second); })) << log();
  ASSERT_TRUE(finish());
  // Not the first bytes of the second version under the file's name, even for a while.
  const auto versions = hdfs_.versions(remote("model.pt"));
  for (const auto& version : versions) {
    EXPECT_TRUE(version == first || version == second) << version.size() << " bytes";
  }
  EXPECT_TRUE(temporaries_in_hdfs().empty()) << ::testing::PrintToString(temporaries_in_hdfs());
}

TEST_F(OutputMirrorTest, AFileWrittenAgainAndAgainInPlaceStopsNothing) {
  // A script that rewrites its metrics file as fast as it can. The mirror looks at the file
  // (whether a writer has it open, which a writer opening it meanwhile must not punish) and
  // copies it while it is truncated and written under it.
  ASSERT_TRUE(start());
  const fs::path path = local_ / "metrics.json";
  const auto until = Clock::now() + 1s;
  std::string last;
  for (int round = 0; Clock::now() < until; ++round) {
    last.assign(static_cast<std::size_t>(round % 64 + 1), static_cast<char>('a' + round % 26));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, last.data(), last.size()), std::ssize(last));
    ::close(fd);
  }
  ASSERT_TRUE(finish());
  EXPECT_TRUE(in_hdfs("metrics.json", last));
  // A copy that found the file shorter than it began never took the file's name. (Which of the
  // script's states went is not checked: at this pace two differ in neither size nor the
  // file system's coarse modification time.)
  for (const auto& version : hdfs_.versions(remote("metrics.json"))) {
    EXPECT_EQ(version.find('\0'), std::string::npos) << ::testing::PrintToString(version);
  }
  EXPECT_TRUE(temporaries_in_hdfs().empty()) << ::testing::PrintToString(temporaries_in_hdfs());
}

TEST_F(OutputMirrorTest, AnotherWritersEventFileGrowsHereInPlace) {
  const std::string relative = "logs/chief/events.out.tfevents.1700000000.chief";
  const std::string first = binary(3000, 50), more = binary(2000, 51);
  hdfs_.put(remote(relative), first);
  ASSERT_TRUE(start());
  ASSERT_EQ(read_file(local_ / relative), first);
  // TensorBoard here keeps the file open: it must grow under it, not be replaced.
  std::ifstream reader(local_ / relative, std::ios::binary);
  struct stat before {};
  ASSERT_EQ(::stat((local_ / relative).c_str(), &before), 0);
  hdfs_.put(remote(relative), first + more);
  EXPECT_TRUE(eventually([&] { return read_file(local_ / relative) == first + more; })) << log();
  struct stat after {};
  ASSERT_EQ(::stat((local_ / relative).c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  const std::string read_through_the_open_file(std::istreambuf_iterator<char>(reader), {});
  EXPECT_EQ(read_through_the_open_file, first + more);
  ASSERT_TRUE(finish());
  EXPECT_TRUE(operations("CREATE").empty());
  EXPECT_EQ(mirror_->totals().bytes_in, std::ssize(first) + std::ssize(more));
}

// A host cut off from HDFS for a while: its task goes on writing numbered files, others' files
// reach HDFS meanwhile, and once it is back both go at once. Whatever HDFS holds of the task's
// files at any moment is all of them up to some file, never one with an earlier one missing.
TEST_F(OutputMirrorTest, WhatACutOffTaskGetsToHdfsOnceBackIsAlwaysAllItsFilesUpToOne) {
  ASSERT_TRUE(start());
  std::atomic<bool> writing{true};
  std::atomic<int> written{0};
  std::thread writer([&] {
    for (int index = 0; writing; ++index) {
      char name[16];
      std::snprintf(name, sizeof name, "%05d", index);
      write_file(local_ / "worker-1-attempt-0" / name, binary(20'000, static_cast<unsigned>(index)));
      written = index + 1;
      std::this_thread::sleep_for(5ms);
    }
  });
  std::string gap;
  const auto check_prefix = [&] {
    int expected = 0;
    for (const auto& [relative, content] : hdfs_.files(job)) {
      if (!relative.starts_with("worker-1-attempt-0/") || base_name(relative).starts_with(".spindle-")) continue;
      if (std::stoi(base_name(relative)) != expected && gap.empty())
        gap = relative + " is in HDFS before an earlier file";
      ++expected;
    }
    return expected;
  };
  ASSERT_TRUE(eventually([&] { return check_prefix() >= 2; })) << log();
  hdfs_.make_active(-1);
  const int cut_at = written;
  ASSERT_TRUE(eventually([&] { return written >= cut_at + 60; })) << log();
  for (int n = 0; n < 100; ++n) hdfs_.put(remote("worker-0-attempt-0/" + std::to_string(n)), binary(20'000, 1000 + n));
  hdfs_.make_active(0);
  const auto until = Clock::now() + 3s;
  while (Clock::now() < until && gap.empty()) check_prefix();
  writing = false;
  writer.join();
  mirror_->keep_remote_files();
  ASSERT_TRUE(finish());
  const int in_hdfs_at_end = check_prefix();
  EXPECT_EQ(gap, "") << log();
  EXPECT_EQ(in_hdfs_at_end, written.load()) << log();
}

}  // namespace
}  // namespace spindle::container

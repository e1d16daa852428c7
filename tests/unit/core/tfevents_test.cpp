#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "event_encoding.h"
#include "metrics/crc32c.h"
#include "spindle/core/tfevents.h"

namespace spindle {
namespace {

namespace fs = std::filesystem;
using namespace spindle::testing;

std::string uint32_content(std::uint32_t bits) {
  return little_endian(bits, 4);
}

class TfeventsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("spindle-event-files-" + std::to_string(::getpid()) + "-" + test->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes, bool append = false) {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc)) << bytes;
    return path.string();
  }

  // The points of one event holding `values` at step 1, read from a fresh file.
  std::vector<ScalarPoint> read_values(std::initializer_list<std::string> values) {
    const auto path = write("events.out.tfevents.1", record(event(1, 2.5, values)));
    EventFileReader reader(files_, path);
    auto points = reader.poll();
    EXPECT_TRUE(points.ok()) << points.error().message;
    return points.ok() ? *points : std::vector<ScalarPoint>{};
  }

  double only_value(std::initializer_list<std::string> values) {
    const auto points = read_values(values);
    EXPECT_EQ(points.size(), 1u);
    return points.empty() ? -12345.0 : points.front().value;
  }

  fs::path dir_;
  LocalLogFileSystem files_;
};

TEST(Crc32c, KnownValuesAndBothWaysAgree) {
  EXPECT_EQ(tfevents::crc32c("123456789"), 0xe3069283u);
  EXPECT_EQ(tfevents::crc32c(""), 0u);
  EXPECT_EQ(tfevents::crc32c(std::string(32, '\0')), 0x8a9136aau);
  std::mt19937 random(7);
  std::string bytes(4096 + 7, '\0');
  for (auto& byte : bytes) byte = static_cast<char>(random());
  for (std::size_t start = 0; start < 9; ++start) {
    for (std::size_t size : {0u, 1u, 7u, 8u, 9u, 63u, 4096u}) {
      const std::string_view piece = std::string_view(bytes).substr(start, size);
      EXPECT_EQ(tfevents::crc32c(piece), tfevents::crc32c_portable(piece)) << start << " " << size;
    }
  }
}

TEST_F(TfeventsTest, ReadsRecordsInOrder) {
  std::string file = record(file_version_event(1.0));
  for (int step = 0; step < 5; ++step) {
    file += record(event(step, 100.0 + step, {simple_value("loss", 1.0f / static_cast<float>(step + 1))}));
  }
  EventFileReader reader(files_, write("events.out.tfevents.1", file));
  auto points = reader.poll();
  ASSERT_TRUE(points.ok()) << points.error().message;
  ASSERT_EQ(points->size(), 5u);
  for (int step = 0; step < 5; ++step) {
    EXPECT_EQ((*points)[step], (ScalarPoint{"loss", step, 100.0 + step, 1.0f / static_cast<float>(step + 1)}));
  }
  EXPECT_EQ(reader.offset(), file.size());
  EXPECT_TRUE(reader.poll()->empty());
}

TEST_F(TfeventsTest, IncrementalPollsReturnOnlyNewRecords) {
  const auto path = write("events.out.tfevents.1", record(file_version_event(1.0)));
  EventFileReader reader(files_, path);
  EXPECT_TRUE(reader.poll()->empty());
  for (int step = 0; step < 3; ++step) {
    write("events.out.tfevents.1", record(event(step, 5.0, {simple_value("a", 1.5f), simple_value("b", 2.5f)})), true);
    auto points = reader.poll();
    ASSERT_TRUE(points.ok()) << points.error().message;
    ASSERT_EQ(points->size(), 2u);
    EXPECT_EQ((*points)[0], (ScalarPoint{"a", step, 5.0, 1.5}));
    EXPECT_EQ((*points)[1], (ScalarPoint{"b", step, 5.0, 2.5}));
    EXPECT_TRUE(reader.poll()->empty());
  }
}

TEST_F(TfeventsTest, ARecordCutShortAnywhereWaitsForTheRest) {
  const std::string first = record(event(1, 1.0, {simple_value("x", 1.0f)}));
  const std::string second = record(event(2, 2.0, {simple_value("x", 2.0f)}));
  const std::string whole = first + second;
  for (std::size_t cut = 0; cut <= whole.size(); ++cut) {
    const auto path = write("events.out.tfevents.1", whole.substr(0, cut));
    EventFileReader reader(files_, path);
    auto before = reader.poll();
    ASSERT_TRUE(before.ok()) << "cut at " << cut << ": " << before.error().message;
    write("events.out.tfevents.1", whole.substr(cut), true);
    auto after = reader.poll();
    ASSERT_TRUE(after.ok()) << "cut at " << cut << ": " << after.error().message;
    std::vector<ScalarPoint> all = *before;
    all.insert(all.end(), after->begin(), after->end());
    ASSERT_EQ(all.size(), 2u) << "cut at " << cut;
    EXPECT_EQ(all[0].step, 1);
    EXPECT_EQ(all[1].step, 2);
    EXPECT_EQ(before->size(), cut >= first.size() ? (cut == whole.size() ? 2u : 1u) : 0u) << "cut at " << cut;
    EXPECT_EQ(reader.bytes_read(), whole.size());
  }
}

TEST_F(TfeventsTest, DamagedDataIsReportedAtItsOffsetAndSkipped) {
  const std::string first = record(event(1, 1.0, {simple_value("x", 1.0f)}));
  std::string damaged = record(event(2, 2.0, {simple_value("x", 2.0f)}));
  damaged[tfevents::record_header_size + 3] ^= 0x01;
  const std::string third = record(event(3, 3.0, {simple_value("x", 3.0f)}));
  const auto path = write("events.out.tfevents.1", first + damaged + third);
  EventFileReader reader(files_, path);

  auto points = reader.poll();
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 1u);
  EXPECT_EQ(points->front().step, 1);

  auto problem = reader.poll();
  ASSERT_FALSE(problem.ok());
  EXPECT_EQ(problem.error().message, path + ": the record at byte " + std::to_string(first.size()) +
                                         " has data whose checksum does not match; it was skipped");

  points = reader.poll();
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 1u);
  EXPECT_EQ(points->front().step, 3);
  EXPECT_FALSE(reader.stopped());
}

TEST_F(TfeventsTest, DamagedLengthStopsTheFile) {
  const std::string first = record(event(1, 1.0, {simple_value("x", 1.0f)}));
  std::string damaged = record(event(2, 2.0, {simple_value("x", 2.0f)}));
  damaged[0] ^= 0x04;
  const std::string third = record(event(3, 3.0, {simple_value("x", 3.0f)}));
  const auto path = write("events.out.tfevents.1", first + damaged + third);
  EventFileReader reader(files_, path);

  ASSERT_EQ(reader.poll()->size(), 1u);
  auto problem = reader.poll();
  ASSERT_FALSE(problem.ok());
  EXPECT_EQ(problem.error().message, path + ": the record at byte " + std::to_string(first.size()) +
                                         " has a length whose checksum does not match; the rest of the file cannot "
                                         "be read");
  EXPECT_TRUE(reader.stopped());
  auto after = reader.poll();
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->empty());
}

TEST_F(TfeventsTest, DamagedLengthChecksumIsFoundInTheHeaderToo) {
  std::string damaged = record(event(1, 1.0, {simple_value("x", 1.0f)}));
  damaged[9] ^= 0x40;
  EventFileReader reader(files_, write("events.out.tfevents.1", damaged));
  auto problem = reader.poll();
  ASSERT_FALSE(problem.ok());
  EXPECT_NE(problem.error().message.find("at byte 0 has a length whose checksum does not match"), std::string::npos);
}

TEST_F(TfeventsTest, AnAbsurdLengthIsAnError) {
  std::string header = little_endian(std::uint64_t{1} << 40, 8);
  header += little_endian(tfevents::masked_crc32c(header), 4);
  EventFileReader reader(files_, write("events.out.tfevents.1", header + "xyz"));
  auto problem = reader.poll();
  ASSERT_FALSE(problem.ok());
  EXPECT_NE(problem.error().message.find("at byte 0 claims 1099511627776 bytes"), std::string::npos);
  EXPECT_TRUE(reader.stopped());
}

TEST_F(TfeventsTest, DataThatIsNoEventIsReportedAndSkipped) {
  const std::string garbage =
      record(std::string("\x0a\x05"
                         "ab"));
  const std::string good = record(event(7, 7.0, {simple_value("x", 7.0f)}));
  const auto path = write("events.out.tfevents.1", garbage + good);
  EventFileReader reader(files_, path);
  auto problem = reader.poll();
  ASSERT_FALSE(problem.ok());
  EXPECT_EQ(problem.error().message,
            path +
                ": the record at byte 0 is not a TensorFlow event (a length-delimited field is cut short); it was "
                "skipped");
  auto points = reader.poll();
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 1u);
  EXPECT_EQ(points->front().step, 7);
}

TEST_F(TfeventsTest, TagsMustBeUtf8) {
  const auto path = write("events.out.tfevents.1", record(event(1, 1.0, {simple_value("\xff", 1.0f)})));
  EventFileReader reader(files_, path);
  auto problem = reader.poll();
  ASSERT_FALSE(problem.ok());
  EXPECT_NE(problem.error().message.find("the tag of a value is not UTF-8"), std::string::npos);
}

TEST_F(TfeventsTest, SimpleValuesKeepStepTimeAndValue) {
  const auto points = read_values({simple_value("accuracy", 0.75f), simple_value("loss", -3.25f)});
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0], (ScalarPoint{"accuracy", 1, 2.5, 0.75}));
  EXPECT_EQ(points[1], (ScalarPoint{"loss", 1, 2.5, -3.25}));
}

TEST_F(TfeventsTest, EveryScalarTensorDtypeFromItsValueField) {
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_float, {}, fixed32_field(5, std::bit_cast<std::uint32_t>(0.1f))))}),
            static_cast<double>(0.1f));
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_double, {}, fixed64_field(6, std::bit_cast<std::uint64_t>(0.1))))}),
            0.1);
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_int32, {}, varint_field(7, static_cast<std::uint64_t>(-42))))}),
            -42.0);
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_int64, {}, varint_field(10, std::uint64_t{1} << 40)))}),
            1099511627776.0);
  // float16 1.5 is 0x3e00; half_val holds the bits.
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_half, {}, varint_field(13, 0x3e00)))}), 1.5);
}

TEST_F(TfeventsTest, EveryScalarTensorDtypeFromTensorContent) {
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_float, {}, bytes_field(4, uint32_content(0x3f800000))))}), 1.0);
  EXPECT_EQ(only_value({tensor_value(
                "t", tensor(dt_double, {}, bytes_field(4, little_endian(std::bit_cast<std::uint64_t>(-2.75), 8))))}),
            -2.75);
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_int32, {}, bytes_field(4, uint32_content(0xfffffffe))))}), -2.0);
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_int64, {}, bytes_field(4, little_endian(~std::uint64_t{0}, 8))))}),
            -1.0);
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_half, {}, bytes_field(4, little_endian(0xc000, 2))))}), -2.0);
}

TEST_F(TfeventsTest, HalfPrecisionCornerCases) {
  auto half = [&](std::uint16_t bits) {
    return only_value({tensor_value("t", tensor(dt_half, {}, varint_field(13, bits)))});
  };
  EXPECT_EQ(half(0x0001), std::ldexp(1.0, -24));  // smallest subnormal
  EXPECT_EQ(half(0x7bff), 65504.0);               // largest finite
  EXPECT_EQ(half(0x7c00), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(half(0x7e00)));
  EXPECT_EQ(half(0x8000), 0.0);
  EXPECT_TRUE(std::signbit(half(0x8000)));
}

TEST_F(TfeventsTest, PackedAndUnpackedValuesAndMissingValuesAsZero) {
  const std::string packed_float = bytes_field(5, uint32_content(std::bit_cast<std::uint32_t>(4.5f)));
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_float, {}, packed_float))}), 4.5);
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_int64, {}, bytes_field(10, varint(300))))}), 300.0);
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_double, {}, ""))}), 0.0);
}

TEST_F(TfeventsTest, OneElementShapesAreScalars) {
  const std::string value = fixed32_field(5, std::bit_cast<std::uint32_t>(8.0f));
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_float, {1}, value))}), 8.0);
  EXPECT_EQ(only_value({tensor_value("t", tensor(dt_float, {1, 1, 1}, value))}), 8.0);
}

TEST_F(TfeventsTest, OtherTensorsAreNotScalars) {
  const std::string two = fixed32_field(5, 0) + fixed32_field(5, 0);
  EXPECT_TRUE(read_values({tensor_value("vector", tensor(dt_float, {2}, two))}).empty());
  EXPECT_TRUE(read_values({tensor_value("matrix", tensor(dt_float, {1, 3}, two))}).empty());
  EXPECT_TRUE(read_values({tensor_value("empty", tensor(dt_float, {0}, ""))}).empty());
  EXPECT_TRUE(read_values({tensor_value("text", tensor(dt_string, {}, bytes_field(8, "hi")))}).empty());
  // What TensorBoard's scalar dashboard leaves out, we leave out.
  EXPECT_TRUE(read_values({tensor_value("unlabelled", tensor(dt_float, {}, fixed32_field(5, 0)), "")}).empty());
  EXPECT_TRUE(
      read_values({tensor_value("histogram", tensor(dt_float, {}, fixed32_field(5, 0)), "histograms")}).empty());
}

TEST_F(TfeventsTest, TheFirstValueWithMetadataDecidesForItsTag) {
  const std::string scalar = tensor(dt_float, {}, fixed32_field(5, std::bit_cast<std::uint32_t>(1.0f)));
  std::string file;
  file += record(event(0, 1.0, {tensor_value("t", scalar, "")}));         // says nothing: not charted yet
  file += record(event(1, 1.0, {tensor_value("t", scalar, "scalars")}));  // decides
  file += record(event(2, 1.0, {tensor_value("t", scalar, "")}));         // follows the decision
  file += record(event(3, 1.0, {tensor_value("u", scalar, "histograms")}));
  file += record(event(4, 1.0, {tensor_value("u", scalar, "scalars")}));  // too late
  EventFileReader reader(files_, write("events.out.tfevents.1", file));
  auto points = reader.poll();
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 2u);
  EXPECT_EQ((*points)[0].step, 1);
  EXPECT_EQ((*points)[1].step, 2);
}

TEST_F(TfeventsTest, MalformedScalarTensorsAreErrors) {
  const auto path = write("events.out.tfevents.1",
                          record(event(1, 1.0, {tensor_value("t", tensor(dt_float, {}, bytes_field(4, "abc")))})));
  EventFileReader reader(files_, path);
  auto problem = reader.poll();
  ASSERT_FALSE(problem.ok());
  EXPECT_EQ(problem.error().message, path +
                                         ": the record at byte 0 is not a TensorFlow event (the float32 scalar of tag "
                                         "\"t\" has 3 bytes of content instead of 4); it was skipped");
}

TEST_F(TfeventsTest, EventsWithoutSummariesAndUnknownFieldsAreFine) {
  std::string with_extras = event(4, 1.0, {simple_value("x", 1.0f) + varint_field(77, 5)});
  with_extras += bytes_field(99, "unknown") + key(12, 3) + varint_field(1, 1) + key(12, 4);  // a group, skipped
  const auto path = write("events.out.tfevents.1", record(file_version_event(1.0)) + record(with_extras));
  EventFileReader reader(files_, path);
  auto points = reader.poll();
  ASSERT_TRUE(points.ok()) << points.error().message;
  ASSERT_EQ(points->size(), 1u);
  EXPECT_EQ(points->front(), (ScalarPoint{"x", 4, 1.0, 1.0}));
}

TEST_F(TfeventsTest, AMissingFileIsAnErrorNamingIt) {
  LocalLogFileSystem files;
  EventFileReader reader(files, (dir_ / "gone.tfevents").string());
  auto problem = reader.poll();
  ASSERT_FALSE(problem.ok());
  EXPECT_NE(problem.error().message.find((dir_ / "gone.tfevents").string()), std::string::npos);
}

TEST_F(TfeventsTest, RunsAreTheDirectoriesOfTheFiles) {
  write("events.out.tfevents.1.host", record(event(1, 1.0, {simple_value("root", 1.0f)})));
  write("train/events.out.tfevents.1.host", record(event(1, 1.0, {simple_value("loss", 2.0f)})));
  write("eval/events.out.tfevents.1.host", record(event(1, 1.0, {simple_value("loss", 3.0f)})));
  write("a/b/events.out.tfevents.1.host", record(event(1, 1.0, {simple_value("deep", 4.0f)})));
  write("train/checkpoint", "not an event file");
  LogDirectoryReader reader(files_, dir_.string() + "/");
  auto update = reader.poll();
  ASSERT_TRUE(update.ok()) << update.error().message;
  EXPECT_TRUE(update->problems.empty());
  ASSERT_EQ(update->runs.size(), 4u);
  EXPECT_EQ(update->runs[0].run, ".");
  EXPECT_EQ(update->runs[1].run, "a/b");
  EXPECT_EQ(update->runs[2].run, "eval");
  EXPECT_EQ(update->runs[3].run, "train");
  EXPECT_EQ(update->runs[3].points, (std::vector<ScalarPoint>{{"loss", 1, 1.0, 2.0}}));
  EXPECT_TRUE(reader.poll()->runs.empty());
}

TEST_F(TfeventsTest, NewFilesAndNewRecordsAppearOnLaterPolls) {
  LogDirectoryReader reader(files_, (dir_ / "logs").string());
  auto empty = reader.poll();
  ASSERT_TRUE(empty.ok()) << "a log directory not made yet has no files";
  EXPECT_TRUE(empty->runs.empty());

  write("logs/train/events.out.tfevents.1", record(event(1, 1.0, {simple_value("loss", 1.0f)})));
  auto first = reader.poll();
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->runs.size(), 1u);
  EXPECT_EQ(first->runs[0].points.size(), 1u);

  // A restarted writer starts a second file in the same run.
  write("logs/train/events.out.tfevents.1", record(event(2, 2.0, {simple_value("loss", 2.0f)})), true);
  write("logs/train/events.out.tfevents.2", record(event(3, 3.0, {simple_value("loss", 3.0f)})));
  write("logs/eval/events.out.tfevents.1", record(event(3, 3.0, {simple_value("loss", 9.0f)})));
  auto second = reader.poll();
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->runs.size(), 2u);
  EXPECT_EQ(second->runs[0].run, "eval");
  EXPECT_EQ(second->runs[1].run, "train");
  ASSERT_EQ(second->runs[1].points.size(), 2u);
  EXPECT_EQ(second->runs[1].points[0].step, 2);
  EXPECT_EQ(second->runs[1].points[1].step, 3);
}

TEST_F(TfeventsTest, ProblemsInOneFileLeaveTheOthersAlone) {
  std::string damaged = record(event(2, 2.0, {simple_value("x", 2.0f)}));
  damaged[tfevents::record_header_size] ^= 0x10;
  const std::string first = record(event(1, 1.0, {simple_value("x", 1.0f)}));
  write("bad/events.out.tfevents.1", first + damaged + record(event(3, 3.0, {simple_value("x", 3.0f)})));
  write("good/events.out.tfevents.1", record(event(1, 1.0, {simple_value("y", 1.0f)})));
  LogDirectoryReader reader(files_, dir_.string());
  auto update = reader.poll();
  ASSERT_TRUE(update.ok());
  ASSERT_EQ(update->problems.size(), 1u);
  EXPECT_EQ(update->problems[0].message, (dir_ / "bad/events.out.tfevents.1").string() + ": the record at byte " +
                                             std::to_string(first.size()) +
                                             " has data whose checksum does not match; it was skipped");
  ASSERT_EQ(update->runs.size(), 2u);
  EXPECT_EQ(update->runs[0].points.size(), 2u);  // steps 1 and 3
  EXPECT_EQ(update->runs[1].points.size(), 1u);
}

// Lists files with the sizes it is told, as HDFS does for files being written.
class LaggingFileSystem final : public LogFileSystem {
 public:
  Result<std::vector<LogFileEntry>> list_files(const std::string& directory) override {
    auto listed = local.list_files(directory);
    if (listed.ok()) {
      for (auto& entry : *listed) entry.size = listed_size;
    }
    return listed;
  }
  Result<std::size_t> read(const std::string& path, std::uint64_t offset, std::span<char> into) override {
    ++reads;
    return local.read(path, offset, into);
  }

  LocalLogFileSystem local;
  std::uint64_t listed_size = 0;
  int reads = 0;
};

TEST_F(TfeventsTest, TheNewestFileOfARunIsReadEvenWhenItsListedSizeLags) {
  write("run/events.out.tfevents.1", record(event(1, 1.0, {simple_value("x", 1.0f)})));
  write("run/events.out.tfevents.2", record(event(2, 2.0, {simple_value("x", 2.0f)})));
  LaggingFileSystem files;
  LogDirectoryReader reader(files, dir_.string());
  auto update = reader.poll();
  ASSERT_TRUE(update.ok());
  ASSERT_EQ(update->runs.size(), 1u);
  EXPECT_EQ(update->runs[0].points.size(), 1u) << "only the newest file";
  EXPECT_EQ(update->runs[0].points[0].step, 2);

  files.listed_size = 1000;  // the older file's size catches up
  update = reader.poll();
  ASSERT_TRUE(update.ok());
  ASSERT_EQ(update->runs.size(), 1u);
  EXPECT_EQ(update->runs[0].points[0].step, 1);
}

TEST_F(TfeventsTest, FilesThatDidNotGrowAreNotRead) {
  write("run/events.out.tfevents.1", record(event(1, 1.0, {simple_value("x", 1.0f)})));
  write("run/events.out.tfevents.2", record(event(2, 2.0, {simple_value("x", 2.0f)})));
  LaggingFileSystem files;
  files.listed_size = 1000;
  LogDirectoryReader reader(files, dir_.string());
  ASSERT_TRUE(reader.poll().ok());
  files.listed_size = fs::file_size(dir_ / "run/events.out.tfevents.1");
  const int reads_before = files.reads;
  ASSERT_TRUE(reader.poll().ok());
  EXPECT_EQ(files.reads - reads_before, 1) << "the older file is finished; only the newest is looked at";
}

TEST_F(TfeventsTest, LargeFilesReadInPieces) {
  std::string file;
  const int count = 100'000;
  for (int step = 0; step < count; ++step) {
    file += record(event(step, 1.0, {simple_value("a_tag_long_enough_to_need_the_heap", static_cast<float>(step))}));
  }
  EventFileReader reader(files_, write("events.out.tfevents.1", file));
  auto points = reader.poll();
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), static_cast<std::size_t>(count));
  for (int step = 0; step < count; ++step) ASSERT_EQ((*points)[step].value, step);
}

}  // namespace
}  // namespace spindle

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "spindle/core/task_process.h"

namespace spindle {
namespace {

namespace fs = std::filesystem;

class TailOfFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("spindle-tail-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& content) {
    const fs::path path = dir_ / "stderr";
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  fs::path dir_;
};

TEST_F(TailOfFile, WholeFileWhenItFits) {
  EXPECT_EQ(tail_of_file(write("alpha\nbravo\n"), 100), "alpha\nbravo\n");
  EXPECT_EQ(tail_of_file(write("alpha\nbravo\n"), 12), "alpha\nbravo\n");
}

TEST_F(TailOfFile, BeginsAtALine) {
  const std::string content = "alpha\nbravo\ncharlie\n";
  EXPECT_EQ(tail_of_file(write(content), 14), "bravo\ncharlie\n");  // exactly at a line
  EXPECT_EQ(tail_of_file(write(content), 12), "charlie\n");
  EXPECT_EQ(tail_of_file(write(content + "delta"), 13), "charlie\ndelta");
  EXPECT_EQ(tail_of_file(write(content + "delta"), 12), "delta");
}

TEST_F(TailOfFile, NeverMoreThanAsked) {
  std::string content;
  for (int i = 0; i < 1000; ++i) content += "line " + std::to_string(i) + "\n";
  for (std::size_t max : {1u, 7u, 100u, 4096u}) {
    const std::string tail = tail_of_file(write(content), max);
    EXPECT_LE(tail.size(), max);
    EXPECT_FALSE(tail.empty());
    EXPECT_EQ(content.substr(content.size() - tail.size()), tail);
  }
}

TEST_F(TailOfFile, WithoutALineBreakBeginsAtACharacter) {
  // Five two-byte characters; the last five bytes begin inside one.
  EXPECT_EQ(tail_of_file(write("\u00e9\u00e9\u00e9\u00e9\u00e9"), 5), "\u00e9\u00e9");
  // Only the final line break in reach: keep the partial line.
  EXPECT_EQ(tail_of_file(write("xxxxxxxxxx\n"), 5), "xxxx\n");
}

TEST_F(TailOfFile, EmptyWhenUnreadable) {
  EXPECT_EQ(tail_of_file(dir_ / "absent", 100), "");
  EXPECT_EQ(tail_of_file(dir_, 100), "");
  EXPECT_EQ(tail_of_file(write("alpha\n"), 0), "");
  EXPECT_EQ(tail_of_file(write(""), 10), "");
}

}  // namespace
}  // namespace spindle

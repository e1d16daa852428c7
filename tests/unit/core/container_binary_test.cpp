// What runs in YARN containers must start on any x86-64 Linux node, whatever
// its C library: the binary is static, or needs no symbol version of the C
// library newer than GLIBC_2.17 (what RHEL 7 and every later distribution have).

#include <elf.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

const std::string binary = SPINDLE_CONTAINER_PATH;

std::string output_of(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return "";
  std::string output;
  char buffer[512];
  while (std::fgets(buffer, sizeof(buffer), pipe)) output += buffer;
  ::pclose(pipe);
  return output;
}

std::vector<Elf64_Phdr> program_headers(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  Elf64_Ehdr header{};
  file.read(reinterpret_cast<char*>(&header), sizeof(header));
  std::vector<Elf64_Phdr> headers(header.e_phnum);
  file.seekg(static_cast<std::streamoff>(header.e_phoff));
  for (auto& entry : headers) file.read(reinterpret_cast<char*>(&entry), sizeof(entry));
  return file ? headers : std::vector<Elf64_Phdr>{};
}

bool has_segment(const std::vector<Elf64_Phdr>& headers, std::uint32_t type) {
  for (const auto& entry : headers) {
    if (entry.p_type == type) return true;
  }
  return false;
}

TEST(ContainerBinary, IsStaticOrNeedsNothingNewerThanGlibc217) {
  const auto headers = program_headers(binary);
  ASSERT_FALSE(headers.empty()) << binary << " is not a readable ELF file";
  if (!has_segment(headers, PT_INTERP) && !has_segment(headers, PT_DYNAMIC)) {
    SUCCEED() << binary << " is static: it names no loader and no shared library";
    return;
  }
  const std::string symbols = output_of("objdump -T " + binary);
  ASSERT_NE(symbols.find("DYNAMIC SYMBOL TABLE"), std::string::npos) << symbols;
  const std::regex versioned(R"(GLIBC_(\d+)\.(\d+))");
  for (auto it = std::sregex_iterator(symbols.begin(), symbols.end(), versioned); it != std::sregex_iterator(); ++it) {
    const int major = std::stoi((*it)[1]);
    const int minor = std::stoi((*it)[2]);
    EXPECT_TRUE(major < 2 || (major == 2 && minor <= 17)) << binary << " needs " << it->str();
  }
  EXPECT_EQ(symbols.find("GLIBCXX_"), std::string::npos) << binary << " needs the system's C++ runtime";
}

TEST(ContainerBinary, PrintsItsVersion) {
  EXPECT_EQ(output_of("env -i " + binary + " --version"), "spindle-container " SPINDLE_VERSION "\n");
}

// A container of a task type with `processes: 2`: each copy gets its own rank and its share of the
// GPUs; the first to fail stops the other, which would wait for it forever, and its exit is the task's.
TEST(ContainerBinary, FansOutRanksAndTheFirstFailureStopsTheRest) {
  const auto directory = std::filesystem::temp_directory_path() / ("spindle-fan-out-" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  const auto seen = (directory / "seen").string();
  const std::string command = "echo $RANK $LOCAL_RANK $ROLE_RANK $CUDA_VISIBLE_DEVICES >> " + seen +
                              "; if [ $LOCAL_RANK = 1 ]; then sleep 0.5; exit 3; fi; exec sleep 60";
  const auto started = std::chrono::steady_clock::now();
  const std::string output =
      output_of("env -i PATH=/usr/bin:/bin RANK=4 LOCAL_RANK=0 ROLE_RANK=4 CUDA_VISIBLE_DEVICES=0,1,2,3 " + binary +
                " fan-out 2 '" + command + "' 2>&1; echo exit=$?");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30)) << "the other copy was not stopped";
  EXPECT_NE(output.find("spindle: local rank 1 of 2 exited with 3; stopping the other 1\n"), std::string::npos)
      << output;
  EXPECT_NE(output.find("exit=3\n"), std::string::npos) << output;
  std::ifstream lines(seen);
  std::vector<std::string> ranks;
  for (std::string line; std::getline(lines, line);) ranks.push_back(line);
  std::sort(ranks.begin(), ranks.end());
  EXPECT_EQ(ranks, (std::vector<std::string>{"4 0 4 0,1", "5 1 5 2,3"}));
  std::filesystem::remove_all(directory);

  EXPECT_NE(output_of(binary + " fan-out 0 true").find("fan-out needs 1 to 64 processes"), std::string::npos);
}

}  // namespace

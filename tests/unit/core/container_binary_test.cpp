// What runs in YARN containers must start on nodes without our build
// dependencies: its dynamic dependencies are the C and C++ runtimes only.

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

namespace {

TEST(ContainerBinary, LinksOnlyTheCAndCxxRuntimes) {
  const std::string command = std::string("ldd ") + SPINDLE_CONTAINER_PATH + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[512];
  while (std::fgets(buffer, sizeof(buffer), pipe)) output += buffer;
  ASSERT_EQ(::pclose(pipe), 0) << output;
  const std::set<std::string> runtime = {"linux-vdso.so.1", "libstdc++.so.6", "libm.so.6",
                                         "libgcc_s.so.1",   "libc.so.6",      "ld-linux-x86-64.so.2"};
  std::size_t libraries = 0;
  std::size_t start = 0;
  while (start < output.size()) {
    const auto end = output.find('\n', start);
    std::string line = output.substr(start, end - start);
    start = end == std::string::npos ? output.size() : end + 1;
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    std::string library = line.substr(first, line.find_first_of(" \t", first) - first);
    if (const auto slash = library.rfind('/'); slash != std::string::npos) library = library.substr(slash + 1);
    EXPECT_TRUE(runtime.count(library)) << library << " is not part of the C or C++ runtime:\n" << output;
    ++libraries;
  }
  EXPECT_GE(libraries, 2u) << output;
}

}  // namespace

#include <gtest/gtest.h>

#include "spindle/core/quantities.h"

namespace spindle {
namespace {

struct MemoryCase {
  const char* text;
  std::uint64_t mib;
};

// Shown in test names; the default would print the pointer's bytes.
void PrintTo(const MemoryCase& memory_case, std::ostream* out) {
  *out << '"' << memory_case.text << '"';
}

class MemoryUnitsTest : public ::testing::TestWithParam<MemoryCase> {};

TEST_P(MemoryUnitsTest, ParsesToMiB) {
  auto parsed = parse_memory_mib(GetParam().text);
  ASSERT_TRUE(parsed.ok()) << GetParam().text << ": " << parsed.error().message;
  EXPECT_EQ(*parsed, GetParam().mib);
}

INSTANTIATE_TEST_SUITE_P(Units, MemoryUnitsTest,
                         ::testing::Values(MemoryCase{"2048", 2048}, MemoryCase{"2g", 2048}, MemoryCase{"2G", 2048},
                                           MemoryCase{"2 GiB", 2048}, MemoryCase{"2GiB", 2048},
                                           MemoryCase{"512 MiB", 512}, MemoryCase{"512m", 512}, MemoryCase{"512M", 512},
                                           MemoryCase{"1.5 GiB", 1536}, MemoryCase{"1.5g", 1536},
                                           MemoryCase{"1 TiB", 1048576}, MemoryCase{"1t", 1048576},
                                           MemoryCase{"524288k", 512}, MemoryCase{"1 KiB", 1},
                                           MemoryCase{"  4g  ", 4096}, MemoryCase{"2Gi", 2048},
                                           MemoryCase{"1.3 GiB", 1332}));

class BadMemoryTest : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(BadMemoryTest, RejectsWithReason) {
  auto parsed = parse_memory_mib(GetParam().first);
  ASSERT_FALSE(parsed.ok()) << GetParam().first << " was accepted as " << *parsed;
  EXPECT_NE(parsed.error().message.find(GetParam().second), std::string::npos) << parsed.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Rejected, BadMemoryTest,
    ::testing::Values(std::pair{"", "is empty"}, std::pair{"0", "is zero"}, std::pair{"0 GiB", "is zero"},
                      std::pair{"-1g", "is negative"}, std::pair{"2 GB", "decimal unit"},
                      std::pair{"2gb", "decimal unit"}, std::pair{"2 gigs", "unknown unit"},
                      std::pair{"1.5", "fraction but no unit"}, std::pair{"g", "is not a memory size"},
                      std::pair{"1..5g", "is not a memory size"}, std::pair{".5g", "is not a memory size"},
                      std::pair{"5.g", "is not a memory size"}, std::pair{"99999999999 TiB", "larger than any node"},
                      std::pair{"2 G B", "unknown unit"}));

TEST(MemoryFormat, RoundTrips) {
  for (std::uint64_t mib : {1ull, 512ull, 1024ull, 1536ull, 2048ull, 1048576ull}) {
    auto parsed = parse_memory_mib(format_memory_mib(mib));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, mib);
  }
  EXPECT_EQ(format_memory_mib(2048), "2 GiB");
  EXPECT_EQ(format_memory_mib(1536), "1536 MiB");
}

TEST(Duration, ParsesUnitsAndCombinations) {
  EXPECT_EQ(parse_duration("600")->count(), 600);
  EXPECT_EQ(parse_duration("90s")->count(), 90);
  EXPECT_EQ(parse_duration("30m")->count(), 1800);
  EXPECT_EQ(parse_duration("2h")->count(), 7200);
  EXPECT_EQ(parse_duration("1h30m")->count(), 5400);
  EXPECT_EQ(parse_duration("1d")->count(), 86400);
  EXPECT_EQ(format_duration(std::chrono::seconds(5400)), "1h30m");
  EXPECT_EQ(format_duration(std::chrono::seconds(90061)), "1d1h1m1s");
}

TEST(Duration, RejectsNonsense) {
  for (const char* text : {"", "soon", "-5m", "5x", "1h30", "h", "100000000000000000d"}) {
    EXPECT_FALSE(parse_duration(text).ok()) << text;
  }
}

}  // namespace
}  // namespace spindle

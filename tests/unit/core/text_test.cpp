#include "spindle/core/text.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

using Pieces = std::vector<std::string_view>;

TEST(Text, TrimsWhitespaceOrTheCharactersGiven) {
  EXPECT_EQ(trim(" \t a b\r\n"), "a b");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim(""), "");
  // HTTP's optional whitespace is spaces and tabs only.
  EXPECT_EQ(trim(" a\r", http_whitespace), "a\r");
}

TEST(Text, ChangesTheCaseOfAsciiLettersOnly) {
  EXPECT_EQ(to_lower("Host.EXAMPLE-1"), "host.example-1");
  EXPECT_EQ(to_upper("worker_2"), "WORKER_2");
  EXPECT_EQ(to_lower("\xc3\x89"), "\xc3\x89");
  EXPECT_TRUE(iequals("Negotiate", "NEGOTIATE"));
  EXPECT_FALSE(iequals("Negotiate", "Negotiat"));
  EXPECT_TRUE(istarts_with("Negotiate abc", "negotiate"));
  EXPECT_FALSE(istarts_with("Neg", "negotiate"));
}

TEST(Text, SplitKeepsEmptyPieces) {
  EXPECT_EQ(split("a__b", '_'), (Pieces{"a", "", "b"}));
  EXPECT_EQ(split("a_", '_'), (Pieces{"a", ""}));
  EXPECT_EQ(split("", '_'), (Pieces{""}));
}

TEST(Text, SplitListTrimsAndDropsEmptyItems) {
  EXPECT_EQ(split_list(" a, b ,,c ,"), (Pieces{"a", "b", "c"}));
  EXPECT_EQ(split_list("x=1; y=2", ';'), (Pieces{"x=1", "y=2"}));
  EXPECT_EQ(split_list(" , "), Pieces{});
}

TEST(Text, ComparesSecrets) {
  EXPECT_TRUE(same_secret("abc", "abc"));
  EXPECT_FALSE(same_secret("abc", "abd"));
  EXPECT_FALSE(same_secret("abc", "abcd"));
}

}  // namespace
}  // namespace spindle

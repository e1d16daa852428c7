#include "spindle/core/text_encodings.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

TEST(Base64, EncodesWithPadding) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(Base64, DecodesWhatItEncodes) {
  for (const std::string bytes : {std::string(), std::string("f"), std::string("fo"), std::string("foo"),
                                  std::string("\x00\x01\x02\xff", 4), std::string(1000, '\x7f')}) {
    const auto decoded = base64_decode(base64_encode(bytes));
    ASSERT_TRUE(decoded) << bytes;
    EXPECT_EQ(*decoded, bytes);
  }
}

TEST(Hex, TwoLowerCaseDigitsAByte) {
  EXPECT_EQ(hex_encode(""), "");
  EXPECT_EQ(hex_encode(std::string("\x00\x0f\xa0\xff", 4)), "000fa0ff");
}

TEST(Base64, RefusesWhatIsNotWholeBase64) {
  for (const char* text : {"Zg=", "Zg", "Z===", "Zm9v====", "Zg=a", "Z*==", " Zg==", "Zg==\n", "Zm=v"}) {
    EXPECT_FALSE(base64_decode(text)) << text;
  }
}

}  // namespace
}  // namespace spindle

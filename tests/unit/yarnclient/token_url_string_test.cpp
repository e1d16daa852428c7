#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "spindle/yarn/token_service.h"
#include "spindle/yarn/token_url_string.h"
#include "writable/writable_codec.h"

namespace spindle::yarn {
namespace {

// Built by hand: vint 3, identifier fb ff bf; vint 2, "pw"; Text
// "HDFS_DELEGATION_TOKEN" (21); Text "127.0.0.1:8020" (14); in URL-safe
// Base64 without the one '=' of padding. The identifier's bytes make the
// URL-safe characters '-'/'_' appear where standard Base64 has '+'/'/'.
const Token sample{"\xfb\xff\xbf", "pw", "HDFS_DELEGATION_TOKEN", "127.0.0.1:8020"};
constexpr std::string_view sample_url_string = "A_v_vwJwdxVIREZTX0RFTEVHQVRJT05fVE9LRU4OMTI3LjAuMC4xOjgwMjA";

TEST(TokenUrlString, EncodesAKnownToken) {
  EXPECT_EQ(encode_token_url_string(sample), sample_url_string);
}

TEST(TokenUrlString, DecodesAKnownToken) {
  auto token = decode_token_url_string(sample_url_string);
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_EQ(*token, sample);
}

TEST(TokenUrlString, AcceptsTheStandardAlphabetAndPadding) {
  auto token = decode_token_url_string("A/v/vwJwdxVIREZTX0RFTEVHQVRJT05fVE9LRU4OMTI3LjAuMC4xOjgwMjA=");
  ASSERT_TRUE(token.ok()) << token.error().message;
  EXPECT_EQ(*token, sample);
}

TEST(TokenUrlString, RoundTripsEveryRemainderAndLongFields) {
  for (std::size_t size : {0u, 1u, 2u, 3u, 4u, 127u, 128u, 300u, 70'000u}) {
    Token token{std::string(size, '\xab'), std::string(size % 7, '\x00'), "RM_DELEGATION_TOKEN", ""};
    auto back = decode_token_url_string(encode_token_url_string(token));
    ASSERT_TRUE(back.ok()) << size << ": " << back.error().message;
    EXPECT_EQ(*back, token) << size;
  }
}

TEST(TokenUrlString, RefusesWhatIsNotATokenWithoutQuotingIt) {
  const std::string whole(sample_url_string);
  for (const std::string& text : {std::string(), std::string("not base64!"), whole.substr(0, whole.size() - 10),
                                  whole + "AAAA", std::string("A=AA"), whole.substr(0, 5), std::string("gA")}) {
    auto token = decode_token_url_string(text);
    ASSERT_FALSE(token.ok()) << text;
    if (text.size() > 4) {
      EXPECT_EQ(token.error().message.find(text), std::string::npos) << token.error().message;
    }
  }
}

TEST(TokenUrlString, RefusesANegativeLength) {
  // vint -1 as the identifier's length, then nothing.
  auto token = decode_token_url_string("_w");
  ASSERT_FALSE(token.ok());
}

struct VlongCase {
  std::int64_t value;
  std::string bytes;
};

TEST(WritableVlong, EncodesTheEdgesAsHadoopDoes) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  const std::int64_t min = std::numeric_limits<std::int64_t>::min();
  const std::vector<VlongCase> cases = {
      {0, std::string(1, '\x00')},
      {127, "\x7f"},
      {-112, "\x90"},
      {128, "\x8f\x80"},
      {255, "\x8f\xff"},
      {256, std::string("\x8e\x01\x00", 3)},
      {-113, "\x87\x70"},
      {-129, "\x87\x80"},
      {65536, std::string("\x8d\x01\x00\x00", 4)},
      {std::numeric_limits<std::int32_t>::max(), "\x8c\x7f\xff\xff\xff"},
      {max, "\x88\x7f\xff\xff\xff\xff\xff\xff\xff"},
      {min, "\x80\x7f\xff\xff\xff\xff\xff\xff\xff"},
  };
  for (const auto& [value, bytes] : cases) {
    std::string out;
    writable::append_vlong(out, value);
    EXPECT_EQ(out, bytes) << value;
    std::string_view in = out;
    auto back = writable::take_vlong(in);
    ASSERT_TRUE(back.has_value()) << value;
    EXPECT_EQ(*back, value);
    EXPECT_TRUE(in.empty());
  }
}

TEST(WritableVlong, AnEndInsideANumberLeavesTheInputAlone) {
  std::string_view in("\x8e\x01", 2);
  EXPECT_FALSE(writable::take_vlong(in).has_value());
  EXPECT_EQ(in.size(), 2u);
  std::string_view empty;
  EXPECT_FALSE(writable::take_vlong(empty).has_value());
}

TEST(WritableSized, RefusesLengthsPastTheEndNegativeOrAboveAnInt) {
  for (const std::string& bytes : {std::string("\x05"
                                               "abc"),
                                   std::string("\xff"), std::string("\x8b\x01\x00\x00\x00\x00")}) {
    std::string_view in = bytes;
    EXPECT_FALSE(writable::take_sized(in).has_value());
    EXPECT_EQ(in.size(), bytes.size());
  }
  std::string_view fits(
      "\x03"
      "abcd",
      5);
  EXPECT_EQ(writable::take_sized(fits), "abc");
  EXPECT_EQ(fits, "d");
}

TEST(Redaction, HidesDelegationAndTokenParametersOnly) {
  EXPECT_EQ(redact_token_parameters("PUT http://nn:9870/webhdfs/v1/?op=RENEWDELEGATIONTOKEN&token=SECRET failed"),
            "PUT http://nn:9870/webhdfs/v1/?op=RENEWDELEGATIONTOKEN&token=<redacted> failed");
  EXPECT_EQ(redact_token_parameters("http://nn/webhdfs/v1/a?delegation=SECRET&op=OPEN"),
            "http://nn/webhdfs/v1/a?delegation=<redacted>&op=OPEN");
  EXPECT_EQ(redact_token_parameters("http://nn/x?op=OPEN&delegation=SECRET"),
            "http://nn/x?op=OPEN&delegation=<redacted>");
  EXPECT_EQ(redact_token_parameters("?user.name=me&mytoken=visible"), "?user.name=me&mytoken=visible");
  EXPECT_EQ(redact_token_parameters("a=1&token="), "a=1&token=<redacted>");
  EXPECT_EQ(redact_token_parameters("no parameters here"), "no parameters here");
}

TEST(TokenService, NamesTheNumericAddressOrTheHostAsConfigured) {
  HadoopConfiguration configuration;
  auto service = token_service("localhost:8020", 8020, configuration);
  ASSERT_TRUE(service.ok()) << service.error().message;
  EXPECT_EQ(*service, "127.0.0.1:8020");
  auto defaulted = token_service("127.0.0.1", 9870, configuration);
  ASSERT_TRUE(defaulted.ok());
  EXPECT_EQ(*defaulted, "127.0.0.1:9870");
  configuration.set("hadoop.security.token.service.use_ip", "false");
  auto by_name = token_service("NameNode.Example.COM:8020", 8020, configuration);
  ASSERT_TRUE(by_name.ok());
  EXPECT_EQ(*by_name, "namenode.example.com:8020");
}

TEST(TokenRenewer, IsTheResourceManagersPrincipalOnItsHost) {
  HadoopConfiguration configuration;
  EXPECT_FALSE(token_renewer(configuration).ok());
  configuration.set("yarn.resourcemanager.principal", "rm/_HOST@EXAMPLE.COM");
  configuration.set("yarn.resourcemanager.address", "RM1.example.com:8032");
  auto renewer = token_renewer(configuration);
  ASSERT_TRUE(renewer.ok()) << renewer.error().message;
  EXPECT_EQ(*renewer, "rm/rm1.example.com@EXAMPLE.COM");
  EXPECT_EQ(kerberos_short_name(*renewer), "rm");
  EXPECT_EQ(kerberos_short_name("yarn@EXAMPLE.COM"), "yarn");
  EXPECT_EQ(kerberos_short_name("alice"), "alice");
}

}  // namespace
}  // namespace spindle::yarn

#include <gtest/gtest.h>

#include "spindle/yarn/credentials.h"

namespace spindle::yarn {
namespace {

Credentials sample() {
  Credentials credentials;
  credentials.tokens["a"] = Token{"id", "pw", "K", "s"};
  return credentials;
}

TEST(Credentials, WritableLayoutByteForByte) {
  // HDTS, format 0, one token: alias, identifier, password, kind, service as
  // vint-prefixed bytes; then no secrets.
  const std::string expected(
      "HDTS\x00\x01\x01"
      "a\x02"
      "id\x02"
      "pw\x01"
      "K\x01"
      "s\x00",
      19);
  EXPECT_EQ(sample().serialize(), expected);
}

TEST(Credentials, RoundTripsBothFormats) {
  Credentials credentials;
  credentials.tokens[""] = Token{std::string(300, 'i'), std::string(20, '\x01'), "YARN_AM_RM_TOKEN", ""};
  credentials.tokens["hdfs"] = Token{"x", "y", "HDFS_DELEGATION_TOKEN", "10.0.0.1:8020"};
  credentials.secrets["job.secret"] = std::string("\x00\xff\x10", 3);
  for (auto format : {Credentials::Format::writable, Credentials::Format::protobuf}) {
    auto parsed = Credentials::parse(credentials.serialize(format));
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->tokens, credentials.tokens);
    EXPECT_EQ(parsed->secrets, credentials.secrets);
    ASSERT_NE(parsed->find_kind("YARN_AM_RM_TOKEN"), nullptr);
    EXPECT_EQ(parsed->find_kind("YARN_AM_RM_TOKEN")->identifier.size(), 300u);
    EXPECT_EQ(parsed->find_kind("NMToken"), nullptr);
  }
}

TEST(Credentials, WritableVariableLengthNumbers) {
  // A 128-byte identifier needs the two-byte form: 0x8F then 0x80.
  Credentials credentials;
  credentials.tokens["t"] = Token{std::string(128, 'x'), "", "k", ""};
  const std::string bytes = credentials.serialize();
  EXPECT_EQ(bytes.substr(8, 2), std::string("\x8f\x80", 2));
  auto parsed = Credentials::parse(bytes);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->tokens.at("t").identifier.size(), 128u);
}

TEST(Credentials, RejectsWhatIsNotCredentials) {
  const std::pair<std::string, const char*> cases[] = {
      {"", "does not start with HDTS"},
      {"HDTX\x00", "does not start with HDTS"},
      {std::string("HDTS\x07", 5), "format 7"},
      {std::string("HDTS\x00\x01\x01", 7), "cut off"},
      {std::string("HDTS\x00\x7f", 6), "claims 127 tokens"},
      {std::string("HDTS\x00\x00\x00\x00", 8), "bytes after its last entry"},
      {std::string("HDTS\x01\x05\x01", 7), "cut off"},
  };
  for (const auto& [bytes, message] : cases) {
    auto parsed = Credentials::parse(bytes, "tokens.bin");
    ASSERT_FALSE(parsed.ok()) << message;
    EXPECT_NE(parsed.error().message.find(message), std::string::npos) << parsed.error().message;
    EXPECT_EQ(parsed.error().message.rfind("tokens.bin", 0), 0u);
  }
}

TEST(Credentials, MissingFileNamesTheVariable) {
  auto parsed = Credentials::read_file("/nonexistent/container_tokens");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("HADOOP_TOKEN_FILE_LOCATION"), std::string::npos);
}

}  // namespace
}  // namespace spindle::yarn

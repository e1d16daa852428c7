// The credentials a client puts in an application master's launch context
// on a Kerberos cluster: several delegation tokens and the job's secret, in
// the Writable "HDTS" format 0 NodeManagers read (Credentials.readTokenStorageStream).

#include <gtest/gtest.h>

#include "spindle/yarn/credentials.h"
#include "spindle/yarn/token_url_string.h"

namespace spindle::yarn {
namespace {

Credentials job_credentials() {
  Credentials credentials;
  credentials.tokens["10.0.0.1:8020"] = Token{std::string(200, 'i'), "p1", "HDFS_DELEGATION_TOKEN", "10.0.0.1:8020"};
  credentials.tokens["10.0.0.2:8032"] = Token{"rm", "p2", "RM_DELEGATION_TOKEN", "10.0.0.2:8032"};
  credentials.tokens["10.0.0.3:9870"] = Token{"w", "", "WEBHDFS delegation", "10.0.0.3:9870"};
  credentials.secrets["spindle.job.secret"] = "s3cr3t";
  credentials.secrets["other"] = std::string("\x00\x01", 2);
  return credentials;
}

TEST(JobCredentials, WritableLayoutWithSeveralTokensAndSecrets) {
  std::string expected("HDTS\x00\x03", 6);
  // Tokens by alias; a 200-byte identifier takes a two-byte vint (0x8f 0xc8).
  expected += std::string(
                  "\x0d"
                  "10.0.0.1:8020") +
              "\x8f\xc8" + std::string(200, 'i') + "\x02p1" + "\x15HDFS_DELEGATION_TOKEN" +
              "\x0d"
              "10.0.0.1:8020";
  expected += std::string(
                  "\x0d"
                  "10.0.0.2:8032") +
              "\x02rm" + "\x02p2" + "\x13RM_DELEGATION_TOKEN" +
              "\x0d"
              "10.0.0.2:8032";
  expected += std::string(
                  "\x0d"
                  "10.0.0.3:9870") +
              "\x01w" + std::string(1, '\x00') + "\x12WEBHDFS delegation" +
              "\x0d"
              "10.0.0.3:9870";
  expected += "\x02";
  expected += std::string("\x05other\x02\x00\x01", 9);
  expected += "\x12spindle.job.secret\x06s3cr3t";
  EXPECT_EQ(job_credentials().serialize(), expected);
}

TEST(JobCredentials, SeveralTokensRoundTripInBothFormats) {
  const auto credentials = job_credentials();
  for (auto format : {Credentials::Format::writable, Credentials::Format::protobuf}) {
    auto parsed = Credentials::parse(credentials.serialize(format));
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->tokens, credentials.tokens);
    EXPECT_EQ(parsed->secrets, credentials.secrets);
  }
}

TEST(JobCredentials, ATokenFromAUrlStringGoesIntoCredentialsUnchanged) {
  const Token token{"\x00\x01identifier", "\xffpassword", "HDFS_DELEGATION_TOKEN", "127.0.0.1:8020"};
  auto decoded = decode_token_url_string(encode_token_url_string(token));
  ASSERT_TRUE(decoded.ok());
  Credentials credentials;
  credentials.tokens[decoded->service] = *decoded;
  auto parsed = Credentials::parse(credentials.serialize());
  ASSERT_TRUE(parsed.ok());
  ASSERT_NE(parsed->find_kind("HDFS_DELEGATION_TOKEN"), nullptr);
  EXPECT_EQ(*parsed->find_kind("HDFS_DELEGATION_TOKEN"), token);
}

}  // namespace
}  // namespace spindle::yarn

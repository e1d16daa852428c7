#include <gtest/gtest.h>

#include "ipc/digest_md5.h"

namespace spindle::yarn::ipc {
namespace {

// RFC 2831, section 4: the worked example of an IMAP login.
TEST(DigestMd5, MatchesTheRfcExample) {
  DigestMd5Client client("chris", "secret", "imap", "elwood.innosoft.com", [] { return "OA6MHXh6VqTrRk"; });
  auto response = client.respond(
      "realm=\"elwood.innosoft.com\",nonce=\"OA6MG9tEQGm2hh\",qop=\"auth\",algorithm=md5-sess,charset=utf-8");
  ASSERT_TRUE(response.ok()) << response.error().message;
  EXPECT_NE(response->find("response=d388dad90d4bbd760a152321f2143af7"), std::string::npos) << *response;
  EXPECT_NE(response->find("digest-uri=\"imap/elwood.innosoft.com\""), std::string::npos);
  EXPECT_NE(response->find("username=\"chris\""), std::string::npos);
  EXPECT_NE(response->find("realm=\"elwood.innosoft.com\""), std::string::npos);
  EXPECT_NE(response->find("nc=00000001"), std::string::npos);
  EXPECT_NE(response->find("charset=utf-8"), std::string::npos);
  EXPECT_TRUE(client.verify_server("rspauth=ea40f60335c427b5527b84dbabcdfffd").ok());
  EXPECT_FALSE(client.verify_server("rspauth=00000000000000000000000000000000").ok());
  EXPECT_FALSE(client.verify_server("nothing=here").ok());
}

TEST(DigestMd5, ParsesQuotedEscapesAndLists) {
  auto challenge = parse_digest_challenge(
      "realm=\"a\\\"b\", realm=\"second\",nonce=\"n,1\",qop=\"auth,auth-int\",algorithm=md5-sess");
  ASSERT_TRUE(challenge.ok()) << challenge.error().message;
  EXPECT_EQ(challenge->realms, (std::vector<std::string>{"a\"b", "second"}));
  EXPECT_EQ(challenge->nonce, "n,1");
  EXPECT_EQ(challenge->qop, (std::vector<std::string>{"auth", "auth-int"}));
}

TEST(DigestMd5, RejectsMalformedChallenges) {
  EXPECT_FALSE(parse_digest_challenge("realm=\"x\",algorithm=md5-sess").ok());  // no nonce
  EXPECT_FALSE(parse_digest_challenge("nonce=\"x\"").ok());                     // no algorithm
  EXPECT_FALSE(parse_digest_challenge("nonce=\"x,algorithm=md5-sess").ok());    // unterminated
  EXPECT_FALSE(parse_digest_challenge("=x").ok());
  EXPECT_FALSE(parse_digest_challenge("nonce=\"a\",nonce=\"b\",algorithm=md5-sess").ok());
}

TEST(DigestMd5, RefusesProtectionItCannotGive) {
  DigestMd5Client client("u", "p", "", "default", [] { return "c"; });
  auto response = client.respond("nonce=\"x\",qop=\"auth-int\",algorithm=md5-sess");
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.error().message.find("hadoop.rpc.protection"), std::string::npos);
}

TEST(DigestMd5, Base64IsStandardWithPadding) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64(std::string("\xff\xfe\x00", 3)), "//4A");
}

}  // namespace
}  // namespace spindle::yarn::ipc

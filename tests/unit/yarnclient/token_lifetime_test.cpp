// A delegation token's life, read from its identifier: the identifiers here
// are those of real tokens the local Kerberos YARN issued (their passwords
// left out), so both forms, Hadoop's Writable one (HDFS) and YARN's
// protobuf (the ResourceManager's), are read as the servers write them.

#include "spindle/yarn/token_lifetime.h"
#include <gtest/gtest.h>

namespace spindle::yarn {
namespace {

using std::chrono::milliseconds;
using std::chrono::system_clock;

std::string bytes_of(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

const Token hdfs_token{bytes_of("0004726f6f74047961726e008a01a2248e46988a01a2489aca980102"), "",
                       "HDFS_DELEGATION_TOKEN", "127.0.0.1:40393"};
const Token rm_token{bytes_of("0a10726f6f74404558414d504c452e434f4d12047961726e20a78db9a4a23428a795ebc4a43430013802"),
                     "", "RM_DELEGATION_TOKEN", "127.0.0.1:40797"};
const Token am_rm_token{bytes_of("0a0d0a09080110f5dbb8a4a234100110d2f3d3b3f8ffffffff01"), "", "YARN_AM_RM_TOKEN", ""};

TEST(TokenLifetime, AnHdfsTokenSaysWhoItIsForAndWhenItEnds) {
  const auto lifetime = read_token_lifetime(hdfs_token);
  ASSERT_TRUE(lifetime);
  EXPECT_EQ(lifetime->owner, "root");
  EXPECT_EQ(lifetime->renewer, "yarn");
  EXPECT_EQ(lifetime->issued, system_clock::time_point(milliseconds(1795909633688)));
  EXPECT_EQ(lifetime->ends - lifetime->issued, std::chrono::hours(24 * 7));  // Hadoop's default maximum
  EXPECT_EQ(lifetime->service, "127.0.0.1:40393");
}

TEST(TokenLifetime, AResourceManagerTokenIsReadFromItsProtobuf) {
  const auto lifetime = read_token_lifetime(rm_token);
  ASSERT_TRUE(lifetime);
  EXPECT_EQ(lifetime->owner, "root@EXAMPLE.COM");
  EXPECT_EQ(lifetime->renewer, "yarn");
  EXPECT_EQ(lifetime->issued, system_clock::time_point(milliseconds(1795909633703)));
  EXPECT_EQ(lifetime->ends - lifetime->issued, std::chrono::hours(24 * 7));
}

TEST(TokenLifetime, TokensThatAreNotDelegationTokensSayNothing) {
  EXPECT_FALSE(read_token_lifetime(am_rm_token));
  Token garbled = hdfs_token;
  garbled.identifier.resize(garbled.identifier.size() / 2);
  EXPECT_FALSE(read_token_lifetime(garbled));
  garbled.identifier = std::string("\x01", 1) + hdfs_token.identifier.substr(1);  // an unknown version
  EXPECT_FALSE(read_token_lifetime(garbled));
  Token swapped = rm_token;
  swapped.kind = "HDFS_DELEGATION_TOKEN";  // a protobuf read as Writable is no date
  EXPECT_FALSE(read_token_lifetime(swapped));
}

TEST(TokenLifetime, TheFirstToEndIsFound) {
  const auto first = first_to_end({am_rm_token, rm_token, hdfs_token});
  ASSERT_TRUE(first);
  // The NameNode issued its token 15 ms before the ResourceManager did, with the same lifetime.
  EXPECT_EQ(first->kind, "HDFS_DELEGATION_TOKEN");
  EXPECT_FALSE(first_to_end({am_rm_token}));
}

}  // namespace
}  // namespace spindle::yarn

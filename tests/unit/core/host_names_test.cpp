#include "spindle/core/host_names.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>

namespace {

std::uint16_t port_of(const spindle::SocketAddress& address) {
  return ntohs(address.family() == AF_INET ? reinterpret_cast<const sockaddr_in*>(&address.storage)->sin_port
                                           : reinterpret_cast<const sockaddr_in6*>(&address.storage)->sin6_port);
}

TEST(HostNames, AnIpLiteralIsItself) {
  auto found = spindle::resolve_host("10.1.2.3", 8032);
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ(found->front().numeric(), "10.1.2.3");
  EXPECT_EQ(port_of(found->front()), 8032);
}

TEST(HostNames, LocalhostComesFromEtcHostsWithIpv4First) {
  auto found = spindle::resolve_host("localhost", 0);
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(found->front().family(), AF_INET);
  EXPECT_EQ(found->front().numeric(), "127.0.0.1");
  auto ipv4 = spindle::resolve_host("localhost", 1, spindle::AddressFamily::ipv4);
  ASSERT_TRUE(ipv4);
  for (const auto& address : *ipv4) EXPECT_EQ(address.family(), AF_INET);
}

TEST(HostNames, AnUnknownNameIsOneSentenceNamingIt) {
  // c-ares refuses .onion names (RFC 7686) without asking any name server.
  auto found = spindle::resolve_host("no-such-host.onion", 80);
  ASSERT_FALSE(found);
  EXPECT_NE(found.error().message.find("cannot resolve no-such-host.onion: "), std::string::npos)
      << found.error().message;
  EXPECT_FALSE(spindle::resolve_host("", 80));
}

}  // namespace

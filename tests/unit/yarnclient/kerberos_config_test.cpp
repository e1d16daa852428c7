// What a keytab job's application master learns of the realm from the
// submitting machine's krb5.conf, and the krb5.conf it writes for itself.

#include "spindle/yarn/kerberos_config.h"
#include <gtest/gtest.h>

namespace spindle::yarn {
namespace {

const char* const sample = R"([libdefaults]
  default_realm = EXAMPLE.COM
  dns_lookup_kdc = false

# the cluster's realm and another
[realms]
  EXAMPLE.COM = {
    kdc = kdc1.example.com:750
    kdc = tcp/kdc2.example.com
    admin_server = kdc1.example.com
    kdc = https://proxy.example.com/KdcProxy
  }
  OTHER.ORG = {
    kdc = [fd00::5]:88
    kdc = [fd00::6]
  }

[domain_realm]
  .example.com = EXAMPLE.COM
)";

TEST(KerberosConfig, TheDefaultRealmsKdcsWithTheirPorts) {
  auto realm = realm_from_krb5_conf(sample, "krb5.conf");
  ASSERT_TRUE(realm) << realm.error().message;
  EXPECT_EQ(realm->name, "EXAMPLE.COM");
  // The HTTPS proxy is left out: the master speaks to KDCs over TCP.
  EXPECT_EQ(realm->kdcs, (std::vector<std::string>{"kdc1.example.com:750", "kdc2.example.com:88"}));
}

TEST(KerberosConfig, ANamedRealmAndIpv6Kdcs) {
  auto realm = realm_from_krb5_conf(sample, "krb5.conf", "OTHER.ORG");
  ASSERT_TRUE(realm) << realm.error().message;
  EXPECT_EQ(realm->kdcs, (std::vector<std::string>{"[fd00::5]:88", "[fd00::6]:88"}));
}

TEST(KerberosConfig, ARealmWithoutKdcsSaysWhatToAdd) {
  auto realm = realm_from_krb5_conf(sample, "/etc/krb5.conf", "ELSEWHERE.NET");
  ASSERT_FALSE(realm);
  EXPECT_NE(realm.error().message.find("names no KDC for the realm ELSEWHERE.NET"), std::string::npos);
  EXPECT_NE(realm.error().message.find("ELSEWHERE.NET = { kdc = <host>:88 }"), std::string::npos);
}

TEST(KerberosConfig, NoDefaultRealmAsksForThePrincipalsRealm) {
  auto realm = realm_from_krb5_conf("[realms]\n  A = {\n    kdc = k\n  }\n", "krb5.conf");
  ASSERT_FALSE(realm);
  EXPECT_NE(realm.error().message.find("names no default_realm"), std::string::npos);
}

TEST(KerberosConfig, BrokenFilesNameTheLine) {
  auto stray = realm_from_krb5_conf("[libdefaults]\n  default_realm = A\n}\n", "krb5.conf");
  ASSERT_FALSE(stray);
  EXPECT_NE(stray.error().message.find("krb5.conf, line 3"), std::string::npos) << stray.error().message;
  auto garbage = realm_from_krb5_conf("[realms]\n  what is this\n", "krb5.conf");
  ASSERT_FALSE(garbage);
  EXPECT_NE(garbage.error().message.find("line 2"), std::string::npos);
  auto open = realm_from_krb5_conf("[realms]\n  A = {\n    kdc = k\n", "krb5.conf", "A");
  ASSERT_FALSE(open);
  EXPECT_NE(open.error().message.find("ends inside a { } block"), std::string::npos);
}

TEST(KerberosConfig, TheContainersConfigurationUsesTcpAndNoDns) {
  const auto text = container_krb5_conf("EXAMPLE.COM", {"10.0.0.7:88", "[fd00::5]:750"});
  EXPECT_NE(text.find("default_realm = EXAMPLE.COM"), std::string::npos);
  EXPECT_NE(text.find("kdc = tcp/10.0.0.7:88"), std::string::npos);
  EXPECT_NE(text.find("kdc = tcp/[fd00::5]:750"), std::string::npos);
  for (const char* off :
       {"dns_lookup_kdc = false", "dns_lookup_realm = false", "dns_canonicalize_hostname = false", "rdns = false"}) {
    EXPECT_NE(text.find(off), std::string::npos) << off;
  }
  // What it writes reads back.
  auto back = realm_from_krb5_conf(text, "spindle-krb5.conf");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->kdcs, (std::vector<std::string>{"10.0.0.7:88", "[fd00::5]:750"}));
}

}  // namespace
}  // namespace spindle::yarn

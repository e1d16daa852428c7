// Kerberos pieces that need no KDC: which auth the client takes from the
// server's offer, the server-principal check, RFC 4752's security-layer
// message, and the sentences for failures, including real GSS-API failures
// with a missing cache, an expired ticket and an unreachable KDC.

#include <gssapi/gssapi.h>
#include <gtest/gtest.h>
#include <krb5/krb5.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "closed_port.h"
#include "ipc/gssapi_mechanism.h"
#include "ipc/gssapi_security_layer.h"
#include "ipc/kerberos_errors.h"
#include "ipc/sasl_mechanism.h"
#include "ipc/server_principal.h"

namespace spindle::yarn::ipc {
namespace {

namespace hadoop = spindle::wire::hadoop;

hadoop::RpcSasl offers(std::initializer_list<std::pair<const char*, const char*>> auths) {
  hadoop::RpcSasl negotiate;
  negotiate.set_state(hadoop::RpcSasl::NEGOTIATE);
  for (const auto& [method, mechanism] : auths) {
    auto* auth = negotiate.add_auths();
    auth->set_method(method);
    auth->set_mechanism(mechanism);
  }
  return negotiate;
}

TEST(ChooseAuth, TakesTheTokenWhenHeldAndOffered) {
  const auto negotiate = offers({{"TOKEN", "DIGEST-MD5"}, {"KERBEROS", "GSSAPI"}});
  const auto choice = choose_auth(negotiate, true, true);
  EXPECT_EQ(choice.method, AuthChoice::Method::token);
  EXPECT_EQ(choice.offer, &negotiate.auths(0));
}

TEST(ChooseAuth, TakesKerberosWithoutAToken) {
  const auto negotiate = offers({{"TOKEN", "DIGEST-MD5"}, {"KERBEROS", "GSSAPI"}});
  const auto choice = choose_auth(negotiate, false, true);
  EXPECT_EQ(choice.method, AuthChoice::Method::kerberos);
  EXPECT_EQ(choice.offer->server_id(), negotiate.auths(1).server_id());
}

TEST(ChooseAuth, FallsBackToSimpleOnlyWhenTheServerAllowsIt) {
  EXPECT_EQ(choose_auth(offers({{"KERBEROS", "GSSAPI"}, {"SIMPLE", ""}}), false, false).method,
            AuthChoice::Method::simple);
  EXPECT_EQ(choose_auth(offers({{"KERBEROS", "GSSAPI"}}), true, false).method, AuthChoice::Method::none);
  // A method with an unexpected mechanism is not the method.
  EXPECT_EQ(choose_auth(offers({{"KERBEROS", "PLAIN"}}), false, true).method, AuthChoice::Method::none);
}

TEST(ServerPrincipal, HostPlaceholderBecomesTheServerHostInLowerCase) {
  EXPECT_EQ(substitute_host("rm/_HOST@EXAMPLE.COM", "RM1.Example.com"), "rm/rm1.example.com@EXAMPLE.COM");
  EXPECT_EQ(substitute_host("rm/fixed.example.com@EXAMPLE.COM", "other"), "rm/fixed.example.com@EXAMPLE.COM");
  // Only the three-part form is a pattern, as in Hadoop.
  EXPECT_EQ(substitute_host("rm/_HOST", "host"), "rm/_HOST");
}

TEST(ServerPrincipal, SplitsServiceHostAndRealm) {
  const auto parts = split_principal("nn/host.example.com@EXAMPLE.COM");
  EXPECT_EQ(parts.service, "nn");
  EXPECT_EQ(parts.host, "host.example.com");
  EXPECT_EQ(parts.realm, "EXAMPLE.COM");
  EXPECT_EQ(split_principal("alice").host, "");
}

TEST(ServerPrincipal, AcceptsTheConfiguredPrincipal) {
  KerberosOptions options;
  options.server_principal = "rm/_HOST@EXAMPLE.COM";
  EXPECT_TRUE(check_server_principal("rm/rm1.example.com", options, "rm1.example.com", "EXAMPLE.COM").ok());
  // Host names compare without case; a realm-less configuration takes any realm.
  EXPECT_TRUE(check_server_principal("rm/RM1.example.com", options, "rm1.example.com", "EXAMPLE.COM").ok());
  options.server_principal = "rm/rm1.example.com";
  EXPECT_TRUE(check_server_principal("rm/rm1.example.com", options, "rm1.example.com", "OTHER.ORG").ok());
}

TEST(ServerPrincipal, RefusesAnotherPrincipalWithASentence) {
  KerberosOptions options;
  options.server_principal = "rm/_HOST@EXAMPLE.COM";
  auto wrong_host = check_server_principal("rm/evil.example.com", options, "rm1.example.com", "EXAMPLE.COM");
  ASSERT_FALSE(wrong_host.ok());
  EXPECT_EQ(wrong_host.error().kind, Error::Kind::authentication);
  EXPECT_EQ(wrong_host.error().message,
            "the server rm1.example.com presents Kerberos principal rm/evil.example.com@EXAMPLE.COM, but the "
            "configured server principal is rm/rm1.example.com@EXAMPLE.COM; check the service's principal in the "
            "Hadoop configuration (e.g. yarn.resourcemanager.principal) and that the address names the right server");
  EXPECT_FALSE(check_server_principal("nn/rm1.example.com", options, "rm1.example.com", "EXAMPLE.COM").ok());
  EXPECT_FALSE(check_server_principal("rm/rm1.example.com", options, "rm1.example.com", "OTHER.ORG").ok());
  options.server_principal = "rm@EXAMPLE.COM";
  auto no_host = check_server_principal("rm/rm1.example.com", options, "rm1.example.com", "EXAMPLE.COM");
  ASSERT_FALSE(no_host.ok());
  EXPECT_NE(no_host.error().message.find("has no host part"), std::string::npos);
}

TEST(ServerPrincipal, PatternReplacesTheExactCheck) {
  KerberosOptions options;
  options.server_principal = "rm/_HOST@EXAMPLE.COM";
  options.server_principal_pattern = "rm/*.example.com@EXAMPLE.COM";
  EXPECT_TRUE(check_server_principal("rm/rm2.example.com", options, "rm1.example.com", "EXAMPLE.COM").ok());
  auto refused = check_server_principal("rm/rm2.example.org", options, "rm1.example.com", "EXAMPLE.COM");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("does not match the configured pattern"), std::string::npos);
}

TEST(ServerPrincipal, NoConfiguredPrincipalAcceptsTheServers) {
  EXPECT_TRUE(check_server_principal("rm/any.host", KerberosOptions{}, "rm1", "EXAMPLE.COM").ok());
}

TEST(ServerPrincipal, CanonicalNameOfLocalhostResolves) {
  EXPECT_FALSE(canonical_host_name("localhost").empty());
  EXPECT_EQ(canonical_host_name("no-such-host.invalid"), "no-such-host.invalid");
}

TEST(SecurityLayer, ParsesTheServersOffer) {
  auto offer = parse_security_layer_offer(std::string("\x07\x01\x00\x00", 4), "rm1");
  ASSERT_TRUE(offer.ok());
  EXPECT_EQ(offer->layers, 7);
  EXPECT_EQ(offer->max_message_size, 65536u);
  EXPECT_FALSE(parse_security_layer_offer("abc", "rm1").ok());
}

TEST(SecurityLayer, AnswersNoLayerWithoutBufferOrAuthorizationId) {
  auto choice = choose_security_layer(SecurityLayerOffer{security_layer_none | security_layer_confidentiality, 65536},
                                      {RpcProtection::authentication}, "rm1");
  ASSERT_TRUE(choice.ok());
  EXPECT_EQ(choice->protection, RpcProtection::authentication);
  EXPECT_EQ(choice->answer, std::string("\x01\x00\x00\x00", 4));
}

TEST(SecurityLayer, TakesTheStrongestLayerBothAllowAndSaysItsBuffer) {
  const SecurityLayerOffer all{security_layer_none | security_layer_integrity | security_layer_confidentiality, 65536};
  auto privacy = choose_security_layer(
      all, {RpcProtection::authentication, RpcProtection::integrity, RpcProtection::privacy}, "rm1");
  ASSERT_TRUE(privacy.ok());
  EXPECT_EQ(privacy->protection, RpcProtection::privacy);
  EXPECT_EQ(privacy->answer, std::string("\x04\x01\x00\x00", 4));
  auto integrity = choose_security_layer(all, {RpcProtection::integrity, RpcProtection::authentication}, "rm1");
  ASSERT_TRUE(integrity.ok());
  EXPECT_EQ(integrity->protection, RpcProtection::integrity);
  EXPECT_EQ(integrity->answer[0], '\x02');
}

TEST(SecurityLayer, SaysClearlyWhenTheServerRequiresMoreThanAllowed) {
  auto integrity = choose_security_layer(SecurityLayerOffer{security_layer_integrity, 65536},
                                         {RpcProtection::authentication}, "rm1:8032");
  ASSERT_FALSE(integrity.ok());
  EXPECT_EQ(integrity.error().message,
            "rm1:8032 requires RPC integrity, but hadoop.rpc.protection here allows only authentication; set "
            "hadoop.rpc.protection in core-site.xml to what the cluster uses");
  auto privacy = choose_security_layer(SecurityLayerOffer{security_layer_confidentiality, 65536},
                                       {RpcProtection::authentication, RpcProtection::integrity}, "rm1:8032");
  ASSERT_FALSE(privacy.ok());
  EXPECT_NE(privacy.error().message.find("requires RPC privacy"), std::string::npos);
}

KerberosAttempt attempt_on_cache() {
  KerberosAttempt attempt;
  attempt.server = "rm1.example.com";
  attempt.target = "rm/rm1.example.com";
  attempt.client_principal = "alice@EXAMPLE.COM";
  attempt.ticket_cache = "FILE:/tmp/krb5cc_1000";
  attempt.realm = "EXAMPLE.COM";
  return attempt;
}

TEST(KerberosSentences, NoTicketTellsToRunKinit) {
  const auto error = kerberos_failure(attempt_on_cache(), GSS_S_NO_CRED, KRB5_FCC_NOFILE, "No credentials cache");
  EXPECT_EQ(error.kind, Error::Kind::authentication);
  EXPECT_EQ(error.message,
            "there is no Kerberos ticket for the cluster (FILE:/tmp/krb5cc_1000 is empty or missing); run `kinit` to "
            "get one, or give a keytab and principal (spindle.kerberos.keytab and spindle.kerberos.principal)");
  EXPECT_EQ(kerberos_failure(attempt_on_cache(), GSS_S_NO_CRED, 0, "").message, error.message);
}

TEST(KerberosSentences, EachCommonFailureHasItsOwnSentence) {
  const auto attempt = attempt_on_cache();
  const auto expired = kerberos_failure(attempt, GSS_S_FAILURE, KRB5KRB_AP_ERR_TKT_EXPIRED, "");
  EXPECT_NE(expired.message.find("the Kerberos ticket of alice@EXAMPLE.COM in FILE:/tmp/krb5cc_1000 has expired; "
                                 "run `kinit` again"),
            std::string::npos);
  const auto unreachable = kerberos_failure(attempt, GSS_S_FAILURE, KRB5_KDC_UNREACH, "");
  EXPECT_NE(unreachable.message.find("no Kerberos KDC of realm EXAMPLE.COM answered"), std::string::npos);
  const auto unknown_service = kerberos_failure(attempt, GSS_S_FAILURE, KRB5KDC_ERR_S_PRINCIPAL_UNKNOWN, "");
  EXPECT_NE(unknown_service.message.find("knows no service principal rm/rm1.example.com"), std::string::npos);
  const auto skew = kerberos_failure(attempt, GSS_S_FAILURE, KRB5KRB_AP_ERR_SKEW, "");
  EXPECT_NE(skew.message.find("clock"), std::string::npos);
  const auto other = kerberos_failure(attempt, GSS_S_BAD_MECH, 0, "An unsupported mechanism was requested");
  EXPECT_NE(other.message.find("An unsupported mechanism was requested"), std::string::npos);
  for (const auto* error : {&expired, &unreachable, &unknown_service, &skew, &other}) {
    EXPECT_EQ(error->kind, Error::Kind::authentication) << error->message;
  }
}

// A private Kerberos world for the real GSS-API failures: our own krb5.conf
// (realm EXAMPLE.TEST, a KDC on a closed port) and ticket cache path.
class GssFailures : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ =
        std::filesystem::temp_directory_path() / ("spindle-krb5-" + std::to_string(::getpid()) + "-" +
                                                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(directory_);
    std::ofstream(directory_ / "krb5.conf")
        << "[libdefaults]\n  default_realm = EXAMPLE.TEST\n"
        << "  dns_lookup_kdc = false\n  dns_lookup_realm = false\n"
        << "  udp_preference_limit = 1\n"
        << "[realms]\n  EXAMPLE.TEST = {\n    kdc = 127.0.0.1:" << testing::closed_port() << "\n  }\n";
    remember("KRB5_CONFIG", (directory_ / "krb5.conf").string());
    remember("KRB5CCNAME", "FILE:" + (directory_ / "ccache").string());
    remember("KRB5_CLIENT_KTNAME", "FILE:" + (directory_ / "no-client-keytab").string());
  }
  void TearDown() override {
    for (const auto& [name, value] : saved_) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
    std::filesystem::remove_all(directory_);
  }

  static hadoop::RpcSasl::Auth kerberos_offer() {
    hadoop::RpcSasl::Auth offer;
    offer.set_method("KERBEROS");
    offer.set_mechanism("GSSAPI");
    offer.set_protocol("rm");
    offer.set_server_id("localhost");
    return offer;
  }

  Result<std::string> start(const KerberosOptions& options) {
    auto mechanism = gssapi_mechanism(options, "localhost", {RpcProtection::authentication});
    if (!mechanism) return mechanism.error();
    return (*mechanism)->start(kerberos_offer());
  }

  // A cache holding a ticket-granting ticket that ran out an hour ago.
  void write_expired_cache() {
    krb5_context context = nullptr;
    ASSERT_EQ(krb5_init_context(&context), 0);
    krb5_ccache cache = nullptr;
    krb5_principal client = nullptr;
    krb5_principal server = nullptr;
    ASSERT_EQ(krb5_cc_default(context, &cache), 0);
    ASSERT_EQ(krb5_parse_name(context, "alice@EXAMPLE.TEST", &client), 0);
    ASSERT_EQ(krb5_parse_name(context, "krbtgt/EXAMPLE.TEST@EXAMPLE.TEST", &server), 0);
    ASSERT_EQ(krb5_cc_initialize(context, cache, client), 0);
    krb5_creds credentials{};
    credentials.client = client;
    credentials.server = server;
    const auto now = static_cast<krb5_timestamp>(std::time(nullptr));
    credentials.times.authtime = now - 7200;
    credentials.times.starttime = now - 7200;
    credentials.times.endtime = now - 3600;
    credentials.keyblock.enctype = ENCTYPE_AES256_CTS_HMAC_SHA1_96;
    static krb5_octet key[32] = {};
    credentials.keyblock.contents = key;
    credentials.keyblock.length = sizeof(key);
    static char ticket[] = "not a real ticket";
    credentials.ticket.data = ticket;
    credentials.ticket.length = sizeof(ticket);
    ASSERT_EQ(krb5_cc_store_cred(context, cache, &credentials), 0);
    krb5_free_principal(context, client);
    krb5_free_principal(context, server);
    krb5_cc_close(context, cache);
    krb5_free_context(context);
  }

  // A keytab with a made-up key for alice, enough to start asking the KDC.
  std::string write_keytab() {
    const std::string name = "FILE:" + (directory_ / "alice.keytab").string();
    krb5_context context = nullptr;
    EXPECT_EQ(krb5_init_context(&context), 0);
    krb5_keytab keytab = nullptr;
    EXPECT_EQ(krb5_kt_resolve(context, name.c_str(), &keytab), 0);
    krb5_keytab_entry entry{};
    EXPECT_EQ(krb5_parse_name(context, "alice@EXAMPLE.TEST", &entry.principal), 0);
    entry.vno = 1;
    static krb5_octet key[32] = {1, 2, 3};
    entry.key.enctype = ENCTYPE_AES256_CTS_HMAC_SHA1_96;
    entry.key.contents = key;
    entry.key.length = sizeof(key);
    EXPECT_EQ(krb5_kt_add_entry(context, keytab, &entry), 0);
    krb5_free_principal(context, entry.principal);
    krb5_kt_close(context, keytab);
    krb5_free_context(context);
    return (directory_ / "alice.keytab").string();
  }

  std::filesystem::path directory_;

 private:
  void remember(const std::string& name, const std::string& value) {
    const char* old = std::getenv(name.c_str());
    saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST_F(GssFailures, MissingTicketCacheSaysToRunKinit) {
  auto started = start(KerberosOptions{});
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error().kind, Error::Kind::authentication);
  EXPECT_NE(started.error().message.find("there is no Kerberos ticket for the cluster (FILE:" +
                                         (directory_ / "ccache").string() + " is empty or missing); run `kinit`"),
            std::string::npos)
      << started.error().message;
}

TEST_F(GssFailures, ExpiredTicketSaysToRunKinitAgain) {
  write_expired_cache();
  auto started = start(KerberosOptions{});
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error().kind, Error::Kind::authentication);
  EXPECT_NE(started.error().message.find("has expired; run `kinit` again"), std::string::npos)
      << started.error().message;
  EXPECT_EQ(started.error().message.find("not a real ticket"), std::string::npos);
}

TEST_F(GssFailures, UnreachableKdcIsNamed) {
  KerberosOptions options;
  options.login = KerberosLogin{"alice@EXAMPLE.TEST", write_keytab()};
  auto started = start(options);
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error().kind, Error::Kind::authentication);
  EXPECT_NE(started.error().message.find("no Kerberos KDC of realm EXAMPLE.TEST answered"), std::string::npos)
      << started.error().message;
  // The keytab login never touched the user's cache.
  EXPECT_FALSE(std::filesystem::exists(directory_ / "ccache"));
}

TEST_F(GssFailures, UnreadableKeytabIsNamed) {
  KerberosOptions options;
  options.login = KerberosLogin{"alice@EXAMPLE.TEST", (directory_ / "missing.keytab").string()};
  auto started = start(options);
  ASSERT_FALSE(started.ok());
  EXPECT_NE(started.error().message.find("the keytab " + (directory_ / "missing.keytab").string() + " cannot be read"),
            std::string::npos);
}

TEST_F(GssFailures, WrongServerPrincipalIsRefusedBeforeAnyTicketIsUsed) {
  KerberosOptions options;
  options.server_principal = "rm/other.example.test@EXAMPLE.TEST";
  auto started = start(options);
  ASSERT_FALSE(started.ok());
  EXPECT_NE(started.error().message.find("presents Kerberos principal rm/localhost@EXAMPLE.TEST"), std::string::npos)
      << started.error().message;
}

}  // namespace
}  // namespace spindle::yarn::ipc

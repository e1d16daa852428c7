// The screen's side of Kerberos logins: which requests it lets in, what it
// answers, and the cookie a login leaves. The GSS-API side (a real keytab,
// real tickets) is tested against the secure local YARN's KDC; here the
// check of a Negotiate token is a table of tokens.
#include <gtest/gtest.h>

#include "login_cookie.h"
#include "spindle/tbproxy/request_screen.h"

namespace spindle::tbproxy {
namespace {

using namespace std::chrono_literals;

http::request_header<> get(const std::string& target) {
  http::request_header<> request;
  request.method(http::verb::get);
  request.target(target);
  request.version(11);
  request.set(http::field::host, "gateway.example.com:8443");
  return request;
}

ScreenPolicy kerberos_policy(std::string token = {}) {
  auto logins = std::make_shared<KerberosLogins>();
  logins->served_user = "carol";
  logins->cookie_secret = "the server's secret";
  logins->accept = [](std::string_view negotiate) -> Result<KerberosUser> {
    if (negotiate == "Y2Fyb2w=") return KerberosUser{"carol@EXAMPLE.COM", "carol", 8h};
    if (negotiate == "ZGF2ZQ==") return KerberosUser{"dave@EXAMPLE.COM", "dave", 8h};
    if (negotiate == "Zm9yZWlnbg==") return KerberosUser{"carol@OTHER.REALM", "", 8h};
    if (negotiate == "c2hvcnQ=") return KerberosUser{"carol@EXAMPLE.COM", "carol", 30s};
    return make_error("Request is a replay");
  };
  ScreenPolicy policy;
  policy.access_token = std::move(token);
  policy.loopback_hosts_only = false;
  policy.has_site = true;
  policy.kerberos = std::move(logins);
  return policy;
}

Answer answer_of(const Verdict& verdict) {
  const auto* answer = std::get_if<Answer>(&verdict);
  EXPECT_NE(answer, nullptr);
  return answer ? *answer : Answer{};
}

std::string login_cookie_of(const Verdict& verdict) {
  const auto* to_site = std::get_if<ToSite>(&verdict);
  EXPECT_NE(to_site, nullptr);
  return to_site ? to_site->set_cookie : std::string();
}

TEST(KerberosLogin, WithoutCredentialsTheAnswerAsksForNegotiateAndSaysWhatToDo) {
  const auto answer = answer_of(screen_request(get("/"), kerberos_policy("t0k3n")));
  EXPECT_EQ(answer.status, http::status::unauthorized);
  EXPECT_TRUE(answer.negotiate);
  EXPECT_NE(answer.sentence.find("kinit"), std::string::npos) << answer.sentence;
  EXPECT_NE(answer.sentence.find("?token="), std::string::npos) << answer.sentence;
}

TEST(KerberosLogin, TheServedUserIsLetInAndGivenASecureHttpOnlyCookie) {
  auto policy = kerberos_policy();
  policy.secure_cookie = true;
  auto request = get("/api/v1/jobs");
  request.set(http::field::authorization, "Negotiate Y2Fyb2w=");
  const auto cookie = login_cookie_of(screen_request(request, policy));
  EXPECT_TRUE(cookie.starts_with("spindle_login=")) << cookie;
  EXPECT_NE(cookie.find("; Max-Age=28800"), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("; HttpOnly; SameSite=Strict; Secure"), std::string::npos) << cookie;

  // The cookie alone lets the next request in, without a new exchange.
  auto next = get("/api/v1/cluster");
  next.set(http::field::cookie, "other=1; " + cookie.substr(0, cookie.find(';')));
  const auto verdict = screen_request(next, policy);
  ASSERT_TRUE(std::holds_alternative<ToSite>(verdict));
  EXPECT_TRUE(std::get<ToSite>(verdict).set_cookie.empty());
}

TEST(KerberosLogin, AnotherUserIsRefusedAndToldToRunTheirOwnServer) {
  auto request = get("/");
  request.set(http::field::authorization, "Negotiate ZGF2ZQ==");
  const auto answer = answer_of(screen_request(request, kerberos_policy()));
  EXPECT_EQ(answer.status, http::status::forbidden);
  EXPECT_FALSE(answer.negotiate);
  EXPECT_EQ(answer.sentence,
            "You signed in with Kerberos as dave@EXAMPLE.COM, but this server acts for carol alone, with carol's own "
            "ticket, and never for anyone else; run spindle serve as yourself to reach your jobs.");
  EXPECT_TRUE(answer.set_cookie.empty());
}

TEST(KerberosLogin, TheSameNameFromAnotherRealmIsAnotherUser) {
  auto request = get("/");
  request.set(http::field::authorization, "Negotiate Zm9yZWlnbg==");
  EXPECT_EQ(answer_of(screen_request(request, kerberos_policy())).status, http::status::forbidden);
}

TEST(KerberosLogin, ARefusedTokenNamesWhy) {
  auto request = get("/");
  request.set(http::field::authorization, "Negotiate b2xk");
  const auto answer = answer_of(screen_request(request, kerberos_policy()));
  EXPECT_EQ(answer.status, http::status::forbidden);
  EXPECT_EQ(answer.sentence, "The Kerberos login was refused: Request is a replay.");
}

TEST(KerberosLogin, ATicketAboutToExpireLetsOneRequestInAndLeavesNoCookie) {
  auto request = get("/");
  request.set(http::field::authorization, "Negotiate c2hvcnQ=");
  EXPECT_EQ(login_cookie_of(screen_request(request, kerberos_policy())), "");
}

TEST(KerberosLogin, AForgedExpiredOrForeignCookieAsksForANewLogin) {
  const auto policy = kerberos_policy();
  const auto now = std::chrono::system_clock::now();
  const auto good = make_login_cookie("carol@EXAMPLE.COM", now + 1h, "the server's secret");
  ASSERT_TRUE(verified_login(good, "the server's secret", now));
  std::string forged = good;
  forged[2] = forged[2] == 'A' ? 'B' : 'A';
  const std::string cookies[] = {
      forged,
      make_login_cookie("carol@EXAMPLE.COM", now - 1s, "the server's secret"),
      make_login_cookie("carol@EXAMPLE.COM", now + 1h, "another server's secret"),
      "",
      ".",
      "x.y",
      "bm8gbmV3bGluZQ==.00",
  };
  for (const auto& cookie : cookies) {
    auto request = get("/");
    request.set(http::field::cookie, "spindle_login=" + cookie);
    const auto answer = answer_of(screen_request(request, policy));
    EXPECT_EQ(answer.status, http::status::unauthorized) << cookie;
    EXPECT_TRUE(answer.negotiate) << cookie;
  }
}

TEST(KerberosLogin, TheTokenStillWorksBesideIt) {
  auto request = get("/api/v1/jobs");
  request.set(http::field::authorization, "Bearer t0k3n");
  EXPECT_TRUE(std::holds_alternative<ToSite>(screen_request(request, kerberos_policy("t0k3n"))));
  request.set(http::field::authorization, "Bearer wrong");
  EXPECT_EQ(answer_of(screen_request(request, kerberos_policy("t0k3n"))).status, http::status::forbidden);
}

TEST(KerberosLogin, ALoginToATensorBoardSetsTheCookieOnWhatIsForwarded) {
  auto request = get("/tb/application_1_0001/");
  request.set(http::field::authorization, "Negotiate Y2Fyb2w=");
  const auto verdict = screen_request(request, kerberos_policy());
  ASSERT_TRUE(std::holds_alternative<Forward>(verdict));
  EXPECT_TRUE(std::get<Forward>(verdict).set_cookie.starts_with("spindle_login="));
}

TEST(KerberosLogin, TensorBoardNeverSeesTheLoginCookie) {
  auto request = get("/tb/application_1_0001/data");
  request.set(http::field::cookie, "theme=dark; spindle_login=abc.def");
  const auto head = upstream_request_head(request, ProxyRoute{"application_1_0001", "/data"}, "10.0.0.5:6006",
                                          "10.0.0.9", "https", false, 0);
  EXPECT_EQ(head[http::field::cookie], "theme=dark");
}

}  // namespace
}  // namespace spindle::tbproxy

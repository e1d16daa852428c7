#include "ipc/sasl_mechanism.h"

#include <atomic>
#include <optional>

#include "ipc/digest_md5.h"

namespace spindle::yarn::ipc {
namespace {

class TokenDigestMd5 final : public SaslMechanism {
 public:
  TokenDigestMd5(Token token, std::function<std::string()> make_cnonce, std::vector<RpcProtection> allowed)
      : token_(std::move(token)), make_cnonce_(std::move(make_cnonce)), allowed_(std::move(allowed)) {}

  std::string_view method() const override { return "TOKEN"; }
  std::string_view mechanism() const override { return "DIGEST-MD5"; }
  std::optional<std::string> context_user() const override { return std::nullopt; }

  Result<std::string> start(const wire::hadoop::RpcSasl::Auth& offer) override {
    digest_.emplace(base64(token_.identifier), base64(token_.password), offer.protocol(), offer.server_id(),
                    make_cnonce_, allowed_);
    return digest_->respond(offer.challenge());
  }

  // DIGEST-MD5 has one more message after the client's response: the
  // server's proof, which some servers send as a challenge.
  Result<std::string> step(std::string_view challenge) override {
    if (auto verified = finish(challenge); !verified) return verified.error();
    return std::string();
  }

  Result<void> finish(std::string_view final_message) override {
    if (final_message.empty() || proven_) return {};
    if (!digest_) return make_error("the server ended DIGEST-MD5 before it began");
    auto verified = digest_->verify_server(final_message);
    proven_ = verified.ok();
    return verified;
  }

  Result<std::unique_ptr<SecurityLayer>> security_layer() override {
    if (!digest_) return std::unique_ptr<SecurityLayer>();
    // A layer keyed by a server that never proved it knows the password
    // would seal nothing worth having.
    if (digest_->protection() != RpcProtection::authentication && !proven_) {
      return make_error("the server agreed on RPC " + std::string(to_string(digest_->protection())) +
                        " without proving that it knows the token's password");
    }
    return digest_->security_layer();
  }

 private:
  Token token_;
  std::function<std::string()> make_cnonce_;
  std::vector<RpcProtection> allowed_;
  std::optional<DigestMd5Client> digest_;
  bool proven_ = false;
};

}  // namespace

std::unique_ptr<SaslMechanism> token_mechanism(Token token, std::function<std::string()> make_cnonce,
                                               std::vector<RpcProtection> allowed) {
  return std::make_unique<TokenDigestMd5>(std::move(token), std::move(make_cnonce), std::move(allowed));
}

AuthChoice choose_auth(const wire::hadoop::RpcSasl& negotiate, bool have_token, bool want_kerberos) {
  for (const auto& auth : negotiate.auths()) {
    if (have_token && auth.method() == "TOKEN" && auth.mechanism() == "DIGEST-MD5") {
      return {AuthChoice::Method::token, &auth};
    }
    if (want_kerberos && auth.method() == "KERBEROS" && auth.mechanism() == "GSSAPI") {
      return {AuthChoice::Method::kerberos, &auth};
    }
    if (auth.method() == "SIMPLE") return {AuthChoice::Method::simple, &auth};
  }
  return {};
}

namespace {
// Set once, before any connection, by a static initializer of the Kerberos
// library; constant-initialized, so no initialization order matters.
constinit std::atomic<KerberosMechanismFactory> installed_kerberos{nullptr};
constinit std::atomic<TicketPrincipalReader> installed_principal_reader{nullptr};
constinit std::atomic<KeytabLogin> installed_keytab_login{nullptr};
}  // namespace

void install_keytab_login(KeytabLogin login) {
  installed_keytab_login.store(login);
}

KeytabLogin keytab_login() {
  return installed_keytab_login.load();
}

void install_ticket_principal_reader(TicketPrincipalReader reader) {
  installed_principal_reader.store(reader);
}

TicketPrincipalReader ticket_principal_reader() {
  return installed_principal_reader.load();
}

void install_kerberos_mechanism(KerberosMechanismFactory factory) {
  installed_kerberos.store(factory);
}

KerberosMechanismFactory kerberos_mechanism_factory() {
  return installed_kerberos.load();
}

}  // namespace spindle::yarn::ipc

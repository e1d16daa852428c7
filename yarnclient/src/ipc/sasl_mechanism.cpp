#include "ipc/sasl_mechanism.h"

#include <optional>

#include "ipc/digest_md5.h"

namespace spindle::yarn::ipc {
namespace {

class TokenDigestMd5 final : public SaslMechanism {
 public:
  TokenDigestMd5(Token token, std::function<std::string()> make_cnonce)
      : token_(std::move(token)), make_cnonce_(std::move(make_cnonce)) {}

  std::string_view method() const override { return "TOKEN"; }
  std::string_view mechanism() const override { return "DIGEST-MD5"; }
  bool context_names_user() const override { return false; }

  Result<std::string> start(const wire::hadoop::RpcSasl::Auth& offer) override {
    digest_.emplace(base64(token_.identifier), base64(token_.password), offer.protocol(), offer.server_id(),
                    make_cnonce_);
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

 private:
  Token token_;
  std::function<std::string()> make_cnonce_;
  std::optional<DigestMd5Client> digest_;
  bool proven_ = false;
};

}  // namespace

std::unique_ptr<SaslMechanism> token_mechanism(Token token, std::function<std::string()> make_cnonce) {
  return std::make_unique<TokenDigestMd5>(std::move(token), std::move(make_cnonce));
}

}  // namespace spindle::yarn::ipc

#include "ipc/gss_wrap_layer.h"

#include <gssapi/gssapi.h>

namespace spindle::yarn::ipc {
namespace {

class GssWrapLayer final : public SecurityLayer {
 public:
  GssWrapLayer(std::unique_ptr<GssContext> context, RpcProtection protection, std::uint32_t peer_max_message)
      : context_(std::move(context)), protection_(protection) {
    OM_uint32 minor = 0;
    OM_uint32 limit = 0;
    const OM_uint32 major =
        gss_wrap_size_limit(&minor, context_->get(), confidential(), GSS_C_QOP_DEFAULT, peer_max_message, &limit);
    // Kerberos' token overhead is well under a kilobyte; without the
    // library's figure, that much is left for it.
    max_plain_ = !GSS_ERROR(major) && limit > 0 ? limit : (peer_max_message > 2048 ? peer_max_message - 1024 : 1024);
  }

  RpcProtection protection() const override { return protection_; }
  std::size_t max_plain_bytes() const override { return max_plain_; }

  Result<std::string> wrap(std::string_view plain) override {
    auto input = input_buffer(plain);
    GssBuffer sealed;
    int encrypted = 0;
    OM_uint32 minor = 0;
    const OM_uint32 major =
        gss_wrap(&minor, context_->get(), confidential(), GSS_C_QOP_DEFAULT, &input, &encrypted, sealed.get());
    if (GSS_ERROR(major)) return make_error("Kerberos would not seal a message for the SASL layer");
    if (confidential() && !encrypted) return make_error("Kerberos sealed a message without encrypting it");
    return sealed.text();
  }

  Result<std::string> unwrap(std::string_view sealed) override {
    auto input = input_buffer(sealed);
    GssBuffer plain;
    int encrypted = 0;
    OM_uint32 minor = 0;
    const OM_uint32 major = gss_unwrap(&minor, context_->get(), &input, plain.get(), &encrypted, nullptr);
    if (GSS_ERROR(major)) {
      return make_error("a Kerberos-sealed message failed its integrity check: it was changed on the way");
    }
    if (major & (GSS_S_DUPLICATE_TOKEN | GSS_S_OLD_TOKEN | GSS_S_UNSEQ_TOKEN | GSS_S_GAP_TOKEN)) {
      return make_error("a Kerberos-sealed message came out of sequence: a message was lost, replayed or reordered");
    }
    if (confidential() && !encrypted) {
      return make_error("a message came only signed, not encrypted, on a connection that agreed on privacy");
    }
    return plain.text();
  }

 private:
  int confidential() const { return protection_ == RpcProtection::privacy ? 1 : 0; }

  std::unique_ptr<GssContext> context_;
  RpcProtection protection_;
  std::size_t max_plain_ = 0;
};

}  // namespace

std::unique_ptr<SecurityLayer> gss_wrap_layer(std::unique_ptr<GssContext> context, RpcProtection protection,
                                              std::uint32_t peer_max_message) {
  return std::make_unique<GssWrapLayer>(std::move(context), protection, peer_max_message);
}

}  // namespace spindle::yarn::ipc

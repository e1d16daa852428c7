#include "spindle/yarn/negotiate_acceptor.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>
#include <unistd.h>

#include <mutex>

#include "ipc/gss_handles.h"
#include "ipc/kerberos_errors.h"
#include "spindle/core/text_encodings.h"

namespace spindle::yarn {
namespace {

using ipc::GssBuffer;
using ipc::GssContext;
using ipc::GssCredential;
using ipc::GssName;

class KeytabAcceptor final : public NegotiateAcceptor {
 public:
  explicit KeytabAcceptor(std::string keytab) : keytab_(std::move(keytab)) {}

  Result<void> acquire(const std::string& principal) {
    if (::access(keytab_.c_str(), R_OK) != 0) {
      return make_error("the keytab " + keytab_ + " cannot be read; give the keytab of the server's HTTP principal");
    }
    OM_uint32 minor = 0;
    GssName name;
    if (!principal.empty()) {
      auto text = ipc::input_buffer(principal);
      if (GSS_ERROR(gss_import_name(&minor, &text, GSS_KRB5_NT_PRINCIPAL_NAME, name.out()))) {
        return make_error("\"" + principal + "\" is not a Kerberos principal; give one such as HTTP/" +
                          "gateway.example.com@EXAMPLE.COM");
      }
    }
    gss_key_value_element_desc element{"keytab", keytab_.c_str()};
    gss_key_value_set_desc store{1, &element};
    const auto major = gss_acquire_cred_from(&minor, name.get(), GSS_C_INDEFINITE, GSS_C_NO_OID_SET, GSS_C_ACCEPT,
                                             &store, credential_.out(), nullptr, nullptr);
    if (GSS_ERROR(major)) {
      return make_error("the keytab " + keytab_ + " holds no key to accept logins" +
                        (principal.empty() ? std::string() : " as " + principal) + ": " +
                        ipc::gss_status_text(major, minor));
    }
    return {};
  }

  Result<NegotiateLogin> accept(std::string_view base64_token) const override {
    const auto token = base64_decode(base64_token);
    if (!token) return make_error("its Negotiate token is not base64");
    OM_uint32 minor = 0;
    GssContext context;
    GssName client;
    GssBuffer reply;
    OM_uint32 seconds_left = 0;
    auto input = ipc::input_buffer(*token);
    OM_uint32 major = 0;
    {
      // One credential handle serves every login; GSS-API does not promise it may be shared unguarded.
      std::lock_guard lock(mutex_);
      major = gss_accept_sec_context(&minor, context.in_out(), credential_.get(), &input, GSS_C_NO_CHANNEL_BINDINGS,
                                     client.out(), nullptr, reply.get(), nullptr, &seconds_left, nullptr);
    }
    if (major == GSS_S_CONTINUE_NEEDED) {
      return make_error("it was not Kerberos (NTLM, perhaps); sign in with a Kerberos ticket from kinit");
    }
    if (GSS_ERROR(major)) return make_error(ipc::gss_status_text(major, minor));
    GssBuffer displayed;
    if (GSS_ERROR(gss_display_name(&minor, client.get(), displayed.get(), nullptr))) {
      return make_error("the client's principal cannot be read");
    }
    NegotiateLogin login;
    login.principal = displayed.text();
    login.lifetime = seconds_left == GSS_C_INDEFINITE ? std::chrono::seconds(0) : std::chrono::seconds(seconds_left);
    return login;
  }

 private:
  std::string keytab_;
  GssCredential credential_;
  mutable std::mutex mutex_;
};

}  // namespace

Result<std::shared_ptr<NegotiateAcceptor>> NegotiateAcceptor::open(const std::string& keytab,
                                                                   const std::string& principal) {
  auto acceptor = std::make_shared<KeytabAcceptor>(keytab);
  if (auto acquired = acceptor->acquire(principal); !acquired) return acquired.error();
  return std::shared_ptr<NegotiateAcceptor>(std::move(acceptor));
}

}  // namespace spindle::yarn

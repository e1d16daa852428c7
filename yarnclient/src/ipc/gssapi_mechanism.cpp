#include "ipc/gssapi_mechanism.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_krb5.h>
#include <krb5.h>
#include <unistd.h>

#include "ipc/gss_handles.h"
#include "ipc/gss_wrap_layer.h"
#include "ipc/gssapi_security_layer.h"
#include "ipc/kerberos_errors.h"
#include "ipc/server_principal.h"
#include "ipc/ticket_principal.h"

namespace spindle::yarn::ipc {
namespace {

using Step = KerberosAttempt::Step;

// The default realm and ticket cache, for the checks and the sentences.
struct KerberosDefaults {
  std::string realm;
  std::string ticket_cache;
};

KerberosDefaults kerberos_defaults() {
  KerberosDefaults defaults;
  krb5_context context = nullptr;
  if (krb5_init_context(&context) != 0) return defaults;
  char* realm = nullptr;
  if (krb5_get_default_realm(context, &realm) == 0) {
    defaults.realm = realm;
    krb5_free_default_realm(context, realm);
  }
  if (const char* cache = krb5_cc_default_name(context)) defaults.ticket_cache = cache;
  krb5_free_context(context);
  return defaults;
}

class GssapiMechanism final : public SaslMechanism {
 public:
  GssapiMechanism(KerberosOptions options, std::string server_host, std::vector<RpcProtection> allowed)
      : options_(std::move(options)), server_host_(std::move(server_host)), allowed_(std::move(allowed)) {
    const auto defaults = kerberos_defaults();
    attempt_.server = server_host_;
    attempt_.keytab = options_.login.keytab;
    attempt_.client_principal = options_.login.principal;
    attempt_.ticket_cache = defaults.ticket_cache;
    attempt_.realm = defaults.realm;
  }

  std::string_view method() const override { return "KERBEROS"; }
  std::string_view mechanism() const override { return "GSSAPI"; }
  std::optional<std::string> context_user() const override { return client_principal_; }

  Result<std::string> start(const wire::hadoop::RpcSasl::Auth& offer) override {
    const std::string advertised = offer.protocol() + "/" + offer.server_id();
    attempt_.target = advertised;
    if (offer.protocol().empty() || offer.server_id().empty()) {
      return authentication_error(server_host_ + " offered Kerberos without naming its principal");
    }
    auto checked = check_server_principal(advertised, options_, canonical_host_name(server_host_), attempt_.realm);
    if (!checked) return checked.error();
    if (auto acquired = acquire_credentials(); !acquired) return acquired.error();
#ifdef SPINDLE_KERBEROS_IN_CONTAINER
    // The container's static build cannot let the library look the host
    // up (it would load the node's NSS modules), so it names the server's
    // principal whole, in the default realm.
    const std::string service = advertised + "@" + attempt_.realm;
    const gss_OID name_type = GSS_KRB5_NT_PRINCIPAL_NAME;
#else
    // Hadoop's servers take the host-based service name protocol@serverId.
    const std::string service = offer.protocol() + "@" + offer.server_id();
    const gss_OID name_type = GSS_C_NT_HOSTBASED_SERVICE;
#endif
    auto service_buffer = input_buffer(service);
    OM_uint32 minor = 0;
    const OM_uint32 major = gss_import_name(&minor, &service_buffer, name_type, target_.out());
    if (GSS_ERROR(major)) return failure(Step::context, major, minor);
    return next_context_token({});
  }

  Result<std::string> step(std::string_view challenge) override {
    if (!established_) return next_context_token(challenge);
    if (layer_chosen_) {
      return authentication_error(server_host_ + " went on challenging after Kerberos authentication was complete");
    }
    return answer_security_layer(challenge);
  }

  Result<void> finish(std::string_view final_message) override {
    if (!final_message.empty()) {
      // A server is done only after the client: what it sends with SUCCESS
      // must not call for an answer.
      auto answer = step(final_message);
      if (!answer) return answer.error();
      if (!answer->empty()) {
        return authentication_error(server_host_ +
                                    " declared Kerberos authentication done while it still expected an answer");
      }
    }
    if (!layer_chosen_) {
      return authentication_error(server_host_ + " declared Kerberos authentication done before it was complete");
    }
    return {};
  }

  Result<std::unique_ptr<SecurityLayer>> security_layer() override {
    if (!layer_chosen_ || protection_ == RpcProtection::authentication) return std::unique_ptr<SecurityLayer>();
    return gss_wrap_layer(std::move(context_), protection_, server_max_message_);
  }

 private:
  Error failure(Step step, OM_uint32 major, OM_uint32 minor) const {
    KerberosAttempt attempt = attempt_;
    attempt.step = step;
    return kerberos_failure(attempt, major, static_cast<std::int32_t>(minor), gss_status_text(major, minor));
  }

  Result<void> acquire_credentials() {
    gss_OID_desc krb5_oid = *gss_mech_krb5;
    gss_OID_set_desc krb5_only{1, &krb5_oid};
    OM_uint32 minor = 0;
    OM_uint32 major = 0;
    if (!options_.login.keytab.empty()) {
      if (::access(options_.login.keytab.c_str(), R_OK) != 0) {
        return authentication_error("the keytab " + options_.login.keytab +
                                    " cannot be read; check the path and its permissions");
      }
      // Tickets from the keytab go to a cache of our own in memory, never
      // into the user's ticket cache.
      auto imported = keytab_credential(options_.login.principal, options_.login.keytab, credential_.out());
      if (!imported) return imported.error();
    } else {
      major = gss_acquire_cred(&minor, GSS_C_NO_NAME, GSS_C_INDEFINITE, &krb5_only, GSS_C_INITIATE, credential_.out(),
                               nullptr, nullptr);
    }
    if (GSS_ERROR(major)) return failure(Step::credentials, major, minor);
    return learn_client_principal();
  }

  // Who we are (the connection context names it) and, for a ticket cache,
  // whether the ticket is still good.
  Result<void> learn_client_principal() {
    GssName name;
    OM_uint32 lifetime = 0;
    OM_uint32 minor = 0;
    const OM_uint32 major = gss_inquire_cred(&minor, credential_.get(), name.out(), &lifetime, nullptr, nullptr);
    const bool from_cache = options_.login.keytab.empty();
    if (from_cache && (GSS_ROUTINE_ERROR(major) == GSS_S_CREDENTIALS_EXPIRED || (!GSS_ERROR(major) && lifetime == 0))) {
      return failure(Step::credentials, GSS_S_CREDENTIALS_EXPIRED, 0);
    }
    if (GSS_ERROR(major)) return failure(Step::credentials, major, minor);
    GssBuffer display;
    if (GSS_ERROR(gss_display_name(&minor, name.get(), display.get(), nullptr))) {
      return failure(Step::credentials, major, minor);
    }
    client_principal_ = display.text();
    attempt_.client_principal = *client_principal_;
    return {};
  }

  Result<std::string> next_context_token(std::string_view input) {
    auto input_token = input_buffer(input);
    GssBuffer output;
    OM_uint32 minor = 0;
    // Mutual authentication proves the server holds its principal's key.
    const OM_uint32 major = gss_init_sec_context(
        &minor, credential_.get(), context_->in_out(), target_.get(), const_cast<gss_OID>(gss_mech_krb5),
        // Sequence detection lets a security layer refuse replayed or
        // reordered messages.
        GSS_C_MUTUAL_FLAG | GSS_C_INTEG_FLAG | GSS_C_CONF_FLAG | GSS_C_SEQUENCE_FLAG | GSS_C_REPLAY_FLAG,
        GSS_C_INDEFINITE, GSS_C_NO_CHANNEL_BINDINGS, input.empty() ? GSS_C_NO_BUFFER : &input_token, nullptr,
        output.get(), nullptr, nullptr);
    if (GSS_ERROR(major)) return failure(Step::context, major, minor);
    established_ = !(major & GSS_S_CONTINUE_NEEDED);
    return output.text();
  }

  Result<std::string> answer_security_layer(std::string_view challenge) {
    auto wrapped = input_buffer(challenge);
    GssBuffer unwrapped;
    OM_uint32 minor = 0;
    OM_uint32 major = gss_unwrap(&minor, context_->get(), &wrapped, unwrapped.get(), nullptr, nullptr);
    if (GSS_ERROR(major)) return failure(Step::security_layer, major, minor);
    auto offer = parse_security_layer_offer(unwrapped.text(), server_host_);
    if (!offer) return offer.error();
    auto choice = choose_security_layer(*offer, allowed_, server_host_);
    if (!choice) return choice.error();
    protection_ = choice->protection;
    server_max_message_ = offer->max_message_size;
    auto plain = input_buffer(choice->answer);
    GssBuffer sealed;
    // Integrity only, as Java's GSSAPI client wraps this message.
    major = gss_wrap(&minor, context_->get(), 0, GSS_C_QOP_DEFAULT, &plain, nullptr, sealed.get());
    if (GSS_ERROR(major)) return failure(Step::security_layer, major, minor);
    layer_chosen_ = true;
    return sealed.text();
  }

  KerberosOptions options_;
  std::string server_host_;
  KerberosAttempt attempt_;
  GssCredential credential_;
  GssName target_;
  std::vector<RpcProtection> allowed_;
  std::unique_ptr<GssContext> context_ = std::make_unique<GssContext>();
  RpcProtection protection_ = RpcProtection::authentication;
  std::uint32_t server_max_message_ = 0;
  std::optional<std::string> client_principal_;
  bool established_ = false;
  bool layer_chosen_ = false;
};

}  // namespace

Result<std::unique_ptr<SaslMechanism>> gssapi_mechanism(const KerberosOptions& options, const std::string& server_host,
                                                        const std::vector<RpcProtection>& allowed) {
  return std::unique_ptr<SaslMechanism>(std::make_unique<GssapiMechanism>(options, server_host, allowed));
}

}  // namespace spindle::yarn::ipc

#include "ipc/ticket_principal.h"

#include <gssapi/gssapi.h>
#include <krb5.h>

#include <functional>

#include "ipc/gss_handles.h"

namespace spindle::yarn::ipc {

Result<std::string> default_ticket_principal() {
  OM_uint32 minor = 0;
  gss_cred_id_t credential = GSS_C_NO_CREDENTIAL;
  if (GSS_ERROR(gss_acquire_cred(&minor, GSS_C_NO_NAME, GSS_C_INDEFINITE, GSS_C_NO_OID_SET, GSS_C_INITIATE, &credential,
                                 nullptr, nullptr))) {
    return authentication_error("there is no Kerberos ticket in the credentials cache; run `kinit` to get one");
  }
  gss_name_t name = GSS_C_NO_NAME;
  const auto inquired = gss_inquire_cred(&minor, credential, &name, nullptr, nullptr, nullptr);
  gss_release_cred(&minor, &credential);
  if (GSS_ERROR(inquired)) {
    return authentication_error("the Kerberos credentials cache names no principal; run `kinit` again");
  }
  GssBuffer text;
  const auto displayed = gss_display_name(&minor, name, text.get(), nullptr);
  gss_release_name(&minor, &name);
  if (GSS_ERROR(displayed)) return authentication_error("the Kerberos principal of the ticket cannot be read");
  return text.text();
}

}  // namespace spindle::yarn::ipc

namespace spindle::yarn::ipc {
namespace {

// Releases what a keytab login allocated, on every path out of it.
struct KeytabSession {
  krb5_context context = nullptr;
  krb5_principal principal = nullptr;
  krb5_keytab keytab = nullptr;
  krb5_ccache cache = nullptr;
  krb5_creds credentials{};
  bool have_credentials = false;

  ~KeytabSession() {
    if (!context) return;
    if (have_credentials) krb5_free_cred_contents(context, &credentials);
    if (cache) krb5_cc_close(context, cache);
    if (keytab) krb5_kt_close(context, keytab);
    if (principal) krb5_free_principal(context, principal);
    krb5_free_context(context);
  }

  std::string why(krb5_error_code code) const {
    const char* text = krb5_get_error_message(context, code);
    std::string message = text ? text : "error " + std::to_string(code);
    krb5_free_error_message(context, text);
    return message;
  }
};

}  // namespace

Result<std::string> log_in_from_keytab(const std::string& principal, const std::string& keytab) {
  KeytabSession session;
  if (krb5_init_context(&session.context) != 0) {
    session.context = nullptr;
    return authentication_error("Kerberos cannot start here; check KRB5_CONFIG and /etc/krb5.conf");
  }
  if (auto code = krb5_parse_name(session.context, principal.c_str(), &session.principal); code != 0) {
    return authentication_error("the Kerberos principal \"" + principal + "\" is not valid: " + session.why(code));
  }
  if (auto code = krb5_kt_resolve(session.context, ("FILE:" + keytab).c_str(), &session.keytab); code != 0) {
    return authentication_error("the keytab " + keytab + " cannot be opened: " + session.why(code));
  }
  if (auto code = krb5_get_init_creds_keytab(session.context, &session.credentials, session.principal, session.keytab,
                                             0, nullptr, nullptr);
      code != 0) {
    return authentication_error("no Kerberos ticket for " + principal + " from the keytab " + keytab + ": " +
                                session.why(code) + "; check the principal, the keytab and that the KDC is reachable");
  }
  session.have_credentials = true;
  const std::string name = "MEMORY:spindle-http-" + std::to_string(std::hash<std::string>{}(keytab + '\n' + principal));
  if (auto code = krb5_cc_resolve(session.context, name.c_str(), &session.cache); code != 0) {
    return authentication_error("no in-memory Kerberos cache: " + session.why(code));
  }
  if (auto code = krb5_cc_initialize(session.context, session.cache, session.principal); code != 0) {
    return authentication_error("the in-memory Kerberos cache cannot be set up: " + session.why(code));
  }
  if (auto code = krb5_cc_store_cred(session.context, session.cache, &session.credentials); code != 0) {
    return authentication_error("the ticket from the keytab cannot be kept: " + session.why(code));
  }
  return name;
}

}  // namespace spindle::yarn::ipc

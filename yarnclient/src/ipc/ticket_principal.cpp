#include "ipc/ticket_principal.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_krb5.h>
#include <krb5.h>

#include <chrono>
#include <functional>
#include <map>
#include <mutex>

#include "ipc/gss_handles.h"
#include "ipc/kerberos_errors.h"

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

// The keytab's first principal, for a login that names none (as kinit -k does).
Result<std::string> first_keytab_principal(KeytabSession& session, const std::string& keytab) {
  krb5_kt_cursor cursor;
  if (auto code = krb5_kt_start_seq_get(session.context, session.keytab, &cursor); code != 0) {
    return authentication_error("the keytab " + keytab + " cannot be read: " + session.why(code));
  }
  krb5_keytab_entry entry;
  std::string name;
  if (krb5_kt_next_entry(session.context, session.keytab, &entry, &cursor) == 0) {
    char* text = nullptr;
    if (krb5_unparse_name(session.context, entry.principal, &text) == 0) {
      name = text;
      krb5_free_unparsed_name(session.context, text);
    }
    krb5_kt_free_entry(session.context, &entry);
  }
  krb5_kt_end_seq_get(session.context, session.keytab, &cursor);
  if (name.empty()) return authentication_error("the keytab " + keytab + " holds no key; make it again with ktutil");
  return name;
}

// One in-memory cache per keytab and principal for the life of the process,
// holding a ticket for `principal` got from `keytab` now.
Result<std::string> fresh_login(const std::string& principal, const std::string& keytab) {
  KeytabSession session;
  if (krb5_init_context(&session.context) != 0) {
    session.context = nullptr;
    return authentication_error("Kerberos cannot start here; check KRB5_CONFIG and /etc/krb5.conf");
  }
  if (auto code = krb5_kt_resolve(session.context, ("FILE:" + keytab).c_str(), &session.keytab); code != 0) {
    return authentication_error("the keytab " + keytab + " cannot be opened: " + session.why(code));
  }
  std::string name = principal;
  if (name.empty()) {
    auto first = first_keytab_principal(session, keytab);
    if (!first) return first.error();
    name = *first;
  }
  if (auto code = krb5_parse_name(session.context, name.c_str(), &session.principal); code != 0) {
    return authentication_error("the Kerberos principal \"" + name + "\" is not valid: " + session.why(code));
  }
  if (auto code = krb5_get_init_creds_keytab(session.context, &session.credentials, session.principal, session.keytab,
                                             0, nullptr, nullptr);
      code != 0) {
    // The same sentences as a GSS-API login's: an unreachable KDC, an unknown principal, a stale key.
    KerberosAttempt attempt;
    attempt.keytab = keytab;
    attempt.client_principal = name;
    const auto at = name.rfind('@');
    if (at != std::string::npos) attempt.realm = name.substr(at + 1);
    return kerberos_failure(attempt, GSS_S_FAILURE, code,
                            "no Kerberos ticket for " + name + " from the keytab " + keytab + ": " + session.why(code));
  }
  session.have_credentials = true;
  const std::string cache =
      "MEMORY:spindle-keytab-" + std::to_string(std::hash<std::string>{}(keytab + '\n' + principal));
  if (auto code = krb5_cc_resolve(session.context, cache.c_str(), &session.cache); code != 0) {
    return authentication_error("no in-memory Kerberos cache: " + session.why(code));
  }
  if (auto code = krb5_cc_initialize(session.context, session.cache, session.principal); code != 0) {
    return authentication_error("the in-memory Kerberos cache cannot be set up: " + session.why(code));
  }
  if (auto code = krb5_cc_store_cred(session.context, session.cache, &session.credentials); code != 0) {
    return authentication_error("the ticket from the keytab cannot be kept: " + session.why(code));
  }
  return cache;
}

}  // namespace

Result<std::string> log_in_from_keytab(const std::string& principal, const std::string& keytab) {
  // Tickets last hours: connections reuse one for an hour and then ask the
  // KDC again, so a process that runs for days stays logged in.
  static std::mutex mutex;
  static std::map<std::string, std::pair<std::string, std::chrono::steady_clock::time_point>> logins;
  std::lock_guard lock(mutex);
  const auto key = keytab + '\n' + principal;
  const auto now = std::chrono::steady_clock::now();
  if (auto found = logins.find(key); found != logins.end() && now - found->second.second < std::chrono::hours(1)) {
    return found->second.first;
  }
  auto cache = fresh_login(principal, keytab);
  if (!cache) return cache.error();
  logins[key] = {*cache, now};
  return cache;
}

Result<void> keytab_credential(const std::string& principal, const std::string& keytab, gss_cred_id_t* credential) {
  auto cache_name = log_in_from_keytab(principal, keytab);
  if (!cache_name) return cache_name.error();
  krb5_context context = nullptr;
  if (krb5_init_context(&context) != 0) return authentication_error("Kerberos cannot start here");
  krb5_ccache cache = nullptr;
  const auto resolved = krb5_cc_resolve(context, cache_name->c_str(), &cache);
  OM_uint32 minor = 0;
  const OM_uint32 major =
      resolved == 0 ? gss_krb5_import_cred(&minor, cache, nullptr, nullptr, credential) : GSS_S_FAILURE;
  if (cache) krb5_cc_close(context, cache);
  krb5_free_context(context);
  if (GSS_ERROR(major)) {
    return authentication_error("the ticket got from the keytab " + keytab + " cannot be used for GSS-API");
  }
  return {};
}

}  // namespace spindle::yarn::ipc

#include "ipc/kerberos_errors.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_krb5.h>
#include <krb5.h>

#include <cerrno>

#include "ipc/gss_handles.h"

namespace spindle::yarn::ipc {
namespace {

constexpr const char* keytab_settings = "spindle.kerberos.keytab and spindle.kerberos.principal";

std::string who(const KerberosAttempt& attempt) {
  return attempt.client_principal.empty() ? std::string("your principal") : attempt.client_principal;
}

std::string realm_text(const KerberosAttempt& attempt) {
  return attempt.realm.empty() ? std::string("the realm") : "realm " + attempt.realm;
}

}  // namespace

std::string gss_status_text(std::uint32_t major, std::uint32_t minor) {
  std::string text;
  auto append = [&](OM_uint32 code, int type, gss_OID mechanism) {
    OM_uint32 context = 0;
    do {
      OM_uint32 ignored = 0;
      GssBuffer message;
      if (GSS_ERROR(gss_display_status(&ignored, code, type, mechanism, &context, message.get()))) return;
      if (!text.empty()) text += ": ";
      text += message.text();
    } while (context != 0);
  };
  append(major, GSS_C_GSS_CODE, GSS_C_NO_OID);
  if (minor != 0) append(minor, GSS_C_MECH_CODE, const_cast<gss_OID>(gss_mech_krb5));
  return text;
}

Error no_kerberos_ticket(const KerberosAttempt& attempt) {
  const std::string cache = attempt.ticket_cache.empty() ? std::string("the ticket cache") : attempt.ticket_cache;
  return authentication_error("there is no Kerberos ticket for the cluster (" + cache +
                              " is empty or missing); run `kinit` to get one, or give a keytab and principal (" +
                              keytab_settings + ")");
}

Error kerberos_failure(const KerberosAttempt& attempt, std::uint32_t major, std::int32_t minor,
                       const std::string& detail) {
  using Step = KerberosAttempt::Step;
  const bool from_keytab = !attempt.keytab.empty();
  switch (minor) {
    case KRB5_FCC_NOFILE:
    case KRB5_CC_NOTFOUND:
    case KRB5_CC_END:
      if (!from_keytab) return no_kerberos_ticket(attempt);
      break;
    case KRB5KRB_AP_ERR_TKT_EXPIRED:
      if (!from_keytab) {
        return authentication_error("the Kerberos ticket of " + who(attempt) + " in " + attempt.ticket_cache +
                                    " has expired; run `kinit` again, or give a keytab and principal (" +
                                    keytab_settings + ")");
      }
      break;
    case KRB5_KDC_UNREACH:
      return authentication_error("no Kerberos KDC of " + realm_text(attempt) +
                                  " answered; check that the KDC runs and that krb5.conf (or KRB5_CONFIG) names it "
                                  "under [realms]");
    case KRB5_REALM_UNKNOWN:
    case KRB5_REALM_CANT_RESOLVE:
      return authentication_error("krb5.conf (or KRB5_CONFIG) names no KDC for " + realm_text(attempt) +
                                  "; add the realm's kdc entries under [realms]");
    case KRB5KDC_ERR_S_PRINCIPAL_UNKNOWN:
      return authentication_error("the Kerberos KDC knows no service principal " + attempt.target + " for " +
                                  attempt.server +
                                  "; check that the cluster address uses the server's real host name and that "
                                  "krb5.conf maps its domain to the right realm");
    case KRB5KDC_ERR_C_PRINCIPAL_UNKNOWN:
      return authentication_error("the Kerberos KDC knows no principal " + who(attempt) +
                                  "; check the principal given with the keytab");
    case KRB5_KT_NOTFOUND:
    case KRB5_KT_END:
      return authentication_error("the keytab " + attempt.keytab + " holds no key for " + who(attempt) +
                                  "; give the principal the keytab was made for");
    case KRB5KDC_ERR_PREAUTH_FAILED:
    case KRB5KRB_AP_ERR_BAD_INTEGRITY:
      return authentication_error("the Kerberos KDC rejected the key of " + who(attempt) +
                                  (from_keytab ? " in the keytab " + attempt.keytab : std::string()) +
                                  " (its password or key version changed); get a fresh keytab or run `kinit` again");
    case KRB5KRB_AP_ERR_SKEW:
      return authentication_error("this machine's clock differs too much from the Kerberos KDC's or " + attempt.server +
                                  "'s; synchronise it (e.g. with NTP)");
    case ENOENT:
    case EACCES:
      if (from_keytab) {
        return authentication_error("the keytab " + attempt.keytab +
                                    " cannot be read; check the path and its permissions");
      }
      break;
    default: break;
  }
  const auto routine = GSS_ROUTINE_ERROR(major);
  if (routine == GSS_S_CREDENTIALS_EXPIRED && !from_keytab) {
    return authentication_error("the Kerberos ticket of " + who(attempt) + " has expired; run `kinit` again, or " +
                                "give a keytab and principal (" + keytab_settings + ")");
  }
  if (routine == GSS_S_NO_CRED && attempt.step == Step::credentials && !from_keytab) {
    return no_kerberos_ticket(attempt);
  }
  std::string what;
  switch (attempt.step) {
    case Step::credentials: what = "getting Kerberos credentials"; break;
    case Step::context: what = "signing in to " + attempt.server + " with Kerberos"; break;
    case Step::security_layer: what = "the Kerberos security-layer exchange with " + attempt.server; break;
  }
  return authentication_error(what + " failed (" + detail + "); check krb5.conf and your ticket with `klist`");
}

}  // namespace spindle::yarn::ipc

// SPNEGO tokens for the container binary's Beast transport
// (http/negotiate_initiator.h), from the process's default credentials: the
// application master's keytab login sets KRB5CCNAME to its in-memory cache.
#include "ipc/spnego_initiator.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_krb5.h>
#include <krb5.h>

#include "ipc/gss_handles.h"
#include "ipc/kerberos_errors.h"

namespace spindle::yarn::ipc {
namespace {

std::string default_realm() {
  krb5_context context = nullptr;
  if (krb5_init_context(&context) != 0) return "";
  std::string realm;
  char* name = nullptr;
  if (krb5_get_default_realm(context, &name) == 0) {
    realm = name;
    krb5_free_default_realm(context, name);
  }
  krb5_free_context(context);
  return realm;
}

}  // namespace

Result<std::string> spnego_token(const std::string& host) {
  // Hadoop's web servers log in as HTTP/<host>; named whole, in the default
  // realm, so that the library never looks the host up (no NSS here).
  const std::string principal = "HTTP/" + host + "@" + default_realm();
  auto name_buffer = input_buffer(principal);
  OM_uint32 minor = 0;
  GssName target;
  OM_uint32 major = gss_import_name(&minor, &name_buffer, GSS_KRB5_NT_PRINCIPAL_NAME, target.out());
  if (GSS_ERROR(major)) {
    return authentication_error("the web server's principal " + principal +
                                " is not valid: " + gss_status_text(major, minor));
  }
  // SPNEGO's object identifier, 1.3.6.1.5.5.2, as RFC 4178 gives it.
  static gss_OID_desc spnego{6, const_cast<char*>("\x2b\x06\x01\x05\x05\x02")};
  GssContext context;
  GssBuffer output;
  major = gss_init_sec_context(&minor, GSS_C_NO_CREDENTIAL, context.in_out(), target.get(), &spnego, GSS_C_MUTUAL_FLAG,
                               GSS_C_INDEFINITE, GSS_C_NO_CHANNEL_BINDINGS, GSS_C_NO_BUFFER, nullptr, output.get(),
                               nullptr, nullptr);
  if (GSS_ERROR(major)) {
    return authentication_error("no Kerberos ticket for " + principal + ": " + gss_status_text(major, minor) +
                                "; check the job's keytab and that the KDC is reachable from the node");
  }
  return output.text();
}

}  // namespace spindle::yarn::ipc

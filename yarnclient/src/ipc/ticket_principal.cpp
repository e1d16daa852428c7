#include "ipc/ticket_principal.h"

#include <gssapi/gssapi.h>

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

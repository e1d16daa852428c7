// Linking spindle_yarnclient_kerberos makes RPC clients able to use
// Kerberos: this object installs the GSSAPI mechanism when the program
// starts. The library's link options name the symbol below as undefined, so
// the linker takes this object from the archive although nothing calls it.

#include "ipc/gssapi_mechanism.h"
#include "ipc/ticket_principal.h"
#ifdef SPINDLE_KERBEROS_IN_CONTAINER
#include "http/negotiate_initiator.h"
#include "ipc/spnego_initiator.h"
#endif

namespace {

const bool installed = [] {
  spindle::yarn::ipc::install_kerberos_mechanism(&spindle::yarn::ipc::gssapi_mechanism);
  spindle::yarn::ipc::install_ticket_principal_reader(&spindle::yarn::ipc::default_ticket_principal);
  spindle::yarn::ipc::install_keytab_login(&spindle::yarn::ipc::log_in_from_keytab);
#ifdef SPINDLE_KERBEROS_IN_CONTAINER
  // libcurl answers SPNEGO itself; Beast needs the token made for it.
  spindle::yarn::http::install_negotiate_initiator(&spindle::yarn::ipc::spnego_token);
#endif
  return true;
}();

}  // namespace

extern "C" const bool* spindle_yarnclient_kerberos_installed() {
  return &installed;
}

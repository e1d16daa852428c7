// Linking spindle_yarnclient_kerberos makes RPC clients able to use
// Kerberos: this object installs the GSSAPI mechanism when the program
// starts. The library's link options name the symbol below as undefined, so
// the linker takes this object from the archive although nothing calls it.

#include "ipc/gssapi_mechanism.h"
#include "ipc/ticket_principal.h"

namespace {

const bool installed = [] {
  spindle::yarn::ipc::install_kerberos_mechanism(&spindle::yarn::ipc::gssapi_mechanism);
  spindle::yarn::ipc::install_ticket_principal_reader(&spindle::yarn::ipc::default_ticket_principal);
  spindle::yarn::ipc::install_keytab_login(&spindle::yarn::ipc::log_in_from_keytab);
  return true;
}();

}  // namespace

extern "C" const bool* spindle_yarnclient_kerberos_installed() {
  return &installed;
}

#include "spindle/yarn/cluster_identity.h"

#include "ipc/sasl_mechanism.h"
#include "spindle/yarn/token_service.h"

namespace spindle::yarn {

Result<std::string> cluster_user(const HadoopConfiguration& configuration) {
  if (!uses_kerberos(configuration)) return hadoop_user_name();
  if (auto principal = configuration.get_or("spindle.kerberos.principal", ""); !principal.empty()) {
    return kerberos_short_name(principal);
  }
  const auto reader = ipc::ticket_principal_reader();
  if (!reader) return make_error("this program was built without Kerberos support, which this cluster requires");
  auto principal = reader();
  if (!principal) return principal.error();
  return kerberos_short_name(*principal);
}

}  // namespace spindle::yarn

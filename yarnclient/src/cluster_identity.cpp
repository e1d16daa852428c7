#include "spindle/yarn/cluster_identity.h"

#include <cstdlib>
#include <string_view>

#include "ipc/sasl_mechanism.h"
#include "spindle/yarn/auth_to_local.h"
#include "spindle/yarn/token_service.h"

namespace spindle::yarn {

namespace {

constexpr std::string_view principal_key = "spindle.kerberos.principal";
constexpr std::string_view keytab_key = "spindle.kerberos.keytab";

}  // namespace

std::optional<KerberosLogin> configured_keytab_login(const HadoopConfiguration& configuration) {
  KerberosLogin login{configuration.get_or(principal_key, ""), configuration.get_or(keytab_key, "")};
  if (login.keytab.empty()) return std::nullopt;
  return login;
}

void set_keytab_login(HadoopConfiguration& configuration, const KerberosLogin& login) {
  configuration.set(std::string(principal_key), login.principal);
  configuration.set(std::string(keytab_key), login.keytab);
}

Result<std::string> short_name_of(const HadoopConfiguration& configuration, std::string_view principal) {
  auto realm_of = [](std::string_view name) {
    const auto at = name.rfind('@');
    return at == std::string_view::npos ? std::string_view() : name.substr(at + 1);
  };
  for (const char* key : {"yarn.resourcemanager.principal", "dfs.namenode.kerberos.principal"}) {
    if (const auto server = configuration.get(key); server && !realm_of(*server).empty()) {
      return mapped_short_name(configuration, principal, realm_of(*server));
    }
  }
  return mapped_short_name(configuration, principal, realm_of(principal));
}

Result<std::string> cluster_user(const HadoopConfiguration& configuration) {
  if (!uses_kerberos(configuration)) return hadoop_user_name();
  if (auto login = configured_keytab_login(configuration); login && !login->principal.empty()) {
    return short_name_of(configuration, login->principal);
  }
  const auto reader = ipc::ticket_principal_reader();
  if (!reader) return make_error("this program was built without Kerberos support, which this cluster requires");
  auto principal = reader();
  if (!principal) return principal.error();
  return short_name_of(configuration, *principal);
}

Result<void> use_configured_keytab(const HadoopConfiguration& configuration) {
  if (!uses_kerberos(configuration)) return {};
  const auto configured = configured_keytab_login(configuration);
  if (!configured) return {};
  if (configured->principal.empty()) {
    return authentication_error(std::string(keytab_key) + " names a keytab but " + std::string(principal_key) +
                                " names no principal; HTTP logins need it, so set it too");
  }
  const auto& principal = configured->principal;
  const auto& keytab = configured->keytab;
  const auto login = ipc::keytab_login();
  if (!login) return make_error("this program was built without Kerberos support, which this cluster requires");
  // The login keeps its ticket an hour, then asks the KDC again, so a
  // long-running program stays logged in.
  auto cache = login(principal, keytab);
  if (!cache) return cache.error();
  ::setenv("KRB5CCNAME", cache->c_str(), 1);
  return {};
}

}  // namespace spindle::yarn

#include "spindle/yarn/cluster_identity.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>

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

Result<void> use_configured_keytab(const HadoopConfiguration& configuration) {
  if (!uses_kerberos(configuration)) return {};
  const auto principal = configuration.get_or("spindle.kerberos.principal", "");
  const auto keytab = configuration.get_or("spindle.kerberos.keytab", "");
  if (principal.empty() || keytab.empty()) return {};
  const auto login = ipc::keytab_login();
  if (!login) return make_error("this program was built without Kerberos support, which this cluster requires");
  // Tickets last hours; a new one each hour keeps a long-running app logged in.
  static std::mutex mutex;
  static std::map<std::string, std::chrono::steady_clock::time_point> logged_in;
  std::lock_guard lock(mutex);
  const auto key = keytab + '\n' + principal;
  const auto now = std::chrono::steady_clock::now();
  if (auto found = logged_in.find(key); found != logged_in.end() && now - found->second < std::chrono::hours(1)) {
    return {};
  }
  auto cache = login(principal, keytab);
  if (!cache) return cache.error();
  ::setenv("KRB5CCNAME", cache->c_str(), 1);
  logged_in[key] = now;
  return {};
}

}  // namespace spindle::yarn

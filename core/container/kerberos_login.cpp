#include "container/kerberos_login.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "spindle/core/container_contract.h"
#include "spindle/core/host_names.h"
#include "spindle/core/text.h"
#include "spindle/yarn/cluster_identity.h"
#include "spindle/yarn/kerberos_config.h"

namespace spindle::container {
namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// "kdc.example.com:88" -> "10.0.0.7:88" (IPv6 in brackets), resolved by c-ares.
Result<std::string> numeric_kdc(const std::string& kdc) {
  const auto colon = kdc.rfind(':');
  std::string host = kdc.substr(0, colon);
  const std::string port = colon == std::string::npos ? "88" : kdc.substr(colon + 1);
  if (host.starts_with('[') && host.ends_with(']')) host = host.substr(1, host.size() - 2);
  auto resolved = resolve_host(host, 0);
  if (!resolved) return make_error("the KDC " + kdc + " does not resolve on this node: " + resolved.error().message);
  const auto address = resolved->front().numeric();
  return (address.find(':') == std::string::npos ? address : "[" + address + "]") + ":" + port;
}

}  // namespace

Result<bool> set_up_job_login(yarn::HadoopConfiguration& configuration) {
  const auto principal = environment(container_contract::kerberos_principal_variable);
  if (principal.empty()) return false;
  const auto keytab = std::filesystem::absolute(container_contract::keytab_link_name).string();
  if (::access(keytab.c_str(), R_OK) != 0) {
    return make_error("the job's keytab was not localized as " + keytab + "; submit again with --keytab");
  }
  const auto realm = environment(container_contract::kerberos_realm_variable);
  std::vector<std::string> addresses;
  for (const auto kdc : split_list(environment(container_contract::kerberos_kdcs_variable))) {
    auto address = numeric_kdc(std::string(kdc));
    if (!address) return address.error();
    addresses.push_back(std::move(*address));
  }
  if (realm.empty() || addresses.empty()) {
    return make_error(std::string(container_contract::kerberos_realm_variable) + " or " +
                      container_contract::kerberos_kdcs_variable + " is empty; the client sets both with the keytab");
  }
  const auto conf = std::filesystem::absolute("spindle-krb5.conf").string();
  {
    std::ofstream out(conf, std::ios::trunc);
    out << yarn::container_krb5_conf(realm, addresses);
    if (!out) return make_error("cannot write " + conf);
  }
  ::setenv("KRB5_CONFIG", conf.c_str(), 1);
  yarn::set_keytab_login(configuration, {principal, keytab});
  if (auto logged_in = yarn::use_configured_keytab(configuration); !logged_in) return logged_in.error();
  return true;
}

}  // namespace spindle::container

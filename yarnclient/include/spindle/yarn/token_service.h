#pragma once

#include <string>
#include <string_view>

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::yarn {

// The kinds of token Spindle asks for, as Hadoop names them.
inline constexpr std::string_view hdfs_delegation_kind = "HDFS_DELEGATION_TOKEN";
inline constexpr std::string_view rm_delegation_kind = "RM_DELEGATION_TOKEN";

// A token's service, as Hadoop clients look tokens up by it: "ip:port" of
// the server's RPC address (SecurityUtil.buildTokenService), or
// "host:port" when hadoop.security.token.service.use_ip is false. An
// address without a port takes `default_port`.
Result<std::string> token_service(std::string_view host_port, int default_port,
                                  const HadoopConfiguration& configuration);

// The service of an HDFS token for an HA nameservice, "ha-hdfs:<ns>", as
// Hadoop's clients name and look it up.
inline std::string ha_token_service(std::string_view nameservice) {
  return "ha-hdfs:" + std::string(nameservice);
}

// Who may renew the job's delegation tokens: the ResourceManager, which
// renews them while the job runs. Hadoop (Master.getMasterPrincipal, used by
// TokenCache) passes yarn.resourcemanager.principal with _HOST replaced by
// the ResourceManager's host; the servers shorten it with their
// auth_to_local rules, the same rules that name the ResourceManager when it
// renews (rm/_HOST@REALM: "rm" under the default rule).
Result<std::string> token_renewer(const HadoopConfiguration& configuration);

// "rm/host@REALM" -> "rm": the short name under Hadoop's default
// auth_to_local rule, for messages and for servers without rules.
std::string kerberos_short_name(std::string_view principal);

}  // namespace spindle::yarn

#pragma once

#include <optional>
#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/rpc_options.h"

namespace spindle::yarn {

// The keytab login a configuration names (spindle.kerberos.keytab, with
// spindle.kerberos.principal or the keytab's first entry), or nothing when it
// names no keytab. Read by every client: RPC, HTTP and who we are.
std::optional<KerberosLogin> configured_keytab_login(const HadoopConfiguration& configuration);
// Puts a keytab login into a configuration, as a spec or the app's settings give it.
void set_keytab_login(HadoopConfiguration& configuration, const KerberosLogin& login);

// The name the cluster knows this client by, as it appears as the user of
// the applications it submits: on a Kerberos cluster the short name of the
// keytab principal the configuration names (spindle.kerberos.principal) or
// of the ticket in the credentials cache; otherwise the Hadoop user name.
Result<std::string> cluster_user(const HadoopConfiguration& configuration);

// The short name the cluster's servers give `principal`, under the
// configuration's hadoop.security.auth_to_local rules, as Hadoop's
// KerberosName does. The DEFAULT rule strips the servers' own realm, which
// the configuration names only through their principals: the realm of
// yarn.resourcemanager.principal (or dfs.namenode.kerberos.principal), else
// the principal's own. An error says which rule to add.
Result<std::string> short_name_of(const HadoopConfiguration& configuration, std::string_view principal);

// With a keytab login configured (spindle.kerberos.principal and
// spindle.kerberos.keytab), makes this process's default Kerberos cache an
// in-memory one that holds a ticket from that keytab, for what takes only
// the default cache (SPNEGO over HTTP); the user's own cache is left alone.
// Does nothing without such a login; gets a new ticket after an hour.
Result<void> use_configured_keytab(const HadoopConfiguration& configuration);

}  // namespace spindle::yarn

#pragma once

#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::yarn {

// The name the cluster knows this client by, as it appears as the user of
// the applications it submits: on a Kerberos cluster the short name of the
// keytab principal the configuration names (spindle.kerberos.principal) or
// of the ticket in the credentials cache; otherwise the Hadoop user name.
Result<std::string> cluster_user(const HadoopConfiguration& configuration);

// With a keytab login configured (spindle.kerberos.principal and
// spindle.kerberos.keytab), makes this process's default Kerberos cache an
// in-memory one that holds a ticket from that keytab, for what takes only
// the default cache (SPNEGO over HTTP); the user's own cache is left alone.
// Does nothing without such a login; gets a new ticket after an hour.
Result<void> use_configured_keytab(const HadoopConfiguration& configuration);

}  // namespace spindle::yarn

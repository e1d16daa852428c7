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

}  // namespace spindle::yarn

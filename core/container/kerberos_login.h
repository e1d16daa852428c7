#pragma once

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::container {

// For a job submitted with a keytab: writes the master's own krb5.conf
// (the realm's KDCs resolved here, over TCP, no DNS lookups by Kerberos),
// points KRB5_CONFIG at it, and names the localized keytab and the
// principal in `configuration`, so that every client made from it logs in
// with them. False when the job has no keytab; an error says what is
// missing or which KDC does not resolve.
Result<bool> set_up_job_login(yarn::HadoopConfiguration& configuration);

}  // namespace spindle::container

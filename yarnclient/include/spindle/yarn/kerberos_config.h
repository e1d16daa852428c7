#pragma once

// The part of krb5.conf a job's application master needs to log in from the
// job's keytab on a node: the realm and its KDCs, as the submitting
// machine's configuration names them. The master writes a krb5.conf of its
// own from them (docs/architecture.md, "Jobs that outlive their tokens").

#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"

namespace spindle::yarn {

struct KerberosRealm {
  std::string name;
  std::vector<std::string> kdcs;  // host:port, port 88 where the file gives none
};

// From krb5.conf text: [realms] <realm> = { kdc = ... }; `realm` empty
// means [libdefaults] default_realm. `source` names the file in sentences.
// An error names the file and line, or says that the realm has no KDC
// there (found through DNS only, which a node cannot be relied on for).
Result<KerberosRealm> realm_from_krb5_conf(std::string_view text, const std::string& source,
                                           const std::string& realm = {});

// The same from the file Kerberos reads here: the first of KRB5_CONFIG, or /etc/krb5.conf.
Result<KerberosRealm> realm_from_local_krb5_conf(const std::string& realm = {});

// A krb5.conf for the container binary's Kerberos: `realm` as the default,
// its KDCs at `addresses` (ip:port) over TCP, and no DNS lookups of hosts,
// realms or KDCs, which a statically linked program cannot make.
std::string container_krb5_conf(const std::string& realm, const std::vector<std::string>& addresses);

}  // namespace spindle::yarn

#pragma once

#include <memory>
#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::yarn {

// The two families of Hadoop web servers, each with its own HTTPS policy.
enum class WebService {
  yarn,  // the ResourceManagers' REST API and the NodeManagers' (yarn.http.policy)
  hdfs,  // WebHDFS (dfs.http.policy)
};

// Whether that family's servers speak only HTTPS (policy HTTPS_ONLY); a
// client then uses their *.https.address ports and https:// URLs.
bool https_only(const HadoopConfiguration& configuration, WebService service);

// "https" or "http", as the policy says.
std::string web_scheme(const HadoopConfiguration& configuration, WebService service);

// Whom an HTTPS client trusts: the CA certificates of the truststore that
// ssl-client.xml names, or the system's when it names none.
struct WebTrust {
  std::string ca_pem;  // PEM certificates; empty: the system's CAs
  std::string source;  // for sentences: where the trust came from
};

// Reads the truststore of ssl-client.xml (ssl.client.truststore.location,
// .type and .password): PEM or PKCS12. A Java KeyStore, an unreadable file
// or a wrong password is a sentence saying what to do.
Result<std::shared_ptr<const WebTrust>> web_trust(const HadoopConfiguration& configuration);

}  // namespace spindle::yarn

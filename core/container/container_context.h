#pragma once

#include <map>
#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/token.h"

namespace spindle::container {

// The alias under which the client puts the job's secret into the
// credentials of every container it and the application master launch.
inline constexpr const char* secret_alias = "spindle.job.secret";
// On an encrypted cluster: the job API's certificate and key (the
// application master's credentials only), and the certificate's SHA-256,
// which every task's credentials carry to pin it.
inline constexpr const char* api_certificate_alias = "spindle.job.api.certificate";
inline constexpr const char* api_key_alias = "spindle.job.api.key";
inline constexpr const char* api_pin_alias = "spindle.job.api.sha256";
// The job's normalized spec (JSON), which the client hands the application
// master and the master every task, in their credentials: YARN delivers it
// with the launch, so a submit writes no file for it.
inline constexpr const char* job_spec_alias = "spindle.job.spec";

// What YARN tells a container about itself through its environment.
struct ContainerContext {
  std::string container_id;         // CONTAINER_ID
  std::string application_id;       // derived from the container id
  int attempt = 1;                  // the application attempt the container belongs to
  std::string host;                 // NM_HOST: the name YARN knows the node by
  std::string user;                 // USER
  std::string secret;               // from $HADOOP_TOKEN_FILE_LOCATION
  std::string api_certificate_pem;  // the master's, on an encrypted cluster
  std::string api_key_pem;          // the master's, on an encrypted cluster
  std::string api_pin;              // the certificate's SHA-256: TLS to the job API when set
  std::string job_spec_json;        // the job's normalized spec
  // The delegation tokens of $HADOOP_TOKEN_FILE_LOCATION (HDFS, RM; on a
  // Kerberos cluster), by alias: what the job's other containers get too.
  // The application master's own YARN_AM_RM_TOKEN is not among them.
  std::map<std::string, yarn::Token> delegation_tokens;
};

Result<ContainerContext> read_container_context();

}  // namespace spindle::container

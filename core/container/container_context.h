#pragma once

#include <map>
#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/token.h"

namespace spindle::container {

// What YARN tells a container about itself through its environment.
struct ContainerContext {
  std::string container_id;         // CONTAINER_ID
  std::string application_id;       // derived from the container id
  int attempt = 1;                  // the application attempt the container belongs to
  std::string host;                 // NM_HOST: the name YARN knows the node by
  std::string user;                 // USER
  std::string token_file;           // $HADOOP_TOKEN_FILE_LOCATION
  std::string secret;               // from it
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

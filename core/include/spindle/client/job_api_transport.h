#pragma once

#include <string>

#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

// Whether a job's API (the application master, its executors, the client)
// speaks TLS with a certificate made for the job, and why. It does where the
// cluster's own traffic is encrypted (hadoop.rpc.protection allows privacy,
// or yarn.http.policy or dfs.http.policy is HTTPS_ONLY); spindle.job-api.tls
// (true or false, in the configuration) decides otherwise.
struct JobApiTransport {
  bool tls = false;
  std::string reason;
};

JobApiTransport job_api_transport(const yarn::HadoopConfiguration& configuration);

}  // namespace spindle::client

#include "spindle/client/job_api_transport.h"

#include <algorithm>

#include "spindle/yarn/web_tls.h"

namespace spindle::client {

JobApiTransport job_api_transport(const yarn::HadoopConfiguration& configuration) {
  if (const auto forced = configuration.get("spindle.job-api.tls")) {
    const bool tls = configuration.get_bool("spindle.job-api.tls", false);
    return {tls, std::string("spindle.job-api.tls is ") + (tls ? "true" : "false")};
  }
  const auto protection = yarn::rpc_protection(configuration);
  if (protection &&
      std::find(protection->begin(), protection->end(), yarn::RpcProtection::privacy) != protection->end()) {
    return {true, "the cluster encrypts its RPC (hadoop.rpc.protection allows privacy)"};
  }
  if (yarn::https_only(configuration, yarn::WebService::yarn) ||
      yarn::https_only(configuration, yarn::WebService::hdfs)) {
    return {true, "the cluster's web servers speak only HTTPS"};
  }
  return {false,
          "the cluster's own traffic is not encrypted (set spindle.job-api.tls=true to encrypt the job's anyway)"};
}

}  // namespace spindle::client

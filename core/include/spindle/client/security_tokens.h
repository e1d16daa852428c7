#pragma once

#include <functional>
#include <string>

#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"
#include "spindle/yarn/credentials.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/token.h"

namespace spindle::client {

// Where the ResourceManager's delegation token comes from: given the
// renewer, the token with its service already set.
using ResourceManagerTokenSource = std::function<Result<yarn::Token>(const std::string& renewer)>;

struct JobTokenOptions {
  // Who may renew the tokens; empty: yarn::token_renewer(configuration).
  std::string renewer;
  // Empty: the ResourceManager's REST API (SPNEGO), service set to the
  // token service of every ResourceManager's client address.
  ResourceManagerTokenSource resource_manager_token;
};

// The delegation tokens a job's application master needs on a Kerberos
// cluster (hadoop.security.authentication=kerberos), each under its service
// as alias, as Hadoop keeps them:
//  - HDFS_DELEGATION_TOKEN for the default file system's NameNode and for
//    each hdfs:// URI in spec.file_systems, service "ip:port" of the
//    NameNode's RPC address (what libhdfs and TensorFlow look for);
//  - "WEBHDFS delegation" for each webhdfs:// URI, service "ip:port" of it;
//  - RM_DELEGATION_TOKEN from the ResourceManager.
// All come over SPNEGO with the user's ticket (kinit). Without Kerberos the
// credentials are empty. Other NameNodes are reached for tokens on their
// WebHDFS port: the port of dfs.namenode.http-address (9870 by default).
Result<yarn::Credentials> obtain_job_tokens(const JobSpec& spec, const yarn::HadoopConfiguration& configuration,
                                            const JobTokenOptions& options = {});

}  // namespace spindle::client

#pragma once

#include <map>
#include <optional>
#include <string>

#include "container/container_context.h"
#include "spindle/core/result.h"
#include "spindle/yarn/token.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::container {

// Of the container's delegation tokens, the one for the cluster's default
// file system: an HDFS token whose service is the nameservice
// ("ha-hdfs:<ns>") or the NameNode's RPC address, else the only HDFS token
// there is. None on a cluster without Kerberos.
std::optional<yarn::Token> hdfs_token(const std::map<std::string, yarn::Token>& tokens, const yarn::WebHdfs& hdfs);

// HDFS as this container reaches it: the NameNodes of the node's
// HADOOP_CONF_DIR (every one of an HA nameservice), as the job's user, with
// the job's HDFS delegation token where the cluster gave one.
Result<yarn::WebHdfs> container_hdfs(const ContainerContext& context);

}  // namespace spindle::container

#include "container/hdfs_access.h"

#include "spindle/core/host_names.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/token_service.h"

namespace spindle::container {

std::optional<yarn::Token> hdfs_token(const std::map<std::string, yarn::Token>& tokens, const yarn::WebHdfs& hdfs) {
  std::string wanted;
  if (!hdfs.options().nameservice.empty()) {
    wanted = yarn::ha_token_service(hdfs.options().nameservice);
  } else {
    // A token's service is the NameNode's RPC address, by number as a rule.
    const auto rpc = hdfs.namenode_rpc_address();
    const auto host = rpc.substr(0, rpc.rfind(':'));
    const auto resolved = resolve_host(host, 0, AddressFamily::ipv4);
    wanted = (resolved ? resolved->front().numeric() : host) + rpc.substr(rpc.rfind(':'));
  }
  const yarn::Token* only = nullptr;
  int hdfs_tokens = 0;
  for (const auto& [alias, token] : tokens) {
    if (token.kind != yarn::hdfs_delegation_kind) continue;
    if (token.service == wanted || token.service == hdfs.namenode_rpc_address()) return token;
    only = &token;
    ++hdfs_tokens;
  }
  if (hdfs_tokens == 1) return *only;
  return std::nullopt;
}

Result<yarn::WebHdfs> container_hdfs(const ContainerContext& context) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) return configuration.error();
  auto located = yarn::WebHdfs::for_container(*configuration, context.user, std::nullopt);
  if (!located) return located.error();
  auto token = hdfs_token(context.delegation_tokens, *located);
  if (!token) return located;
  return yarn::WebHdfs::for_container(*configuration, context.user, std::move(token));
}

}  // namespace spindle::container

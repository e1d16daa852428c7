#include "container/hdfs_access.h"

#include <memory>

#include "container/token_file.h"

#include "spindle/core/host_names.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/token_service.h"

namespace spindle::container {

namespace {

// The service an HDFS token for `hdfs` names: the nameservice, or the
// NameNode's RPC address, by number as a rule.
std::string wanted_service(const yarn::WebHdfs& hdfs) {
  if (!hdfs.options().nameservice.empty()) return yarn::ha_token_service(hdfs.options().nameservice);
  const auto rpc = hdfs.namenode_rpc_address();
  const auto host = rpc.substr(0, rpc.rfind(':'));
  const auto resolved = resolve_host(host, 0, AddressFamily::ipv4);
  return (resolved ? resolved->front().numeric() : host) + rpc.substr(rpc.rfind(':'));
}

std::optional<yarn::Token> token_for(const std::map<std::string, yarn::Token>& tokens, const std::string& wanted,
                                     const std::string& rpc_address) {
  const yarn::Token* only = nullptr;
  int hdfs_tokens = 0;
  for (const auto& [alias, token] : tokens) {
    if (token.kind != yarn::hdfs_delegation_kind) continue;
    if (token.service == wanted || token.service == rpc_address) return token;
    only = &token;
    ++hdfs_tokens;
  }
  if (hdfs_tokens == 1) return *only;
  return std::nullopt;
}

}  // namespace

std::optional<yarn::Token> hdfs_token(const std::map<std::string, yarn::Token>& tokens, const yarn::WebHdfs& hdfs) {
  return token_for(tokens, wanted_service(hdfs), hdfs.namenode_rpc_address());
}

Result<yarn::WebHdfs> container_hdfs(const ContainerContext& context) {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) return configuration.error();
  auto located = yarn::WebHdfs::for_container(*configuration, context.user, {});
  if (!located) return located.error();
  if (!hdfs_token(context.delegation_tokens, *located)) return located;
  // The token file may be replaced while this runs (new tokens from the
  // application master): each request takes the token it holds then.
  auto file = std::make_shared<TokenFile>(context.token_file);
  auto fallback = context.delegation_tokens;
  return yarn::WebHdfs::for_container(*configuration, context.user,
                                      [file, fallback, wanted = wanted_service(*located),
                                       rpc_address = located->namenode_rpc_address()]() -> std::optional<yarn::Token> {
                                        if (auto token = token_for(file->delegation_tokens(), wanted, rpc_address))
                                          return token;
                                        return token_for(fallback, wanted, rpc_address);
                                      });
}

}  // namespace spindle::container

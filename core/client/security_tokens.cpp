#include "spindle/client/security_tokens.h"

#include <optional>

#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/token_service.h"
#include "spindle/yarn/web_tls.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::client {
namespace {

constexpr std::string_view webhdfs_delegation_kind = "WEBHDFS delegation";
constexpr int default_rpc_port = 8020;
constexpr int default_http_port = 9870;

// One NameNode to get a token from, and how the token is to be named.
struct NameNodeTarget {
  std::string source;                          // as the user or the configuration wrote it, for messages
  std::string http_address;                    // host:port of its WebHDFS server
  std::vector<std::string> ha_http_addresses;  // an HA nameservice: each NameNode's WebHDFS server
  std::string token_address;                   // host:port the token's service names
  std::string ha_service;                      // an HA nameservice: the token's service, "ha-hdfs:<ns>"
  int token_default_port = default_rpc_port;
  std::string_view kind;
};

std::string authority_of(const std::string& uri) {
  const auto start = uri.find("://");
  if (start == std::string::npos) return "";
  const auto rest = uri.substr(start + 3);
  return rest.substr(0, rest.find_first_of("/?#"));
}

std::string host_of(const std::string& authority) {
  return authority.substr(0, authority.rfind(':'));
}

std::string port_of(const std::string& address, int fallback) {
  const auto colon = address.rfind(':');
  return colon == std::string::npos ? std::to_string(fallback) : address.substr(colon + 1);
}

// HA NameNodes go by a nameservice, whose tokens Hadoop names "ha-hdfs:<ns>"
// (HAUtilClient.buildTokenServiceForLogicalUri); clients on the cluster look
// them up by that name whichever NameNode is active.
bool is_nameservice(const std::string& host, const yarn::HadoopConfiguration& configuration) {
  for (const auto& nameservice : configuration.get_list("dfs.nameservices")) {
    if (nameservice == host) return true;
  }
  return false;
}

Result<NameNodeTarget> target_for(const std::string& uri, const yarn::HadoopConfiguration& configuration) {
  const bool webhdfs = uri.starts_with("webhdfs://");
  const auto authority = authority_of(uri);
  if ((!webhdfs && !uri.starts_with("hdfs://")) || authority.empty()) {
    return make_error("file_systems lists \"" + uri + "\", not hdfs://host:port or webhdfs://host:port");
  }
  const auto host = host_of(authority);
  NameNodeTarget target;
  target.source = uri;
  if (!webhdfs && is_nameservice(authority, configuration)) {
    auto namenodes = yarn::WebHdfs::nameservice_namenodes(configuration, authority);
    if (!namenodes) return namenodes.error();
    target.ha_http_addresses = std::move(*namenodes);
    target.ha_service = yarn::ha_token_service(authority);
    target.kind = yarn::hdfs_delegation_kind;
    return target;
  }
  if (webhdfs) {
    target.http_address = host + ":" + port_of(authority, default_http_port);
    target.token_address = target.http_address;
    target.token_default_port = default_http_port;
    target.kind = webhdfs_delegation_kind;
  } else {
    const bool https = yarn::https_only(configuration, yarn::WebService::hdfs);
    const auto http_port = https ? port_of(configuration.get_or("dfs.namenode.https-address", ""), 9871)
                                 : port_of(configuration.get_or("dfs.namenode.http-address", ""), default_http_port);
    target.http_address = host + ":" + http_port;
    target.token_address = authority;
    target.kind = yarn::hdfs_delegation_kind;
  }
  return target;
}

Result<void> add_namenode_token(yarn::Credentials& credentials, yarn::WebHdfs::Options options,
                                const NameNodeTarget& target, const std::string& renewer,
                                const yarn::HadoopConfiguration& configuration) {
  auto service = target.ha_service.empty()
                     ? yarn::token_service(target.token_address, target.token_default_port, configuration)
                     : Result<std::string>(target.ha_service);
  if (!service) return service.error();
  if (credentials.tokens.count(*service)) return {};  // listed twice, or the default file system again
  options.namenode_http = target.ha_http_addresses.empty() ? target.http_address : target.ha_http_addresses.front();
  options.namenodes = target.ha_http_addresses;
  yarn::WebHdfs namenode(std::move(options));
  auto token = namenode.delegation_token(renewer);
  if (!token) return token.error();
  token->kind = std::string(target.kind);
  token->service = *service;
  credentials.tokens[*service] = std::move(*token);
  return {};
}

Result<yarn::Token> resource_manager_token_over_rest(const std::string& renewer,
                                                     const yarn::HadoopConfiguration& configuration) {
  auto token = yarn::ResourceManagerRest::from_configuration(configuration).delegation_token(renewer);
  if (!token) return token.error();
  // As Hadoop's ClientRMProxy: one service per ResourceManager, comma-separated.
  std::string services;
  for (const auto& address : configuration.resource_manager_addresses(yarn::RmService::client)) {
    auto service = yarn::token_service(address, 8032, configuration);
    if (!service) return service.error();
    services += (services.empty() ? "" : ",") + *service;
  }
  token->service = services;
  return token;
}

}  // namespace

Result<yarn::Credentials> obtain_job_tokens(const JobSpec& spec, const yarn::HadoopConfiguration& configuration,
                                            const JobTokenOptions& options) {
  yarn::Credentials credentials;
  if (!yarn::uses_kerberos(configuration)) return credentials;
  std::string renewer = options.renewer;
  if (renewer.empty()) {
    auto configured = yarn::token_renewer(configuration);
    if (!configured) return configured.error();
    renewer = *configured;
  }

  std::vector<NameNodeTarget> targets;
  std::optional<yarn::WebHdfs::Options> base;
  if (auto hdfs = yarn::WebHdfs::from_configuration(configuration)) {
    base = hdfs->options();
    NameNodeTarget default_fs;
    default_fs.source = base->default_fs;
    default_fs.http_address = base->namenode_http;
    default_fs.token_address = hdfs->namenode_rpc_address();
    default_fs.kind = yarn::hdfs_delegation_kind;
    if (!base->nameservice.empty()) {
      // As Hadoop names them for HA: the nameservice, whichever NameNode is active.
      default_fs.ha_http_addresses = base->namenodes;
      default_fs.ha_service = yarn::ha_token_service(base->nameservice);
    }
    targets.push_back(std::move(default_fs));
  }
  for (const auto& uri : spec.file_systems) {
    auto target = target_for(uri, configuration);
    if (!target) return target.error();
    targets.push_back(std::move(*target));
  }
  if (!targets.empty() && !base) {
    // The default file system is not HDFS; other NameNodes still take these settings.
    base = yarn::WebHdfs::Options{};
    base->kerberos = true;
    base->connect_timeout = std::chrono::milliseconds(configuration.get_int("ipc.client.connect.timeout", 20'000));
  }
  for (const auto& target : targets) {
    if (auto added = add_namenode_token(credentials, *base, target, renewer, configuration); !added) {
      Error error = added.error();
      error.message = "cannot get a delegation token for " + target.source + ": " + error.message;
      return error;
    }
  }

  auto rm_token = options.resource_manager_token ? options.resource_manager_token(renewer)
                                                 : resource_manager_token_over_rest(renewer, configuration);
  if (!rm_token) {
    Error error = rm_token.error();
    error.message = "cannot get the ResourceManager's delegation token: " + error.message;
    return error;
  }
  credentials.tokens[rm_token->service] = std::move(*rm_token);
  return credentials;
}

}  // namespace spindle::client

#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/token.h"

namespace spindle::yarn {

namespace http {
struct Request;
class AuthCookies;
}  // namespace http

struct HdfsFileStatus {
  std::string name;  // last path component; empty for the path asked about itself
  bool directory = false;
  std::int64_t length = 0;
  std::int64_t modification_time = 0;  // ms since the epoch
  std::string owner;
  std::string group;
  std::string permission;  // octal, e.g. "755"
  int replication = 0;
};

using TransferProgress = std::function<void(std::int64_t done, std::int64_t total)>;

// HDFS through the NameNode's WebHDFS REST API. Files stream in pieces in
// both directions, so their size does not matter to memory.
class WebHdfs {
 public:
  struct Options {
    std::string namenode_http;  // host:port of the NameNode's HTTP server
    std::string default_fs;     // hdfs://host:port, for the URIs YARN needs
    std::string user;           // SIMPLE authentication (user.name)
    // hadoop.security.authentication=kerberos: requests carry no user.name
    // and answer the NameNode's SPNEGO challenge from the ticket cache.
    // (A challenge is answered either way, so a stale client setting works.)
    bool kerberos = false;
    // Token-only, as inside YARN containers: every request carries
    // delegation=<url string> instead of user.name and never uses SPNEGO.
    std::optional<Token> delegation;
    std::chrono::milliseconds connect_timeout{20'000};
  };

  explicit WebHdfs(Options options);
  // From fs.defaultFS, dfs.namenode.http-address and hadoop.security.authentication.
  static Result<WebHdfs> from_configuration(const HadoopConfiguration& configuration);

  Result<void> mkdirs(const std::string& path, const std::string& permission = "755");
  Result<HdfsFileStatus> status(const std::string& path);
  Result<bool> exists(const std::string& path);
  Result<std::vector<HdfsFileStatus>> list(const std::string& path);
  Result<bool> remove(const std::string& path, bool recursive);
  Result<bool> rename(const std::string& from, const std::string& to);

  // Writes a file from a source that fills up to `size` bytes per call (0 ends).
  Result<void> write(const std::string& path, std::function<std::size_t(char*, std::size_t)> source,
                     std::int64_t length, bool overwrite, TransferProgress progress = {});
  Result<void> write(const std::string& path, std::string_view data, bool overwrite);
  Result<void> upload(const std::filesystem::path& local, const std::string& path, bool overwrite,
                      TransferProgress progress = {});

  // Reads a file into a sink, piece by piece; the sink returns false to stop.
  Result<void> read(const std::string& path, std::function<bool(std::string_view)> sink,
                    TransferProgress progress = {});
  Result<std::string> read_all(const std::string& path, std::size_t limit = 64 * 1024 * 1024);
  // Up to `length` bytes of a file from `offset` on; fewer only at its end.
  Result<std::string> read_range(const std::string& path, std::int64_t offset, std::int64_t length);

  // A delegation token from the NameNode (GETDELEGATIONTOKEN; needs
  // Kerberos), which `renewer` may renew. It comes as the NameNode issues it
  // to WebHDFS clients; for hdfs:// clients in containers set its kind to
  // HDFS_DELEGATION_TOKEN and its service to the NameNode's RPC address
  // (see token_service.h). Either way it works for WebHDFS as `delegation`.
  Result<Token> delegation_token(const std::string& renewer);
  // Renewing and cancelling need Kerberos as the token's renewer (or owner,
  // to cancel); a token-only client cannot. Renewal answers the new expiry.
  Result<std::chrono::system_clock::time_point> renew_delegation_token(const Token& token);
  Result<void> cancel_delegation_token(const Token& token);

  // host:port of the NameNode's RPC server, from default_fs (port 8020 if none).
  std::string namenode_rpc_address() const;

  // hdfs://host:port/path, as YARN's local resources name files.
  std::string uri(const std::string& path) const;
  const Options& options() const { return options_; }

 private:
  std::string url(const std::string& path, const std::string& operation, const std::string& extra = "") const;
  http::Request new_request(std::string method, std::string target) const;

  Options options_;
  std::shared_ptr<http::AuthCookies> cookies_;  // shared by copies: one SPNEGO login serves them all
};

}  // namespace spindle::yarn

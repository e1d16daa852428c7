#pragma once

#include <atomic>
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
#include "spindle/yarn/web_tls.h"

namespace spindle::yarn {

namespace http {
struct Request;
struct Response;
class AuthCookies;
}  // namespace http
class UnreachableDataNodes;

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
//
// With an HA nameservice as fs.defaultFS it knows every NameNode's HTTP
// address. Requests go to the one last found active; a standby's refusal
// (403 StandbyException) or no answer sends them to the next, and the one
// that answers is remembered by this object and its copies.
class WebHdfs {
 public:
  struct Options {
    std::string namenode_http;  // host:port of the NameNode's HTTP server
    // HA: every NameNode of the nameservice (host:port of each HTTP server,
    // in dfs.ha.namenodes order). Empty: namenode_http alone.
    std::vector<std::string> namenodes;
    std::string nameservice;  // HA: the nameservice fs.defaultFS names
    std::string default_fs;   // hdfs://host:port or hdfs://nameservice, for the URIs YARN needs
    std::string user;         // SIMPLE authentication (user.name)
    // hadoop.security.authentication=kerberos: requests carry no user.name
    // and answer the NameNode's SPNEGO challenge from the ticket cache.
    // (A challenge is answered either way, so a stale client setting works.)
    bool kerberos = false;
    // Token-only, as inside YARN containers: every request carries
    // delegation=<url string> instead of user.name and never uses SPNEGO.
    std::optional<Token> delegation;
    // A token that changes while this object lives (a container's token
    // file, rewritten when the application master hands out new tokens):
    // asked on every request, and before `delegation`.
    std::function<std::optional<Token>()> delegation_source;
    std::chrono::milliseconds connect_timeout{20'000};
    // dfs.http.policy=HTTPS_ONLY (swebhdfs): https:// to the NameNodes'
    // https addresses and the DataNodes they redirect to, trusting `trust`.
    bool https = false;
    std::shared_ptr<const WebTrust> trust;
  };

  explicit WebHdfs(Options options);
  // From fs.defaultFS, dfs.namenode.http-address and hadoop.security.authentication;
  // for a nameservice, dfs.ha.namenodes.<ns> and dfs.namenode.http-address.<ns>.<id>.
  static Result<WebHdfs> from_configuration(const HadoopConfiguration& configuration);
  // Inside a YARN container: the NameNodes of the node's configuration, as
  // `user` where the cluster trusts names (simple authentication), with the
  // token `delegation` gives on every request where it gives one. Never
  // SPNEGO: tasks hold tokens only.
  static Result<WebHdfs> for_container(const HadoopConfiguration& configuration, std::string user,
                                       std::function<std::optional<Token>()> delegation);
  // The HTTP host:port of each NameNode of an HA nameservice; an error when
  // `nameservice` is not one of dfs.nameservices or an address is missing.
  static Result<std::vector<std::string>> nameservice_namenodes(const HadoopConfiguration& configuration,
                                                                const std::string& nameservice);

  Result<void> mkdirs(const std::string& path, const std::string& permission = "755");
  Result<HdfsFileStatus> status(const std::string& path);
  Result<bool> exists(const std::string& path);
  Result<std::vector<HdfsFileStatus>> list(const std::string& path);
  Result<bool> remove(const std::string& path, bool recursive);
  Result<bool> rename(const std::string& from, const std::string& to);
  // Octal, e.g. "600".
  Result<void> set_permission(const std::string& path, const std::string& permission);
  // Renames a file over whatever `to` is (HDFS's rename with OVERWRITE), in
  // one step: a reader sees the old file or the new one, never neither.
  Result<void> replace(const std::string& from, const std::string& to);

  // Writes a file from a source that fills up to `size` bytes per call (0 ends).
  // A failed transfer removes what it wrote, so no partial file remains
  // that could be taken as whole. write(data), upload() and
  // write_restartable() can start again, and do, a few times over some
  // seconds, when a NameNode failover interrupted them.
  using ByteSource = std::function<std::size_t(char*, std::size_t)>;
  Result<void> write(const std::string& path, ByteSource source, std::int64_t length, bool overwrite,
                     TransferProgress progress = {});
  // `make_source` gives a source that starts at the first byte each time it is called.
  Result<void> write_restartable(const std::string& path, const std::function<ByteSource()>& make_source,
                                 std::int64_t length, bool overwrite, TransferProgress progress = {});
  Result<void> write(const std::string& path, std::string_view data, bool overwrite);
  // Writes `data` beside `path`, under a name of its own, and renames it over
  // `path`: a reader meanwhile sees the old content or the new, never an empty
  // or half-written file, and writers at once never refuse each other.
  Result<void> write_whole(const std::string& path, std::string_view data);
  // Adds `data` to the end of an existing file (WebHDFS APPEND), which is
  // closed again afterwards, so readers see it at once. Not repeated on
  // failure: whether an interrupted append took effect only the file's
  // length can tell, which the caller knows how to judge.
  Result<void> append(const std::string& path, std::string_view data);
  // The same with `length` bytes from a source (a file, say), streamed.
  Result<void> append(const std::string& path, ByteSource source, std::int64_t length);
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
  // host:port of the NameNode that answered last as active (HA), or the only one.
  std::string active_namenode() const;
  // How one NameNode (host:port of its HTTP server) answers a read:
  // "active" when it serves it, "standby" when it refuses as a standby.
  Result<std::string> namenode_state(const std::string& namenode);

  // hdfs://host:port/path, as YARN's local resources name files.
  std::string uri(const std::string& path) const;
  const Options& options() const { return options_; }

 private:
  // Where the NameNodes are and how to speak to them; no identity yet.
  static Result<Options> locate(const HadoopConfiguration& configuration);
  std::optional<Token> current_delegation() const;
  std::string url(const std::string& path, const std::string& operation, const std::string& extra = "") const;
  std::string url_at(const std::string& namenode, const std::string& path, const std::string& operation,
                     const std::string& extra) const;
  http::Request new_request(std::string method, std::string target) const;
  // One request to the NameNode (never following a redirect), to the
  // active one first and on to the others past a standby or silence.
  Result<http::Response> namenode_call(const std::string& what, const std::string& method, const std::string& path,
                                       const std::string& operation, const std::string& extra = "");
  // `excluded`: DataNodes (hosts, comma-separated) that could not be reached, which the NameNode
  // is asked not to name again (excludedatanodes); one that fails here is added to it.
  Result<void> write_once(const std::string& path, std::function<std::size_t(char*, std::size_t)> source,
                          std::int64_t length, bool overwrite, TransferProgress progress, bool& retriable,
                          std::string& excluded);
  Result<void> write_again(const std::string& path,
                           const std::function<std::function<std::size_t(char*, std::size_t)>()>& make_source,
                           std::int64_t length, bool overwrite, const TransferProgress& progress);
  const std::vector<std::string>& namenode_list() const;

  Options options_;
  std::shared_ptr<http::AuthCookies> cookies_;         // shared by copies: one SPNEGO login serves them all
  std::vector<std::string> single_;                    // {namenode_http} when there is no HA list
  std::shared_ptr<std::atomic<std::size_t>> active_;   // index of the active NameNode, shared by copies
  std::shared_ptr<UnreachableDataNodes> unreachable_;  // left out of the NameNode's choices a while
};

}  // namespace spindle::yarn

#include "spindle/yarn/webhdfs.h"

#include "spindle/yarn/cluster_identity.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "spindle/core/host_names.h"
#include "spindle/yarn/http_client.h"
#include "spindle/yarn/token_service.h"
#include "spindle/yarn/token_url_string.h"
#include "unreachable_datanodes.h"

namespace spindle::yarn {
namespace {

using json = nlohmann::json;

// Fields of a NameNode's JSON answer, which may hold anything: a field that is missing, or not
// of the kind Hadoop sends, reads as absent rather than throwing out of the library.
const json& member(const json& object, const char* key) {
  static const json absent;
  if (!object.is_object()) return absent;
  const auto found = object.find(key);
  return found == object.end() ? absent : *found;
}

std::string text_member(const json& object, const char* key, std::string fallback = {}) {
  const auto& value = member(object, key);
  return value.is_string() ? value.get<std::string>() : fallback;
}

std::int64_t number_member(const json& object, const char* key) {
  const auto& value = member(object, key);
  return value.is_number_integer() ? value.get<std::int64_t>() : 0;
}

bool true_member(const json& object, const char* key) {
  const auto& value = member(object, key);
  return value.is_boolean() && value.get<bool>();
}

// Hadoop answers errors with {"RemoteException": {"exception", "message"}}.
// A refused delegation token (InvalidToken) or login (401) is an
// authentication failure. Messages may quote the request, so tokens in
// them are redacted.
Error remote_error(const std::string& what, const http::Response& response) {
  const auto parsed = json::parse(response.body, nullptr, false);
  std::string message = "HTTP " + std::to_string(response.status);
  bool refused_token = false;
  std::string exception_class;
  if (const auto& exception = member(parsed, "RemoteException"); exception.is_object()) {
    const auto name = text_member(exception, "exception", "error");
    exception_class = name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1);
    message = text_member(exception, "message", name);
    // The NameNode wraps it, e.g. SecurityException "...SecretManager$InvalidToken: ...".
    refused_token = name.find("InvalidToken") != std::string::npos || message.find("InvalidToken") != std::string::npos;
  }
  Error error = make_error(redact_token_parameters(what + ": " + message));
  if (refused_token || response.status == 401) error.kind = Error::Kind::authentication;
  error.remote_exception = std::move(exception_class);
  return error;
}

Result<HdfsFileStatus> file_status(const json& entry, const std::string& what) {
  if (!entry.is_object() || !member(entry, "type").is_string() || !member(entry, "length").is_number_integer()) {
    return make_error(what + ": the NameNode's answer holds no file status (" + entry.dump().substr(0, 200) + ")");
  }
  HdfsFileStatus status;
  status.name = text_member(entry, "pathSuffix");
  status.directory = text_member(entry, "type") == "DIRECTORY";
  status.length = number_member(entry, "length");
  status.modification_time = number_member(entry, "modificationTime");
  status.owner = text_member(entry, "owner");
  status.group = text_member(entry, "group");
  status.permission = text_member(entry, "permission");
  status.replication = static_cast<int>(number_member(entry, "replication"));
  return status;
}

std::string escape_path(const std::string& path) {
  std::string out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = std::min(path.find('/', start), path.size());
    out += http::escape(std::string_view(path).substr(start, slash - start));
    if (slash < path.size()) out += '/';
    start = slash + 1;
  }
  return out;
}

// A NameNode that is not the active one says so with 403 and a
// StandbyException (or, while it becomes active, a RetriableException).
bool standby_refusal(const http::Response& response) {
  if (response.status != 403 && response.status != 503) return false;
  const auto parsed = json::parse(response.body, nullptr, false);
  const auto& exception = member(parsed, "RemoteException");
  const auto name = text_member(exception, "exception");
  const auto message = text_member(exception, "message");
  return name == "StandbyException" || (name == "RetriableException" && message.find("standby") != std::string::npos);
}

std::string authority_host(const std::string& uri) {
  std::string authority =
      uri.substr(std::min(uri.size(), uri.find("://") == std::string::npos ? 0 : uri.find("://") + 3));
  authority = authority.substr(0, authority.find_first_of("/?#"));
  return authority.substr(0, authority.find(':'));
}

// A DataNode that cannot be reached (its node cut off, but not yet declared dead, which takes
// the NameNode minutes) is left out of the NameNode's next choice, by host: a node runs one.
constexpr int datanode_attempts = 3;

// The NameNode matches excludedatanodes by address, not by name: a name is resolved first.
std::string datanode_address(const std::string& location) {
  const auto host = authority_host(location);
  if (host.empty()) return host;
  auto resolved = resolve_host(host, 0, AddressFamily::ipv4);
  return resolved && !resolved->empty() ? resolved->front().numeric() : host;
}

void exclude_datanode(std::string& excluded, const std::string& location) {
  const auto address = datanode_address(location);
  if (address.empty()) return;
  excluded += (excluded.empty() ? "" : ",") + address;
}

std::string excluding(const std::string& excluded) {
  return excluded.empty() ? std::string() : "&excludedatanodes=" + http::escape(excluded);
}

Result<json> json_answer(const std::string& what, const Result<http::Response>& response) {
  if (!response) return response.error();
  if (response->status >= 300) return remote_error(what, *response);
  auto parsed = json::parse(response->body, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return make_error(what + ": the NameNode's answer is not JSON");
  return parsed;
}

}  // namespace

WebHdfs::WebHdfs(Options options)
    : options_(std::move(options)),
      cookies_(std::make_shared<http::AuthCookies>()),
      single_{options_.namenode_http},
      active_(std::make_shared<std::atomic<std::size_t>>(0)),
      unreachable_(std::make_shared<UnreachableDataNodes>()) {
  if (options_.namenode_http.empty() && !options_.namenodes.empty())
    options_.namenode_http = options_.namenodes.front();
}

const std::vector<std::string>& WebHdfs::namenode_list() const {
  return options_.namenodes.empty() ? single_ : options_.namenodes;
}

std::string WebHdfs::active_namenode() const {
  const auto& namenodes = namenode_list();
  return namenodes[active_->load() % namenodes.size()];
}

Result<std::string> WebHdfs::namenode_state(const std::string& namenode) {
  // A read through WebHDFS itself: what a client meets. (Its /jmx is no
  // witness where several NameNodes share a JVM and so one MBean.)
  http::Request request = new_request("GET", url_at(namenode, "/", "GETFILESTATUS", ""));
  auto response = http::perform(request);
  if (!response) return response.error();
  if (response->status == 200) return std::string("active");
  if (standby_refusal(*response)) return std::string("standby");
  return remote_error("asking the NameNode at " + namenode + " for the root directory", *response);
}

Result<std::vector<std::string>> WebHdfs::nameservice_namenodes(const HadoopConfiguration& configuration,
                                                                const std::string& nameservice) {
  const auto ids = configuration.get_list("dfs.ha.namenodes." + nameservice);
  if (ids.empty()) {
    return make_error("the nameservice " + nameservice + " has no NameNodes in dfs.ha.namenodes." + nameservice +
                      "; add their ids to hdfs-site.xml in HADOOP_CONF_DIR");
  }
  std::vector<std::string> addresses;
  const bool https = https_only(configuration, WebService::hdfs);
  const std::string key = https ? "dfs.namenode.https-address." : "dfs.namenode.http-address.";
  for (const auto& id : ids) {
    const std::string suffix = nameservice + "." + id;
    auto http = configuration.get(key + suffix);
    if (!http || http->starts_with("0.0.0.0:")) {
      // Listening everywhere, or not said: the host of its RPC address, on the HTTP port.
      auto rpc = configuration.get("dfs.namenode.rpc-address." + suffix);
      if (!rpc) {
        return make_error("NameNode " + id + " of " + nameservice + " has neither " + key + suffix +
                          " nor dfs.namenode.rpc-address." + suffix + "; add one to hdfs-site.xml in HADOOP_CONF_DIR");
      }
      const std::string port = http ? http->substr(8) : (https ? "9871" : "9870");
      http = rpc->substr(0, rpc->rfind(':')) + ":" + port;
    }
    addresses.push_back(*http);
  }
  return addresses;
}

Result<WebHdfs::Options> WebHdfs::locate(const HadoopConfiguration& configuration) {
  Options options;
  options.default_fs = configuration.get_or("fs.defaultFS", "file:///");
  if (!options.default_fs.starts_with("hdfs://")) {
    return make_error("fs.defaultFS is " + options.default_fs + ", not HDFS; WebHDFS needs an hdfs:// file system");
  }
  const std::string host = authority_host(options.default_fs);
  const auto nameservices = configuration.get_list("dfs.nameservices");
  if (std::find(nameservices.begin(), nameservices.end(), host) != nameservices.end()) {
    auto namenodes = nameservice_namenodes(configuration, host);
    if (!namenodes) return namenodes.error();
    options.nameservice = host;
    options.namenodes = std::move(*namenodes);
    options.namenode_http = options.namenodes.front();
  } else {
    options.namenode_http = https_only(configuration, WebService::hdfs)
                                ? configuration.get_or("dfs.namenode.https-address", "0.0.0.0:9871")
                                : configuration.get_or("dfs.namenode.http-address", "0.0.0.0:9870");
  }
  options.https = https_only(configuration, WebService::hdfs);
  if (options.https) {
    auto trust = web_trust(configuration);
    if (!trust) return trust.error();
    options.trust = std::move(*trust);
  }
  if (options.namenode_http.starts_with("0.0.0.0:")) {
    // The NameNode listens everywhere; reach it on fs.defaultFS's host.
    options.namenode_http = host + options.namenode_http.substr(7);
  }
  options.connect_timeout = std::chrono::milliseconds(configuration.get_int("ipc.client.connect.timeout", 20'000));
  return options;
}

Result<WebHdfs> WebHdfs::from_configuration(const HadoopConfiguration& configuration) {
  auto located = locate(configuration);
  if (!located) return located.error();
  Options options = std::move(*located);
  options.kerberos = uses_kerberos(configuration);
  if (auto logged_in = use_configured_keytab(configuration); !logged_in) return logged_in.error();
  // Paths such as the home directory follow the name the cluster knows us by.
  auto user = cluster_user(configuration);
  options.user = user ? *user : hadoop_user_name();
  return WebHdfs(std::move(options));
}

Result<WebHdfs> WebHdfs::for_container(const HadoopConfiguration& configuration, std::string user,
                                       std::function<std::optional<Token>()> delegation) {
  auto located = locate(configuration);
  if (!located) return located.error();
  Options options = std::move(*located);
  options.user = std::move(user);
  options.delegation_source = std::move(delegation);
  options.kerberos = false;
  return WebHdfs(std::move(options));
}

std::optional<Token> WebHdfs::current_delegation() const {
  if (options_.delegation_source) {
    if (auto token = options_.delegation_source()) return token;
  }
  return options_.delegation;
}

std::string WebHdfs::url(const std::string& path, const std::string& operation, const std::string& extra) const {
  return url_at(active_namenode(), path, operation, extra);
}

std::string WebHdfs::url_at(const std::string& namenode, const std::string& path, const std::string& operation,
                            const std::string& extra) const {
  std::string who;
  if (const auto token = current_delegation()) {
    who = "&delegation=" + encode_token_url_string(*token);
  } else if (!options_.kerberos) {
    who = "&user.name=" + http::escape(options_.user);
  }
  return (options_.https ? "https://" : "http://") + namenode + "/webhdfs/v1" + escape_path(path) + "?op=" + operation +
         who + extra;
}

Result<http::Response> WebHdfs::namenode_call(const std::string& what, const std::string& method,
                                              const std::string& path, const std::string& operation,
                                              const std::string& extra) {
  const auto& namenodes = namenode_list();
  const std::size_t first = active_->load() % namenodes.size();
  std::string refusals;
  for (std::size_t tried = 0; tried < namenodes.size(); ++tried) {
    const std::size_t index = (first + tried) % namenodes.size();
    http::Request request = new_request(method, url_at(namenodes[index], path, operation, extra));
    auto response = http::perform(request);
    if (namenodes.size() == 1) return response;
    if (response && !standby_refusal(*response)) {
      active_->store(index);
      return response;
    }
    if (!response && response.error().kind == Error::Kind::authentication) return response.error();
    refusals += std::string(refusals.empty() ? "" : "; ") + namenodes[index] +
                (response ? " is standby" : " did not answer (" + response.error().message + ")");
  }
  return make_error(what + ": no NameNode of the nameservice " + options_.nameservice + " is active (" + refusals +
                    "); check that one of them runs and is active (hdfs haadmin -getAllServiceState)");
}

http::Request WebHdfs::new_request(std::string method, std::string target) const {
  http::Request request;
  request.method = std::move(method);
  request.url = std::move(target);
  request.connect_timeout = options_.connect_timeout;
  request.negotiate = !current_delegation();
  request.cookies = cookies_.get();
  request.trust = options_.trust.get();
  return request;
}

std::string WebHdfs::namenode_rpc_address() const {
  std::string authority = options_.default_fs.substr(std::min(options_.default_fs.size(), std::size_t{7}));
  authority = authority.substr(0, authority.find('/'));
  if (authority.find(':') == std::string::npos) authority += ":8020";
  return authority;
}

Result<Token> WebHdfs::delegation_token(const std::string& renewer) {
  const std::string what = "getting a delegation token from the NameNode at " + active_namenode();
  auto answer =
      json_answer(what, namenode_call(what, "GET", "/", "GETDELEGATIONTOKEN", "&renewer=" + http::escape(renewer)));
  if (!answer) return answer.error();
  const auto& url_string = member(member(*answer, "Token"), "urlString");
  if (!url_string.is_string()) {
    return make_error(what + ": its answer holds no Token.urlString; is security enabled on it?");
  }
  return decode_token_url_string(url_string.get<std::string>());
}

Result<std::chrono::system_clock::time_point> WebHdfs::renew_delegation_token(const Token& token) {
  const std::string what = "renewing a delegation token at the NameNode " + active_namenode();
  auto answer = json_answer(
      what, namenode_call(what, "PUT", "/", "RENEWDELEGATIONTOKEN", "&token=" + encode_token_url_string(token)));
  if (!answer) return answer.error();
  const auto expiry = answer->find("long");
  if (expiry == answer->end() || !expiry->is_number_integer()) {
    return make_error("the NameNode at " + active_namenode() + " renewed the token but sent no new expiry");
  }
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(expiry->get<std::int64_t>()));
}

Result<void> WebHdfs::cancel_delegation_token(const Token& token) {
  const std::string what = "cancelling a delegation token at the NameNode " + active_namenode();
  auto response = namenode_call(what, "PUT", "/", "CANCELDELEGATIONTOKEN", "&token=" + encode_token_url_string(token));
  if (!response) return response.error();
  if (response->status != 200) return remote_error(what, *response);
  return {};
}

std::string WebHdfs::uri(const std::string& path) const {
  std::string base = options_.default_fs;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + path;
}

Result<void> WebHdfs::mkdirs(const std::string& path, const std::string& permission) {
  const std::string what = "creating " + path + " in HDFS";
  auto answer = json_answer(what, namenode_call(what, "PUT", path, "MKDIRS", "&permission=" + permission));
  if (!answer) return answer.error();
  if (!true_member(*answer, "boolean")) return make_error("HDFS would not create the directory " + path);
  return {};
}

Result<HdfsFileStatus> WebHdfs::status(const std::string& path) {
  const std::string what = "looking at " + path + " in HDFS";
  auto answer = json_answer(what, namenode_call(what, "GET", path, "GETFILESTATUS"));
  if (!answer) return answer.error();
  return file_status(member(*answer, "FileStatus"), what);
}

Result<bool> WebHdfs::exists(const std::string& path) {
  auto response = namenode_call("looking at " + path + " in HDFS", "GET", path, "GETFILESTATUS");
  if (!response) return response.error();
  if (response->status == 404) return false;
  if (response->status >= 300) return remote_error("looking at " + path + " in HDFS", *response);
  return true;
}

Result<std::vector<HdfsFileStatus>> WebHdfs::list(const std::string& path) {
  const std::string what = "listing " + path + " in HDFS";
  auto answer = json_answer(what, namenode_call(what, "GET", path, "LISTSTATUS"));
  if (!answer) return answer.error();
  const auto& listed = member(member(*answer, "FileStatuses"), "FileStatus");
  if (!listed.is_array()) return make_error(what + ": the NameNode's answer holds no FileStatuses.FileStatus list");
  std::vector<HdfsFileStatus> entries;
  for (const auto& entry : listed) {
    auto status = file_status(entry, what);
    if (!status) return status.error();
    entries.push_back(std::move(*status));
  }
  return entries;
}

Result<bool> WebHdfs::remove(const std::string& path, bool recursive) {
  const std::string what = "deleting " + path + " in HDFS";
  auto answer = json_answer(
      what, namenode_call(what, "DELETE", path, "DELETE", std::string("&recursive=") + (recursive ? "true" : "false")));
  if (!answer) return answer.error();
  return true_member(*answer, "boolean");
}

Result<bool> WebHdfs::rename(const std::string& from, const std::string& to) {
  const std::string what = "renaming " + from + " to " + to + " in HDFS";
  auto answer = json_answer(what, namenode_call(what, "PUT", from, "RENAME", "&destination=" + escape_path(to)));
  if (!answer) return answer.error();
  return true_member(*answer, "boolean");
}

Result<void> WebHdfs::set_permission(const std::string& path, const std::string& permission) {
  const std::string what = "setting the permission of " + path + " in HDFS to " + permission;
  auto response = namenode_call(what, "PUT", path, "SETPERMISSION", "&permission=" + permission);
  if (!response) return response.error();
  if (response->status != 200) return remote_error(what, *response);
  return {};
}

Result<void> WebHdfs::replace(const std::string& from, const std::string& to) {
  const std::string what = "renaming " + from + " over " + to + " in HDFS";
  auto response =
      namenode_call(what, "PUT", from, "RENAME", "&destination=" + escape_path(to) + "&renameoptions=OVERWRITE");
  if (!response) return response.error();
  if (response->status != 200) return remote_error(what, *response);
  return {};
}

Result<void> WebHdfs::write_whole(const std::string& path, std::string_view data) {
  // A name of this write's own: two writers of one file (a sweep's controller
  // as YARN stops it, and `sweep kill`) would otherwise fight over the lease of
  // one file beside, which HDFS holds for a minute after a writer dies.
  // Seeded without std::random_device, which may need a /dev/urandom a bare node lacks.
  static thread_local std::mt19937_64 draw{
      static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) ^
      (static_cast<std::uint64_t>(::getpid()) << 40) ^ std::hash<std::thread::id>{}(std::this_thread::get_id())};
  char tag[17];
  std::snprintf(tag, sizeof tag, "%016llx", static_cast<unsigned long long>(draw()));
  const auto slash = path.rfind('/');
  const auto beside = path.substr(0, slash + 1) + "." + path.substr(slash + 1) + "." + tag + ".writing";
  if (auto written = write(beside, data, false); !written) {
    (void)remove(beside, false);  // what a cut transfer left, which no later write would replace
    return written;
  }
  auto replaced = replace(beside, path);
  if (!replaced) (void)remove(beside, false);
  return replaced;
}

Result<void> WebHdfs::append(const std::string& path, std::string_view data) {
  auto offset = std::make_shared<std::size_t>(0);
  return append(
      path,
      [data, offset](char* buffer, std::size_t size) {
        const std::size_t n = std::min(size, data.size() - *offset);
        std::copy_n(data.data() + *offset, n, buffer);
        *offset += n;
        return n;
      },
      static_cast<std::int64_t>(data.size()));
}

Result<void> WebHdfs::append(const std::string& path, ByteSource source, std::int64_t length) {
  const std::string what = "appending to " + path + " in HDFS";
  auto redirect = namenode_call(what, "POST", path, "APPEND");
  if (!redirect) return redirect.error();
  if (redirect->status != 307 || redirect->header("location").empty()) return remote_error(what, *redirect);
  http::Request upload = new_request("POST", redirect->header("location"));
  upload.read = std::move(source);
  upload.body_size = length;
  upload.headers.emplace_back("Content-Type", "application/octet-stream");
  auto appended = http::perform(upload);
  if (!appended) return appended.error();
  if (appended->status != 200) return remote_error(what, *appended);
  return {};
}

Result<void> WebHdfs::write_once(const std::string& path, std::function<std::size_t(char*, std::size_t)> source,
                                 std::int64_t length, bool overwrite, TransferProgress progress, bool& retriable,
                                 std::string& excluded) {
  retriable = false;
  const std::string what = "writing " + path + " to HDFS";
  // The NameNode names a DataNode; the data goes there.
  auto redirect = namenode_call(what, "PUT", path, "CREATE",
                                std::string("&overwrite=") + (overwrite ? "true" : "false") + excluding(excluded));
  if (!redirect) {
    retriable = namenode_list().size() > 1;
    return redirect.error();
  }
  if (redirect->status != 307 || redirect->header("location").empty()) return remote_error(what, *redirect);
  http::Request upload = new_request("PUT", redirect->header("location"));
  upload.read = std::move(source);
  upload.body_size = length;
  upload.progress = std::move(progress);
  upload.headers.emplace_back("Content-Type", "application/octet-stream");
  auto written = http::perform(upload);
  if (written && written->status == 201) return {};
  if (!written) exclude_datanode(excluded, redirect->header("location"));
  // The file exists now (CREATE made it) but holds only part of the data:
  // it goes, so that nobody takes it for the whole. A DataNode whose
  // NameNode failed over under it fails the transfer; starting again is safe.
  retriable = !written || written->status >= 500 || standby_refusal(*written) ||
              written->body.find("StandbyException") != std::string::npos ||
              written->body.find("in state standby") != std::string::npos;
  // Unless the refusal was that the file is there already: that one is not ours.
  if (!written || written->body.find("FileAlreadyExistsException") == std::string::npos) (void)remove(path, false);
  if (!written) return written.error();
  return remote_error(what, *written);
}

Result<void> WebHdfs::write_again(const std::string& path,
                                  const std::function<std::function<std::size_t(char*, std::size_t)>()>& make_source,
                                  std::int64_t length, bool overwrite, const TransferProgress& progress) {
  // A failover takes seconds, during which a DataNode's own client may still reach the NameNode
  // that has just gone standby: the transfer starts again from the NameNode, a few times, with
  // growing pauses, until one is refused for another reason.
  // A DataNode that cannot be reached is left out of the next try.
  constexpr int attempts = 4;
  bool retriable = false;
  std::string excluded;
  auto done = write_once(path, make_source(), length, overwrite, progress, retriable, excluded);
  std::size_t left_out = 0;  // how much of `excluded` the last try found already
  for (int attempt = 1; attempt < attempts && !done && retriable; ++attempt) {
    // Another DataNode is tried at once; a NameNode failing over is given time.
    if (excluded.size() == left_out) std::this_thread::sleep_for(std::chrono::milliseconds(500) * (1 << (attempt - 1)));
    left_out = excluded.size();
    done = write_once(path, make_source(), length, overwrite, progress, retriable, excluded);
  }
  return done;
}

Result<void> WebHdfs::write(const std::string& path, std::function<std::size_t(char*, std::size_t)> source,
                            std::int64_t length, bool overwrite, TransferProgress progress) {
  bool retriable = false;
  std::string excluded;
  return write_once(path, std::move(source), length, overwrite, std::move(progress), retriable, excluded);
}

Result<void> WebHdfs::write_restartable(const std::string& path, const std::function<ByteSource()>& make_source,
                                        std::int64_t length, bool overwrite, TransferProgress progress) {
  return write_again(path, make_source, length, overwrite, progress);
}

Result<void> WebHdfs::write(const std::string& path, std::string_view data, bool overwrite) {
  auto offset = std::make_shared<std::size_t>(0);
  return write_again(path,
                     [&] {
                       *offset = 0;
                       return [data, offset](char* buffer, std::size_t size) {
                         const std::size_t n = std::min(size, data.size() - *offset);
                         std::copy_n(data.data() + *offset, n, buffer);
                         *offset += n;
                         return n;
                       };
                     },
                     static_cast<std::int64_t>(data.size()), overwrite, {});
}

Result<void> WebHdfs::upload(const std::filesystem::path& local, const std::string& path, bool overwrite,
                             TransferProgress progress) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(local, ec);
  if (ec) return make_error(local.string() + " cannot be read: " + ec.message());
  auto in = std::make_shared<std::ifstream>();
  in->open(local, std::ios::binary);
  if (!*in) return make_error(local.string() + " cannot be opened for reading");
  return write_again(
      path,
      [&] {
        in->clear();
        in->seekg(0);
        return [in](char* buffer, std::size_t room) {
          in->read(buffer, static_cast<std::streamsize>(room));
          return static_cast<std::size_t>(in->gcount());
        };
      },
      static_cast<std::int64_t>(size), overwrite, progress);
}

Result<void> WebHdfs::read(const std::string& path, std::function<bool(std::string_view)> sink,
                           TransferProgress progress) {
  // The NameNode first, answered in memory (a standby's refusal must not
  // reach the sink), then the data from the DataNode it names.
  const std::string what = "reading " + path + " from HDFS";
  std::string excluded = unreachable_->hosts();
  for (int attempt = 1;; ++attempt) {
    auto located = namenode_call(what, "GET", path, "OPEN", excluding(excluded));
    if (!located) return located.error();
    if (located->status != 307 || located->header("location").empty()) {
      if (located->status == 200) {  // a server that answers with the data itself
        if (progress)
          progress(static_cast<std::int64_t>(located->body.size()), static_cast<std::int64_t>(located->body.size()));
        if (!located->body.empty()) sink(located->body);
        return {};
      }
      return remote_error(what, *located);
    }
    http::Request request = new_request("GET", located->header("location"));
    request.follow_redirects = true;
    std::int64_t delivered = 0;
    request.write = [&sink, &delivered](std::string_view chunk) {
      delivered += static_cast<std::int64_t>(chunk.size());
      return sink(chunk);
    };
    request.progress = progress;
    auto response = http::perform(request);
    // Another DataNode holds the block too, as long as nothing reached the sink yet.
    if (!response && delivered == 0 && attempt < datanode_attempts) {
      exclude_datanode(excluded, located->header("location"));
      unreachable_->add(datanode_address(located->header("location")));
      continue;
    }
    if (!response) return response.error();
    if (response->status != 200) return remote_error(what, *response);
    return {};
  }
}

Result<std::string> WebHdfs::read_range(const std::string& path, std::int64_t offset, std::int64_t length) {
  const std::string what = "reading " + path + " from HDFS at byte " + std::to_string(offset);
  std::string excluded = unreachable_->hosts();
  for (int attempt = 1;; ++attempt) {
    auto response =
        namenode_call(what, "GET", path, "OPEN",
                      "&offset=" + std::to_string(offset) + "&length=" + std::to_string(length) + excluding(excluded));
    if (!response) return response.error();
    if (response->status == 307 && !response->header("location").empty()) {
      const std::string location = response->header("location");
      http::Request request = new_request("GET", location);
      request.follow_redirects = true;
      // A piece is small: a DataNode silent this long is cut off, and another holds the block too.
      request.idle_timeout = std::chrono::seconds(20);
      response = http::perform(request);
      if (!response && attempt < datanode_attempts) {
        exclude_datanode(excluded, location);
        unreachable_->add(datanode_address(location));
        continue;
      }
      if (!response) return response.error();
    }
    if (response->status != 200) return remote_error(what, *response);
    return std::move(response->body);
  }
}

Result<std::string> WebHdfs::read_all(const std::string& path, std::size_t limit) {
  std::string data;
  bool too_big = false;
  auto done = read(path, [&](std::string_view chunk) {
    if (data.size() + chunk.size() > limit) {
      too_big = true;
      return false;
    }
    data.append(chunk);
    return true;
  });
  if (too_big) return make_error(path + " in HDFS is larger than " + std::to_string(limit) + " bytes");
  if (!done) return done.error();
  return data;
}

}  // namespace spindle::yarn

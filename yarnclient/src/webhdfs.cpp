#include "spindle/yarn/webhdfs.h"

#include "spindle/yarn/cluster_identity.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "http/http_client.h"
#include "spindle/yarn/token_service.h"
#include "spindle/yarn/token_url_string.h"

namespace spindle::yarn {
namespace {

using json = nlohmann::json;

// Hadoop answers errors with {"RemoteException": {"exception", "message"}}.
// A refused delegation token (InvalidToken) or login (401) is an
// authentication failure. Messages may quote the request, so tokens in
// them are redacted.
Error remote_error(const std::string& what, const http::Response& response) {
  const auto parsed = json::parse(response.body, nullptr, false);
  std::string message = "HTTP " + std::to_string(response.status);
  bool refused_token = false;
  if (!parsed.is_discarded() && parsed.is_object() && parsed.contains("RemoteException") &&
      parsed["RemoteException"].is_object()) {
    const auto& exception = parsed["RemoteException"];
    const auto name = exception.value("exception", std::string("error"));
    message = exception.value("message", name);
    // The NameNode wraps it, e.g. SecurityException "...SecretManager$InvalidToken: ...".
    refused_token = name.find("InvalidToken") != std::string::npos || message.find("InvalidToken") != std::string::npos;
  }
  Error error = make_error(redact_token_parameters(what + ": " + message));
  if (refused_token || response.status == 401) error.kind = Error::Kind::authentication;
  return error;
}

HdfsFileStatus file_status(const json& entry) {
  HdfsFileStatus status;
  status.name = entry.value("pathSuffix", "");
  status.directory = entry.value("type", "") == "DIRECTORY";
  status.length = entry.value("length", std::int64_t{0});
  status.modification_time = entry.value("modificationTime", std::int64_t{0});
  status.owner = entry.value("owner", "");
  status.group = entry.value("group", "");
  status.permission = entry.value("permission", "");
  status.replication = entry.value("replication", 0);
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

Result<json> json_answer(const std::string& what, const Result<http::Response>& response) {
  if (!response) return response.error();
  if (response->status >= 300) return remote_error(what, *response);
  auto parsed = json::parse(response->body, nullptr, false);
  if (parsed.is_discarded()) return make_error(what + ": the NameNode's answer is not JSON");
  return parsed;
}

}  // namespace

WebHdfs::WebHdfs(Options options) : options_(std::move(options)), cookies_(std::make_shared<http::AuthCookies>()) {}

Result<WebHdfs> WebHdfs::from_configuration(const HadoopConfiguration& configuration) {
  Options options;
  options.default_fs = configuration.get_or("fs.defaultFS", "file:///");
  if (!options.default_fs.starts_with("hdfs://")) {
    return make_error("fs.defaultFS is " + options.default_fs + ", not HDFS; WebHDFS needs an hdfs:// file system");
  }
  options.namenode_http = configuration.get_or("dfs.namenode.http-address", "0.0.0.0:9870");
  if (options.namenode_http.starts_with("0.0.0.0:")) {
    // The NameNode listens everywhere; reach it on fs.defaultFS's host.
    std::string host = options.default_fs.substr(7);
    host = host.substr(0, host.find_first_of(":/"));
    options.namenode_http = host + options.namenode_http.substr(7);
  }
  options.kerberos = uses_kerberos(configuration);
  if (auto logged_in = use_configured_keytab(configuration); !logged_in) return logged_in.error();
  // Paths such as the home directory follow the name the cluster knows us by.
  auto user = cluster_user(configuration);
  options.user = user ? *user : hadoop_user_name();
  options.connect_timeout = std::chrono::milliseconds(configuration.get_int("ipc.client.connect.timeout", 20'000));
  return WebHdfs(std::move(options));
}

std::string WebHdfs::url(const std::string& path, const std::string& operation, const std::string& extra) const {
  std::string who;
  if (options_.delegation) {
    who = "&delegation=" + encode_token_url_string(*options_.delegation);
  } else if (!options_.kerberos) {
    who = "&user.name=" + http::escape(options_.user);
  }
  return "http://" + options_.namenode_http + "/webhdfs/v1" + escape_path(path) + "?op=" + operation + who + extra;
}

http::Request WebHdfs::new_request(std::string method, std::string target) const {
  http::Request request;
  request.method = std::move(method);
  request.url = std::move(target);
  request.connect_timeout = options_.connect_timeout;
  request.negotiate = !options_.delegation;
  request.cookies = cookies_.get();
  return request;
}

std::string WebHdfs::namenode_rpc_address() const {
  std::string authority = options_.default_fs.substr(std::min(options_.default_fs.size(), std::size_t{7}));
  authority = authority.substr(0, authority.find('/'));
  if (authority.find(':') == std::string::npos) authority += ":8020";
  return authority;
}

Result<Token> WebHdfs::delegation_token(const std::string& renewer) {
  http::Request request = new_request("GET", url("/", "GETDELEGATIONTOKEN", "&renewer=" + http::escape(renewer)));
  const std::string what = "getting a delegation token from the NameNode at " + options_.namenode_http;
  auto answer = json_answer(what, http::perform(request));
  if (!answer) return answer.error();
  const auto token = answer->find("Token");
  if (token == answer->end() || !token->is_object() || !token->contains("urlString") ||
      !(*token)["urlString"].is_string()) {
    return make_error(what + ": its answer holds no Token.urlString; is security enabled on it?");
  }
  return decode_token_url_string((*token)["urlString"].get<std::string>());
}

Result<std::chrono::system_clock::time_point> WebHdfs::renew_delegation_token(const Token& token) {
  http::Request request =
      new_request("PUT", url("/", "RENEWDELEGATIONTOKEN", "&token=" + encode_token_url_string(token)));
  auto answer =
      json_answer("renewing a delegation token at the NameNode " + options_.namenode_http, http::perform(request));
  if (!answer) return answer.error();
  const auto expiry = answer->find("long");
  if (expiry == answer->end() || !expiry->is_number_integer()) {
    return make_error("the NameNode at " + options_.namenode_http + " renewed the token but sent no new expiry");
  }
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(expiry->get<std::int64_t>()));
}

Result<void> WebHdfs::cancel_delegation_token(const Token& token) {
  http::Request request =
      new_request("PUT", url("/", "CANCELDELEGATIONTOKEN", "&token=" + encode_token_url_string(token)));
  auto response = http::perform(request);
  if (!response) return response.error();
  if (response->status != 200) {
    return remote_error("cancelling a delegation token at the NameNode " + options_.namenode_http, *response);
  }
  return {};
}

std::string WebHdfs::uri(const std::string& path) const {
  std::string base = options_.default_fs;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + path;
}

Result<void> WebHdfs::mkdirs(const std::string& path, const std::string& permission) {
  http::Request request = new_request("PUT", url(path, "MKDIRS", "&permission=" + permission));
  auto answer = json_answer("creating " + path + " in HDFS", http::perform(request));
  if (!answer) return answer.error();
  if (!answer->value("boolean", false)) return make_error("HDFS would not create the directory " + path);
  return {};
}

Result<HdfsFileStatus> WebHdfs::status(const std::string& path) {
  http::Request request = new_request("GET", url(path, "GETFILESTATUS"));
  auto answer = json_answer("looking at " + path + " in HDFS", http::perform(request));
  if (!answer) return answer.error();
  return file_status((*answer)["FileStatus"]);
}

Result<bool> WebHdfs::exists(const std::string& path) {
  http::Request request = new_request("GET", url(path, "GETFILESTATUS"));
  auto response = http::perform(request);
  if (!response) return response.error();
  if (response->status == 404) return false;
  if (response->status >= 300) return remote_error("looking at " + path + " in HDFS", *response);
  return true;
}

Result<std::vector<HdfsFileStatus>> WebHdfs::list(const std::string& path) {
  http::Request request = new_request("GET", url(path, "LISTSTATUS"));
  auto answer = json_answer("listing " + path + " in HDFS", http::perform(request));
  if (!answer) return answer.error();
  std::vector<HdfsFileStatus> entries;
  for (const auto& entry : (*answer)["FileStatuses"]["FileStatus"]) entries.push_back(file_status(entry));
  return entries;
}

Result<bool> WebHdfs::remove(const std::string& path, bool recursive) {
  http::Request request =
      new_request("DELETE", url(path, "DELETE", std::string("&recursive=") + (recursive ? "true" : "false")));
  auto answer = json_answer("deleting " + path + " in HDFS", http::perform(request));
  if (!answer) return answer.error();
  return answer->value("boolean", false);
}

Result<bool> WebHdfs::rename(const std::string& from, const std::string& to) {
  http::Request request = new_request("PUT", url(from, "RENAME", "&destination=" + escape_path(to)));
  auto answer = json_answer("renaming " + from + " to " + to + " in HDFS", http::perform(request));
  if (!answer) return answer.error();
  return answer->value("boolean", false);
}

Result<void> WebHdfs::write(const std::string& path, std::function<std::size_t(char*, std::size_t)> source,
                            std::int64_t length, bool overwrite, TransferProgress progress) {
  const std::string what = "writing " + path + " to HDFS";
  // The NameNode names a DataNode; the data goes there.
  http::Request ask =
      new_request("PUT", url(path, "CREATE", std::string("&overwrite=") + (overwrite ? "true" : "false")));
  auto redirect = http::perform(ask);
  if (!redirect) return redirect.error();
  if (redirect->status != 307 || redirect->header("location").empty()) return remote_error(what, *redirect);
  http::Request upload = new_request("PUT", redirect->header("location"));
  upload.read = std::move(source);
  upload.body_size = length;
  upload.progress = std::move(progress);
  upload.headers.emplace_back("Content-Type", "application/octet-stream");
  auto written = http::perform(upload);
  if (!written) return written.error();
  if (written->status != 201) return remote_error(what, *written);
  return {};
}

Result<void> WebHdfs::write(const std::string& path, std::string_view data, bool overwrite) {
  std::size_t offset = 0;
  return write(
      path,
      [&](char* buffer, std::size_t size) {
        const std::size_t n = std::min(size, data.size() - offset);
        std::copy_n(data.data() + offset, n, buffer);
        offset += n;
        return n;
      },
      static_cast<std::int64_t>(data.size()), overwrite);
}

Result<void> WebHdfs::upload(const std::filesystem::path& local, const std::string& path, bool overwrite,
                             TransferProgress progress) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(local, ec);
  if (ec) return make_error(local.string() + " cannot be read: " + ec.message());
  std::ifstream in(local, std::ios::binary);
  if (!in) return make_error(local.string() + " cannot be opened for reading");
  return write(
      path,
      [&](char* buffer, std::size_t room) {
        in.read(buffer, static_cast<std::streamsize>(room));
        return static_cast<std::size_t>(in.gcount());
      },
      static_cast<std::int64_t>(size), overwrite, std::move(progress));
}

Result<void> WebHdfs::read(const std::string& path, std::function<bool(std::string_view)> sink,
                           TransferProgress progress) {
  http::Request request = new_request("GET", url(path, "OPEN"));
  request.follow_redirects = true;
  request.write = std::move(sink);
  request.progress = std::move(progress);
  auto response = http::perform(request);
  if (!response) return response.error();
  if (response->status != 200) return remote_error("reading " + path + " from HDFS", *response);
  return {};
}

Result<std::string> WebHdfs::read_range(const std::string& path, std::int64_t offset, std::int64_t length) {
  http::Request request =
      new_request("GET", url(path, "OPEN", "&offset=" + std::to_string(offset) + "&length=" + std::to_string(length)));
  request.follow_redirects = true;
  auto response = http::perform(request);
  if (!response) return response.error();
  if (response->status != 200) {
    return remote_error("reading " + path + " from HDFS at byte " + std::to_string(offset), *response);
  }
  return std::move(response->body);
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

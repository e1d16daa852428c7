#include "spindle/hdfs_bridge/bridge_server.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "read_ahead.h"
#include "spindle/core/version.h"
#include "spindle/hdfs_bridge/frame_io.h"

namespace spindle::hdfs_bridge {
namespace {

Reply failure(const Error& error) {
  Reply reply;
  reply.message = error.message;
  const auto& exception = error.remote_exception;
  if (error.kind == Error::Kind::authentication) {
    reply.outcome = Outcome::unauthenticated;
    reply.message +=
        "; HDFS refused this process's identity: its delegation token expired or was cancelled, or "
        "it has no Kerberos ticket";
  } else if (exception == "FileNotFoundException") {
    reply.outcome = Outcome::not_found;
  } else if (exception == "FileAlreadyExistsException") {
    reply.outcome = Outcome::already_exists;
  } else if (exception == "AccessControlException") {
    reply.outcome = Outcome::permission_denied;
  } else if (exception == "PathIsNotEmptyDirectoryException") {
    reply.outcome = Outcome::not_empty;
  } else if (exception.empty()) {
    // No server named a failure: none answered at all.
    reply.outcome = Outcome::unavailable;
  } else {
    reply.outcome = Outcome::failed;
  }
  return reply;
}

Reply failure(Outcome outcome, std::string message) {
  Reply reply;
  reply.outcome = outcome;
  reply.message = std::move(message);
  return reply;
}

Entry entry_of(const yarn::HdfsFileStatus& status) {
  return Entry{status.name, status.directory, status.length, status.modification_time};
}

Reply stat(yarn::WebHdfs& hdfs, const Request& request) {
  auto status = hdfs.status(request.path);
  if (!status) return failure(status.error());
  Reply reply;
  reply.status = entry_of(*status);
  return reply;
}

Reply list(yarn::WebHdfs& hdfs, const Request& request) {
  auto listed = hdfs.list(request.path);
  if (!listed) return failure(listed.error());
  Reply reply;
  for (const auto& status : *listed) reply.entries.push_back(entry_of(status));
  return reply;
}

// A read at least this long is of a stream read straight through (the
// plugin's window grows while reads follow each other): the next window is
// fetched ahead.
constexpr std::int64_t read_ahead_from = 4 * 1024 * 1024;
constexpr int read_ahead_windows = 2;

Reply read(yarn::WebHdfs& hdfs, const Request& request, ReadAhead* ahead) {
  const auto length = std::min<std::int64_t>(request.length, max_frame_bytes - 1024 * 1024);
  std::optional<std::string> kept;
  if (ahead) kept = ahead->take(request.path, request.offset, length);
  auto data = kept ? Result<std::string>(std::move(*kept)) : hdfs.read_range(request.path, request.offset, length);
  if (data) {
    const auto got = static_cast<std::int64_t>(data->size());
    if (ahead && length >= read_ahead_from && got == length) {
      for (int windows = 1; windows <= read_ahead_windows; ++windows) {
        const auto offset = request.offset + windows * got;
        ahead->start(request.path, offset, length, [hdfs, path = request.path, offset, length]() mutable {
          return hdfs.read_range(path, offset, length);
        });
      }
    }
    Reply reply;
    reply.data = std::move(*data);
    return reply;
  }
  // WebHDFS refuses an offset at or past the end, where a reader of a file
  // that is still growing arrives routinely: that is an empty read.
  // When that look fails too, its reason is the one to give (a refused token, a file removed).
  auto status = hdfs.status(request.path);
  if (!status) return failure(status.error());
  if (!status->directory && request.offset >= status->length) return Reply{};
  return failure(data.error());
}

// The bytes of a write: inline in the request, or the first `length` bytes
// of a spool file on this node that the writer named (second_path), read
// from the start each time a source is asked for.
class WriteData {
 public:
  explicit WriteData(const Request& request) : request_(request) {}

  std::int64_t size() const {
    return request_.second_path.empty() ? static_cast<std::int64_t>(request_.data.size()) : request_.length;
  }
  yarn::WebHdfs::ByteSource source() const {
    if (request_.second_path.empty()) {
      auto offset = std::make_shared<std::size_t>(0);
      return [data = std::string_view(request_.data), offset](char* buffer, std::size_t room) {
        const std::size_t n = std::min(room, data.size() - *offset);
        std::copy_n(data.data() + *offset, n, buffer);
        *offset += n;
        return n;
      };
    }
    auto in = std::make_shared<std::ifstream>(request_.second_path, std::ios::binary);
    auto left = std::make_shared<std::int64_t>(request_.length);
    return [in, left](char* buffer, std::size_t room) -> std::size_t {
      if (*left <= 0 || !*in) return 0;
      in->read(buffer, static_cast<std::streamsize>(std::min<std::int64_t>(static_cast<std::int64_t>(room), *left)));
      const auto got = in->gcount();
      *left -= got;
      return static_cast<std::size_t>(got);
    };
  }
  // Whether the spool file holds what the writer said it does.
  std::optional<std::string> problem() const {
    if (request_.second_path.empty()) return std::nullopt;
    std::error_code ec;
    const auto size = std::filesystem::file_size(request_.second_path, ec);
    if (ec) return "the spool file " + request_.second_path + " cannot be read: " + ec.message();
    if (static_cast<std::int64_t>(size) < request_.length) {
      return "the spool file " + request_.second_path + " holds " + std::to_string(size) + " bytes, not the " +
             std::to_string(request_.length) + " its writer named";
    }
    return std::nullopt;
  }

 private:
  const Request& request_;
};

// An append that a failover or a lost connection interrupted may or may not
// have taken effect; the file's length tells which, and only then is it sent again.
Reply append(yarn::WebHdfs& hdfs, const Request& request, const WriteData& data) {
  const auto size = data.size();
  constexpr int attempts = 4;
  Error last;
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    auto appended = hdfs.append(request.path, data.source(), size);
    if (appended) return Reply{};
    last = appended.error();
    if (last.kind == Error::Kind::authentication || last.remote_exception == "FileNotFoundException" ||
        last.remote_exception == "AccessControlException") {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500) * attempt);
    auto status = hdfs.status(request.path);
    if (!status) continue;
    if (status->length == request.offset + size) return Reply{};
    if (status->length != request.offset) {
      return failure(Outcome::failed, request.path + " in HDFS is " + std::to_string(status->length) +
                                          " bytes long where its writer had written " + std::to_string(request.offset) +
                                          "; another writer changed it (" + last.message + ")");
    }
  }
  return failure(last);
}

// A new file (offset 0) is one streamed CREATE, made again from the start
// after a failover; more is an append.
Reply write(yarn::WebHdfs& hdfs, const Request& request) {
  const WriteData data(request);
  if (auto problem = data.problem()) return failure(Outcome::invalid, *problem);
  if (request.offset > 0) return append(hdfs, request, data);
  auto written = hdfs.write_restartable(
      request.path, [&data] { return data.source(); }, data.size(), true);
  if (!written) return failure(written.error());
  return Reply{};
}

Reply remove(yarn::WebHdfs& hdfs, const Request& request) {
  auto removed = hdfs.remove(request.path, request.flag);
  if (!removed) return failure(removed.error());
  Reply reply;
  reply.flag = *removed;
  return reply;
}

// Over a file that is there, as POSIX rename does and TensorFlow's writers
// of whole files (write to a temporary name, rename into place) expect.
Reply rename(yarn::WebHdfs& hdfs, const Request& request) {
  auto renamed = hdfs.replace(request.path, request.second_path);
  if (!renamed) return failure(renamed.error());
  return Reply{};
}

void serve_connection(int fd, yarn::WebHdfs hdfs, std::shared_ptr<ReadAhead> ahead) {
  // A connection waits as long as its user does nothing; it is the user's to close.
  constexpr auto idle = std::chrono::hours(24 * 365);
  std::string body;
  std::string error;
  for (;;) {
    const auto outcome = read_frame(fd, body, idle, error);
    if (outcome == ReadOutcome::closed) break;
    if (outcome == ReadOutcome::failed) {
      std::cerr << "spindle hdfs bridge: dropping a connection: " << error << "\n";
      break;
    }
    DecodeError decode_error;
    const auto request = decode_request(body, decode_error);
    const Reply reply =
        request ? answer(hdfs, std::move(*request), ahead.get())
                : failure(Outcome::invalid, "the HDFS bridge could not read a request: " + decode_error.message);
    if (!write_all(fd, encode(reply), error)) break;
    if (!request) break;
  }
  ::close(fd);
}

std::string authority_of(std::string_view uri) {
  const auto start = uri.find("://");
  if (start == std::string_view::npos) return {};
  const auto rest = uri.substr(start + 3);
  return std::string(rest.substr(0, rest.find('/')));
}

std::string host_of(const std::string& authority) {
  return authority.substr(0, authority.rfind(':') == std::string::npos ? authority.size() : authority.rfind(':'));
}

// The path an hdfs:// URI names in this bridge's file system: the cluster's
// default one, named by nothing (hdfs:///x), its nameservice or its
// NameNode. A path already without a scheme is taken as it is.
bool resolve(const yarn::WebHdfs& hdfs, std::string& path, std::string& error) {
  if (path.starts_with("hdfs://")) {
    const std::string authority = authority_of(path);
    const std::string own = authority_of(hdfs.options().default_fs);
    const bool ours = authority.empty() || authority == own || authority == hdfs.options().nameservice ||
                      authority == hdfs.namenode_rpc_address() ||
                      (authority.find(':') == std::string::npos && authority == host_of(own));
    if (!ours) {
      error = "hdfs://" + authority + " is another file system than this cluster's (" + hdfs.options().default_fs +
              "); name paths as hdfs:///path or " + hdfs.options().default_fs + "/path";
      return false;
    }
    path = path.substr(std::string_view("hdfs://").size() + authority.size());
    if (path.empty()) path = "/";
  }
  if (path.empty() || path.front() != '/') {
    error = "the path '" + path + "' is not absolute";
    return false;
  }
  // TensorFlow joins names with '/', so a directory's own trailing one may come doubled.
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return true;
}

Reply dispatch(yarn::WebHdfs& hdfs, const Request& request, ReadAhead* ahead) {
  // What this bridge changes is not served from windows fetched before.
  if (ahead && request.operation != Operation::read && request.operation != Operation::stat &&
      request.operation != Operation::list && request.operation != Operation::hello) {
    ahead->forget(request.path);
    if (request.operation == Operation::rename) ahead->forget(request.second_path);
  }
  switch (request.operation) {
    case Operation::hello: {
      Reply reply;
      reply.message = std::string("spindle hdfs bridge ") + version;
      return reply;
    }
    case Operation::stat: return stat(hdfs, request);
    case Operation::list: return list(hdfs, request);
    case Operation::make_directories: {
      auto made = hdfs.mkdirs(request.path);
      return made ? Reply{} : failure(made.error());
    }
    case Operation::remove: return remove(hdfs, request);
    case Operation::rename: return rename(hdfs, request);
    case Operation::read: return read(hdfs, request, ahead);
    case Operation::write: return write(hdfs, request);
  }
  return failure(Outcome::invalid, "an operation this bridge does not know");
}

}  // namespace

Result<void> transport_keeps_blocks_private(const yarn::HadoopConfiguration& configuration, const yarn::WebHdfs& hdfs) {
  if (!configuration.get_bool("dfs.encrypt.data.transfer", false) || hdfs.options().https) return {};
  return make_error(
      "this cluster encrypts its block transfers (dfs.encrypt.data.transfer is true) but its WebHDFS speaks plain "
      "HTTP, which would carry the blocks in clear; hdfs:// through Spindle needs dfs.http.policy HTTPS_ONLY on "
      "such a cluster (ask its administrators)");
}

Reply answer(yarn::WebHdfs& hdfs, Request request) {
  return answer(hdfs, std::move(request), nullptr);
}

Reply answer(yarn::WebHdfs& hdfs, Request request, ReadAhead* ahead) {
  if (request.operation == Operation::hello) return dispatch(hdfs, request, ahead);
  std::string error;
  if (!resolve(hdfs, request.path, error)) return failure(Outcome::invalid, error);
  if (request.operation == Operation::rename && !resolve(hdfs, request.second_path, error)) {
    return failure(Outcome::invalid, error);
  }
  return dispatch(hdfs, request, ahead);
}

int serve(int control_fd, const yarn::WebHdfs& hdfs) {
  const auto ahead = std::make_shared<ReadAhead>();
  for (;;) {
    std::string error;
    const int connection = receive_descriptor(control_fd, error);
    if (connection < 0) {
      if (error.empty()) return 0;
      std::cerr << "spindle hdfs bridge: " << error << "\n";
      return 1;
    }
    std::thread(serve_connection, connection, hdfs, ahead).detach();
  }
}

}  // namespace spindle::hdfs_bridge

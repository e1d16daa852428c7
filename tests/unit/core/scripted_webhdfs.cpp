#include "scripted_webhdfs.h"

#include "spindle/core/clock.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace spindle::yarn::testing {
namespace {

using json = nlohmann::json;

constexpr const char* nameservice = "spindle-ns";

std::string percent_decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      out.push_back(static_cast<char>(std::strtol(std::string(text.substr(i + 1, 2)).c_str(), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string normalized(std::string path) {
  if (path.empty() || path.front() != '/') path.insert(path.begin(), '/');
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string parent_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

// The prefix of every path below `directory`.
std::string below(const std::string& directory) {
  return directory == "/" ? "/" : directory + "/";
}

// The entries below a directory, which sort together after its path and a slash (not right
// after the path itself: "/a-b" comes between "/a" and "/a/x").
template <typename Nodes>
auto entries_below(Nodes& nodes, const std::string& directory) {
  const auto prefix = below(directory);
  auto first = nodes.lower_bound(prefix);
  if (first != nodes.end() && first->first == directory) ++first;  // the root, its own prefix
  auto last = first;
  while (last != nodes.end() && last->first.starts_with(prefix)) ++last;
  return std::pair{first, last};
}

bool is_child(const std::string& directory, const std::string& path) {
  return path.find('/', below(directory).size()) == std::string::npos;
}

int status_of(const std::string& response) {
  return std::stoi(response.substr(9, 3));
}

std::string reason_of(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 307: return "Temporary Redirect";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    default: return "Error";
  }
}

std::string answer_json(int status, const json& body) {
  return FakeHttpServer::answer(status, reason_of(status), body.dump(), "Content-Type: application/json\r\n");
}

std::string java_class_of(const std::string& exception) {
  if (exception == "FileNotFoundException" || exception == "IOException") return "java.io." + exception;
  if (exception == "IllegalArgumentException") return "java.lang." + exception;
  if (exception == "StandbyException" || exception == "RetriableException") return "org.apache.hadoop.ipc." + exception;
  if (exception == "DSQuotaExceededException" || exception == "NSQuotaExceededException") {
    return "org.apache.hadoop.hdfs.protocol." + exception;
  }
  return "org.apache.hadoop.fs." + exception;
}

// Hadoop's ExceptionHandler: FileNotFoundException is 404, IllegalArgumentException 400, any
// other IOException (StandbyException and the quota ones among them) 403.
std::string remote_exception(const std::string& exception, const std::string& message) {
  const int status = exception == "FileNotFoundException" ? 404 : exception == "IllegalArgumentException" ? 400 : 403;
  return answer_json(status,
                     {{"RemoteException",
                       {{"exception", exception}, {"javaClassName", java_class_of(exception)}, {"message", message}}}});
}

std::string standby(const std::string& category) {
  return remote_exception("StandbyException", "Operation category " + category +
                                                  " is not supported in state standby. "
                                                  "Visit https://s.apache.org/sbnn-error");
}

std::string boolean(bool value) {
  return answer_json(200, {{"boolean", value}});
}

std::string bytes(const std::string& data, std::int64_t offset, std::int64_t length) {
  const auto from = static_cast<std::size_t>(std::clamp<std::int64_t>(offset, 0, std::ssize(data)));
  const auto count = length < 0 ? std::string::npos : static_cast<std::size_t>(length);
  return FakeHttpServer::answer(200, "OK", data.substr(from, count), "Content-Type: application/octet-stream\r\n");
}

}  // namespace

struct ScriptedWebHdfs::Request {
  bool valid = false;
  std::string method;
  std::string target;  // as sent, escaped
  std::string path;    // in HDFS
  std::map<std::string, std::string> query;
  std::string body;

  std::string param(const std::string& key) const {
    const auto found = query.find(key);
    return found == query.end() ? "" : found->second;
  }
  std::int64_t number(const std::string& key, std::int64_t fallback) const {
    const auto value = param(key);
    return value.empty() ? fallback : std::stoll(value);
  }

  static Request parse(const std::string& raw) {
    Request request;
    const auto head_end = raw.find("\r\n\r\n");
    if (head_end == std::string::npos) return request;
    std::istringstream line(raw.substr(0, raw.find("\r\n")));
    line >> request.method >> request.target;
    request.body = raw.substr(head_end + 4);
    constexpr std::string_view prefix = "/webhdfs/v1";
    if (!request.target.starts_with(prefix)) return request;
    const auto question = request.target.find('?');
    request.path = normalized(percent_decoded(request.target.substr(prefix.size(), question - prefix.size())));
    if (question != std::string::npos) {
      std::istringstream parameters(request.target.substr(question + 1));
      for (std::string pair; std::getline(parameters, pair, '&');) {
        const auto equals = pair.find('=');
        if (equals == std::string::npos) continue;
        request.query[pair.substr(0, equals)] = percent_decoded(pair.substr(equals + 1));
      }
    }
    request.valid = !request.method.empty() && request.query.contains("op");
    return request;
  }
};

ScriptedWebHdfs::ScriptedWebHdfs() {
  nodes_["/"] = Node{true, "", tick(), next_id_++};
  std::lock_guard lock(mutex_);
  for (int index = 0; index < 2; ++index) {
    servers_[index] =
        std::make_unique<FakeHttpServer>([this, index](const std::string& raw) { return handle(index, raw); });
    addresses_[index] = servers_[index]->address();
  }
}

ScriptedWebHdfs::~ScriptedWebHdfs() {
  for (auto& server : servers_) server.reset();
}

HadoopConfiguration ScriptedWebHdfs::configuration() const {
  HadoopConfiguration configuration;
  configuration.set("fs.defaultFS", std::string("hdfs://") + nameservice);
  configuration.set("dfs.nameservices", nameservice);
  configuration.set(std::string("dfs.ha.namenodes.") + nameservice, "nn1,nn2");
  std::lock_guard lock(mutex_);
  for (int index = 0; index < 2; ++index) {
    const std::string id = std::string(nameservice) + ".nn" + std::to_string(index + 1);
    configuration.set("dfs.namenode.rpc-address." + id, "127.0.0.1:" + std::to_string(8020 + index));
    configuration.set("dfs.namenode.http-address." + id, addresses_[index]);
  }
  configuration.set("ipc.client.connect.timeout", "2000");
  return configuration;
}

WebHdfs ScriptedWebHdfs::client() const {
  auto hdfs = WebHdfs::for_container(configuration(), "tester", {});
  if (!hdfs) throw std::runtime_error(hdfs.error().message);
  return std::move(*hdfs);
}

std::int64_t ScriptedWebHdfs::tick() {
  // Strictly increasing, so that two versions of a file never share a modification time.
  clock_ = std::max(clock_ + 1, wall_clock_ms());
  return clock_;
}

void ScriptedWebHdfs::store(const std::string& path, const std::string& data) {
  nodes_[path] = Node{false, data, tick(), next_id_++};
  versions_[path].push_back(data);
}

std::string ScriptedWebHdfs::make_parents(const std::string& path) {
  std::vector<std::string> missing;
  for (std::string parent = parent_of(path); parent != "/"; parent = parent_of(parent)) {
    const auto found = nodes_.find(parent);
    if (found == nodes_.end()) {
      missing.push_back(parent);
    } else if (!found->second.directory) {
      return remote_exception("ParentNotDirectoryException", parent + " (is not a directory)");
    }
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) nodes_[*it] = Node{true, "", tick(), next_id_++};
  return "";
}

std::string ScriptedWebHdfs::status_json(const std::string& path, const Node& node, const std::string& suffix) const {
  std::int64_t children = 0;
  if (node.directory) {
    const auto [first, last] = entries_below(nodes_, path);
    children = std::count_if(first, last, [&](const auto& entry) { return is_child(path, entry.first); });
  }
  return json{{"accessTime", node.directory ? 0 : node.modification_time},
              {"blockSize", node.directory ? 0 : 134217728},
              {"childrenNum", children},
              {"fileId", node.id},
              {"group", "supergroup"},
              {"length", node.directory ? 0 : std::ssize(node.data)},
              {"modificationTime", node.modification_time},
              {"owner", "tester"},
              {"pathSuffix", suffix},
              {"permission", node.directory ? "755" : "644"},
              {"replication", node.directory ? 0 : 1},
              {"storagePolicy", 0},
              {"type", node.directory ? "DIRECTORY" : "FILE"}}
      .dump();
}

std::string ScriptedWebHdfs::handle(int namenode, const std::string& raw) {
  const Request request = Request::parse(raw);
  std::lock_guard lock(mutex_);
  Operation operation;
  operation.namenode = namenode;
  operation.datanode = request.query.contains("namenoderpcaddress");
  operation.method = request.method;
  operation.op = request.param("op");
  operation.path = request.path;
  std::string response;
  if (!request.valid) {
    response = remote_exception("IllegalArgumentException", "not a WebHDFS request: " + request.target);
  } else if (operation.datanode) {
    response = answer_datanode(request, operation);
  } else if (namenode != active_) {
    response = standby(request.method == "GET" ? "READ" : "WRITE");
  } else {
    response = answer_namenode(namenode, request, operation);
  }
  operation.status = status_of(response);
  operations_.push_back(std::move(operation));
  return response;
}

std::string ScriptedWebHdfs::answer_namenode(int namenode, const Request& request, Operation& operation) {
  const std::string& path = request.path;
  const auto found = nodes_.find(path);
  const std::string& op = operation.op;
  // CREATE and OPEN go on at a DataNode that the NameNode picks; here, the same server.
  const std::string datanode = "http://" + addresses_[namenode] + request.target + "&namenoderpcaddress=" + nameservice;

  if (request.method == "GET" && op == "GETFILESTATUS") {
    if (found == nodes_.end()) return remote_exception("FileNotFoundException", "File does not exist: " + path);
    return FakeHttpServer::answer(200, "OK", R"({"FileStatus":)" + status_json(path, found->second, "") + "}",
                                  "Content-Type: application/json\r\n");
  }
  if (request.method == "GET" && op == "LISTSTATUS") {
    if (found == nodes_.end()) return remote_exception("FileNotFoundException", "File " + path + " does not exist.");
    std::string entries;
    const auto add = [&](const std::string& entry_path, const Node& node, const std::string& suffix) {
      entries += (entries.empty() ? "" : ",") + status_json(entry_path, node, suffix);
    };
    if (!found->second.directory) {
      add(path, found->second, "");
    } else {
      const auto [first, last] = entries_below(nodes_, path);
      for (auto it = first; it != last; ++it) {
        if (is_child(path, it->first)) add(it->first, it->second, it->first.substr(below(path).size()));
      }
    }
    return FakeHttpServer::answer(200, "OK", R"({"FileStatuses":{"FileStatus":[)" + entries + "]}}",
                                  "Content-Type: application/json\r\n");
  }
  if (request.method == "GET" && op == "OPEN") {
    if (found == nodes_.end()) return remote_exception("FileNotFoundException", "File does not exist: " + path);
    if (found->second.directory) return remote_exception("FileNotFoundException", "Path is not a file: " + path);
    if (open_directly_) return bytes(found->second.data, request.number("offset", 0), request.number("length", -1));
    return FakeHttpServer::answer(307, "Temporary Redirect", "", "Location: " + datanode + "\r\n");
  }
  if (request.method == "PUT" && op == "MKDIRS") {
    if (found != nodes_.end()) {
      if (!found->second.directory) {
        return remote_exception("FileAlreadyExistsException", "Path is not a directory: " + path);
      }
      return boolean(true);
    }
    if (auto refused = make_parents(path); !refused.empty()) return refused;
    nodes_[path] = Node{true, "", tick(), next_id_++};
    return boolean(true);
  }
  if (request.method == "PUT" && op == "CREATE") {
    return FakeHttpServer::answer(307, "Temporary Redirect", "",
                                  "Location: " + datanode + "&createflag=&createparent=true\r\n");
  }
  if (request.method == "DELETE" && op == "DELETE") {
    if (found == nodes_.end() || path == "/") return boolean(false);
    const auto [first, last] = entries_below(nodes_, path);
    if (first != last && request.param("recursive") != "true") {
      return remote_exception("PathIsNotEmptyDirectoryException",
                              "`" + path + " is non empty': Directory is not empty");
    }
    nodes_.erase(first, last);
    nodes_.erase(path);
    return boolean(true);
  }
  if (request.method == "PUT" && op == "RENAME") {
    operation.destination = normalized(request.param("destination"));
    operation.rename_options = request.param("renameoptions");
    if (request.param("destination").empty()) {
      return remote_exception("IllegalArgumentException", "Required param destination for op: RENAME is null or empty");
    }
    std::string destination = operation.destination;
    const bool with_options = !operation.rename_options.empty();
    const bool overwrite = operation.rename_options.find("OVERWRITE") != std::string::npos;
    // Without options (FileSystem#rename) a failure is {"boolean":false}; with them
    // (FileContext#rename, "rename2") it is an exception, and success has no body.
    const auto refuse = [&](const std::string& exception, const std::string& message) {
      return with_options ? remote_exception(exception, message) : boolean(false);
    };
    if (found == nodes_.end()) return refuse("FileNotFoundException", "rename source " + path + " is not found.");
    if (destination == path) {
      return refuse("FileAlreadyExistsException",
                    "The source " + path + " and destination " + destination + " are the same");
    }
    if (destination.starts_with(below(path))) {
      return refuse("IOException",
                    "Rename destination " + destination + " is a directory or file under source " + path);
    }
    auto target = nodes_.find(destination);
    if (!with_options && target != nodes_.end() && target->second.directory) {
      destination = below(destination) + base_name(path);
      target = nodes_.find(destination);
    }
    const auto parent = nodes_.find(parent_of(destination));
    if (parent == nodes_.end()) {
      return refuse("FileNotFoundException", "rename destination parent " + parent_of(destination) + " not found.");
    }
    if (!parent->second.directory) {
      return refuse("ParentNotDirectoryException", "rename destination parent " + parent->first + " is a file.");
    }
    if (target != nodes_.end()) {
      if (!overwrite)
        return refuse("FileAlreadyExistsException", "rename destination " + destination + " already exists.");
      if (target->second.directory != found->second.directory) {
        return refuse("IOException", "Source " + path + " and destination " + destination + " must both be " +
                                         (found->second.directory ? "directories" : "files"));
      }
      if (target->second.directory) {
        if (const auto [first, last] = entries_below(nodes_, destination); first != last) {
          return refuse("IOException", "rename destination directory is not empty: " + destination);
        }
      }
      nodes_.erase(target);
    }
    // The file or the whole tree moves, keeping its modification times.
    std::vector<std::pair<std::string, Node>> moved;
    moved.emplace_back(path, found->second);
    const auto [first, last] = entries_below(nodes_, path);
    moved.insert(moved.end(), first, last);
    for (const auto& [from, node] : moved) nodes_.erase(from);
    for (auto& [from, node] : moved) {
      const std::string to = destination + from.substr(path.size());
      if (!node.directory) versions_[to].push_back(node.data);
      nodes_[to] = std::move(node);
    }
    if (with_options) return FakeHttpServer::answer(200, "OK", "", "Content-Type: application/octet-stream\r\n");
    return boolean(true);
  }
  return remote_exception(
      "IllegalArgumentException",
      "Invalid value for webhdfs parameter \"op\": No enum constant for " + op + " (" + request.method + ")");
}

std::string ScriptedWebHdfs::answer_datanode(const Request& request, Operation& operation) {
  const std::string& path = request.path;
  // A DataNode reaches HDFS through the active NameNode, like any client.
  if (active_ < 0) return standby(request.method == "GET" ? "READ" : "WRITE");
  if (request.method == "PUT" && operation.op == "CREATE") {
    const auto found = nodes_.find(path);
    if (found != nodes_.end() && found->second.directory) {
      return remote_exception("FileAlreadyExistsException", path + " already exists as a directory");
    }
    if (found != nodes_.end() && request.param("overwrite") != "true") {
      return remote_exception("FileAlreadyExistsException", path + " for client 127.0.0.1 already exists");
    }
    if (auto refused = make_parents(path); !refused.empty()) return refused;
    if (refusals_left_ > 0) {
      // The file exists by now, holding what came before the failure.
      --refusals_left_;
      store(path, request.body.substr(0, request.body.size() / 2));
      return remote_exception(refusal_exception_, refusal_message_);
    }
    store(path, request.body);
    return FakeHttpServer::answer(201, "Created", "", "Location: hdfs://" + std::string(nameservice) + path + "\r\n");
  }
  if (request.method == "GET" && operation.op == "OPEN") {
    const auto found = nodes_.find(path);
    if (found == nodes_.end() || found->second.directory) {
      return remote_exception("FileNotFoundException", "File does not exist: " + path);
    }
    return bytes(found->second.data, request.number("offset", 0), request.number("length", -1));
  }
  return remote_exception("IllegalArgumentException", "Invalid operation " + operation.op + " at a DataNode");
}

void ScriptedWebHdfs::put(const std::string& path, const std::string& content) {
  std::lock_guard lock(mutex_);
  const auto where = normalized(path);
  (void)make_parents(where);
  store(where, content);
}

void ScriptedWebHdfs::remove(const std::string& path) {
  std::lock_guard lock(mutex_);
  nodes_.erase(normalized(path));
}

std::optional<std::string> ScriptedWebHdfs::content(const std::string& path) const {
  std::lock_guard lock(mutex_);
  const auto found = nodes_.find(normalized(path));
  if (found == nodes_.end() || found->second.directory) return std::nullopt;
  return found->second.data;
}

bool ScriptedWebHdfs::is_directory(const std::string& path) const {
  std::lock_guard lock(mutex_);
  const auto found = nodes_.find(normalized(path));
  return found != nodes_.end() && found->second.directory;
}

std::map<std::string, std::string> ScriptedWebHdfs::files(const std::string& directory) const {
  std::lock_guard lock(mutex_);
  const auto prefix = below(normalized(directory));
  std::map<std::string, std::string> found;
  for (auto it = nodes_.lower_bound(prefix); it != nodes_.end() && it->first.starts_with(prefix); ++it) {
    if (!it->second.directory) found.emplace(it->first.substr(prefix.size()), it->second.data);
  }
  return found;
}

std::vector<std::string> ScriptedWebHdfs::versions(const std::string& path) const {
  std::lock_guard lock(mutex_);
  const auto found = versions_.find(normalized(path));
  return found == versions_.end() ? std::vector<std::string>{} : found->second;
}

std::vector<ScriptedWebHdfs::Operation> ScriptedWebHdfs::operations() const {
  std::lock_guard lock(mutex_);
  return operations_;
}

void ScriptedWebHdfs::make_active(int namenode) {
  std::lock_guard lock(mutex_);
  active_ = namenode;
}

void ScriptedWebHdfs::refuse_transfers(int count, const std::string& exception, const std::string& message) {
  std::lock_guard lock(mutex_);
  refusals_left_ = count;
  refusal_exception_ = exception;
  refusal_message_ = message;
}

void ScriptedWebHdfs::answer_open_directly(bool directly) {
  std::lock_guard lock(mutex_);
  open_directly_ = directly;
}

}  // namespace spindle::yarn::testing

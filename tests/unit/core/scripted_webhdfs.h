#pragma once

// An HDFS in memory behind WebHDFS as Hadoop's NameNodes and DataNodes speak
// it, for offline tests of what talks to HDFS: an HA pair of NameNodes (one
// active, the other refusing as a standby), each redirecting CREATE and OPEN
// to a DataNode path on its own server. Every request is recorded in order,
// and faults can be injected: DataNode transfers refused, no NameNode active,
// OPEN answered by the NameNode itself.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "../yarnclient/fake_http_server.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::yarn::testing {

class ScriptedWebHdfs {
 public:
  struct Operation {
    int namenode = 0;       // index of the server that answered: 0 (nn1) or 1 (nn2)
    bool datanode = false;  // the DataNode leg of CREATE or OPEN
    std::string method;
    std::string op;  // as in the request: CREATE, RENAME, LISTSTATUS...
    std::string path;
    std::string destination;     // RENAME
    std::string rename_options;  // RENAME: "OVERWRITE" or empty
    int status = 0;
  };

  ScriptedWebHdfs();
  ~ScriptedWebHdfs();
  ScriptedWebHdfs(const ScriptedWebHdfs&) = delete;
  ScriptedWebHdfs& operator=(const ScriptedWebHdfs&) = delete;

  // fs.defaultFS hdfs://spindle-ns, whose NameNodes nn1 and nn2 are these servers.
  HadoopConfiguration configuration() const;
  // As the task executor makes it: from the configuration, as a user the cluster trusts by name.
  WebHdfs client() const;

  // A file written by someone else, its parent directories made as needed.
  void put(const std::string& path, const std::string& content);
  void remove(const std::string& path);
  std::optional<std::string> content(const std::string& path) const;
  bool is_directory(const std::string& path) const;
  // Every file below `directory`, by path relative to it.
  std::map<std::string, std::string> files(const std::string& directory) const;
  // Each content that `path` has had, oldest first: what readers of the path could have seen.
  std::vector<std::string> versions(const std::string& path) const;
  std::vector<Operation> operations() const;

  // 0 or 1; -1 for none, as while both are standby or down.
  void make_active(int namenode);
  // The next `count` DataNode transfers are answered 403 with this RemoteException after
  // part of the data was written, as when the NameNode fails over under the DataNode.
  void refuse_transfers(int count, const std::string& exception, const std::string& message);
  // The NameNode answers OPEN with the data (200) instead of redirecting (307).
  void answer_open_directly(bool directly);

 private:
  struct Node {
    bool directory = false;
    std::string data;
    std::int64_t modification_time = 0;
    std::int64_t id = 0;  // Hadoop's fileId
  };
  struct Request;

  std::string handle(int namenode, const std::string& raw);
  std::string answer_namenode(int namenode, const Request& request, Operation& operation);
  std::string answer_datanode(const Request& request, Operation& operation);
  std::string status_json(const std::string& path, const Node& node, const std::string& suffix) const;
  std::string make_parents(const std::string& path);  // an error answer, or empty
  std::int64_t tick();
  void store(const std::string& path, const std::string& data);

  mutable std::mutex mutex_;
  std::map<std::string, Node> nodes_;  // by absolute path; "/" is the root
  std::map<std::string, std::vector<std::string>> versions_;
  std::vector<Operation> operations_;
  std::int64_t clock_ = 0;
  std::int64_t next_id_ = 16385;  // the root's, as in a new HDFS
  int active_ = 0;
  int refusals_left_ = 0;
  std::string refusal_exception_, refusal_message_;
  bool open_directly_ = false;
  std::string addresses_[2];
  // Last, so that they stop before the state they answer from goes.
  std::unique_ptr<FakeHttpServer> servers_[2];
};

}  // namespace spindle::yarn::testing

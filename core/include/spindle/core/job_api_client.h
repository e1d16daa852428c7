#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spindle/core/cluster_spec.h"
#include "spindle/core/event_log.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/result.h"

namespace spindle {

// A cluster as the job API hands it out.
struct PublishedCluster {
  std::uint64_t version = 0;
  std::string cluster_json;              // the training cluster, as TF_CONFIG carries it
  std::map<TaskId, HostPort> addresses;  // every task's
  std::string ending;                    // why the job ends, once its end is decided; else empty
};

// A client of the job API (task executors, the CLI, the GUI): one
// kept-alive connection, reopened when it breaks. Header-only Boost
// underneath, so executors link statically. Not thread-safe: one per thread.
class JobApiClient {
 public:
  JobApiClient(std::string host, std::uint16_t port, std::string secret,
               std::chrono::milliseconds timeout = std::chrono::seconds(30));
  ~JobApiClient();

  Result<void> register_task(const TaskId& task, const HostPort& address, const std::string& container,
                             const Reattachment& reattachment = {});
  // The cluster newer than `after`, waiting up to `wait`; nothing if none
  // came. Asks for it compressed, and names `after` as the version it holds
  // so that an unchanged cluster costs only a 304.
  Result<std::optional<PublishedCluster>> cluster_after(std::uint64_t after, std::chrono::milliseconds wait);
  Result<void> heartbeat(const TaskId& task, const TaskHeartbeat& heartbeat);
  Result<void> report_result(const TaskId& task, const TaskResult& result);

  // The job and its tasks as JSON (see `status --json` in docs/cli.md).
  Result<std::string> status_json();
  // Events after `after`, waiting up to `wait` for the first; empty when none came.
  Result<std::vector<JobEvent>> events_after(std::uint64_t after, std::chrono::milliseconds wait);

  // The job's tokens of a generation past `after` (Hadoop's token storage
  // format) with that generation, waiting up to `wait`; nothing if none came.
  Result<std::optional<std::pair<std::uint64_t, std::string>>> tokens_after(std::uint64_t after,
                                                                            std::chrono::milliseconds wait);

  std::string address() const { return host_ + ":" + std::to_string(port_); }

  // From now on, speak TLS and accept only the server whose certificate has
  // this SHA-256 (the job's, see job_certificate.h); empty: clear HTTP.
  void pin_certificate(std::string sha256);

 private:
  struct Connection;
  struct Answer {
    int status = 0;
    std::string body;
    std::string coding;  // "gzip" or "zstd" as asked for with Accept-Encoding; empty for plain
  };
  using Headers = std::vector<std::pair<std::string, std::string>>;
  Result<Answer> exchange(const std::string& method, const std::string& target, const std::string& body,
                          std::chrono::milliseconds timeout, const Headers& headers = {});

  std::string host_;
  std::uint16_t port_;
  std::string secret_;
  std::chrono::milliseconds timeout_;
  std::string pinned_sha256_;
  std::unique_ptr<Connection> connection_;
};

}  // namespace spindle

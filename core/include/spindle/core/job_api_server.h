#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "spindle/core/event_log.h"
#include "spindle/core/job_status.h"
#include "spindle/core/rendezvous.h"
#include "spindle/core/result.h"
#include "spindle/core/token_shelf.h"

namespace spindle {

struct JobApiOptions {
  std::string bind_address = "0.0.0.0";
  std::uint16_t port = 0;  // 0: any free port
  std::string secret;      // every request must carry it in X-Spindle-Secret
  std::size_t max_request_bytes = 64 * 1024;
  std::chrono::milliseconds longest_wait{60'000};  // cap on a long poll
  int threads = 1;
  // The job's certificate and key (PEM): with both, the API speaks only
  // TLS, and a client that does not is never answered.
  std::string tls_certificate_pem;
  std::string tls_key_pem;
};

// What a task executor reports while its command runs.
struct TaskHeartbeat {
  std::string container;
  std::uint64_t rss_bytes = 0;
  double cpu_seconds = 0;
  int processes = 0;
  // What it wrote so far (see TaskWrites): unchanged for stall_timeout, with
  // almost no CPU used meanwhile, the task is stalled.
  std::uint64_t log_bytes = 0;
  std::uint64_t output_fingerprint = 0;
  std::uint64_t cluster_version = 0;  // the newest cluster the task has seen
  // The pin of the certificate the task's server presents behind TLS
  // (TensorBoard on an encrypted cluster), 64 hex digits; empty in clear.
  std::string certificate_sha256{};
};

// How a task's command ended, as its executor saw it.
struct TaskResult {
  std::string container;
  int exit_code = 0;        // the shell's code: 128 + N when killed by signal N
  std::string description;  // "exited with 3", "killed by SIGKILL"
  std::string stderr_tail;
};

// What an executor started under an earlier application master attempt
// tells the attempt that replaced it, so that the new one adopts the task
// where it stands instead of starting it again.
struct Reattachment {
  bool present = false;               // false for a first registration
  int restarts = 0;                   // restarts the task had spent from its budget
  int lost = 0;                       // and those that cost nothing (preemption, node loss)
  std::uint64_t cluster_version = 0;  // the newest cluster the task has seen
  bool command_ended = false;         // its command has ended; its result follows
};

// The application master's answers beyond the rendezvous. Called from the
// API's threads.
class JobApiBackend {
 public:
  virtual ~JobApiBackend() = default;
  // Checks the task against the container it runs in, then registers it
  // with the rendezvous.
  virtual Result<void> register_task(const TaskId& task, const HostPort& address, const std::string& container,
                                     const Reattachment& reattachment) = 0;
  virtual Result<void> heartbeat(const TaskId& task, const TaskHeartbeat& heartbeat) = 0;
  virtual Result<void> result(const TaskId& task, const TaskResult& result) = 0;
  // The job with the tasks the selection lists (GET /v1/status, the job's page).
  virtual JobStatus status(const TaskSelection& selection) = 0;
  virtual EventLog& events() = 0;
  // The job's newest tokens, when its application master refreshes them.
  virtual TokenShelf* tokens() { return nullptr; }
};

// The application master's HTTP/1.1 API for task executors, the CLI and the GUI:
//   PUT /v1/tasks/<type>/<index>   {"host", "port", "container"}  register
//       (plus "reattach": {"restarts", "lost", "cluster_version",
//       "command_ended"} from an executor of an earlier attempt)
//   GET /v1/cluster?after=N&wait_ms=M                             the cluster
//       spec newer than version N, waiting up to M ms (204 when none came).
//       Its ETag is "<version>"; If-None-Match with it waits past that
//       version and answers 304 when none came. With Accept-Encoding: gzip
//       the answer is gzip; without it, plain JSON.
//   POST /v1/tasks/<type>/<index>/heartbeat  TaskHeartbeat as JSON
//   POST /v1/tasks/<type>/<index>/result     TaskResult as JSON
//   GET /v1/status                           the job and every task
//   GET /v1/events?after=N&wait_ms=M         events after N (long poll)
//   GET /v1/tokens?after=N&wait_ms=M         the job's tokens of a generation
//       past N, {"generation", "credentials": base64}, waiting up to M ms
//       (204 when none came); only where the backend shelves tokens
// The last five need a backend; without one they answer 404.
// Requests without the job's secret get 401 and change nothing.
class JobApiServer {
 public:
  static Result<std::unique_ptr<JobApiServer>> start(Rendezvous& rendezvous, JobApiOptions options,
                                                     JobApiBackend* backend = nullptr);
  virtual ~JobApiServer() = default;
  virtual std::uint16_t port() const = 0;
  // Stops accepting, closes every connection and joins the threads.
  virtual void stop() = 0;
};

}  // namespace spindle

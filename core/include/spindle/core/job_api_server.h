#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "spindle/core/rendezvous.h"
#include "spindle/core/result.h"

namespace spindle {

struct JobApiOptions {
  std::string bind_address = "0.0.0.0";
  std::uint16_t port = 0;  // 0: any free port
  std::string secret;      // every request must carry it in X-Spindle-Secret
  std::size_t max_request_bytes = 64 * 1024;
  std::chrono::milliseconds longest_wait{60'000};  // cap on a long poll
  int threads = 1;
};

// The application master's HTTP/1.1 API for task executors:
//   PUT /v1/tasks/<type>/<index>   {"host", "port", "container"}  register
//   GET /v1/cluster?after=N&wait_ms=M                             the cluster
//       spec newer than version N, waiting up to M ms (204 when none came)
// Requests without the job's secret get 401 and change nothing.
class JobApiServer {
 public:
  static Result<std::unique_ptr<JobApiServer>> start(Rendezvous& rendezvous, JobApiOptions options);
  virtual ~JobApiServer() = default;
  virtual std::uint16_t port() const = 0;
  // Stops accepting, closes every connection and joins the threads.
  virtual void stop() = 0;
};

}  // namespace spindle

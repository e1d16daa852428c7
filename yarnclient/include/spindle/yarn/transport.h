#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle::yarn {

// Why an I/O operation did not complete.
struct IoError {
  enum class Kind { timed_out, closed, failed };
  Kind kind = Kind::failed;
  std::string message;
};

// A byte stream to one server. The RPC client talks through this interface so
// that tests can script what a server sends (split frames, resets, errors).
class Transport {
 public:
  virtual ~Transport() = default;
  virtual Result<void, IoError> write_all(std::string_view bytes) = 0;
  // Some bytes (at least one), or timed_out after `timeout` with nothing read.
  virtual Result<std::string, IoError> read_some(std::chrono::milliseconds timeout) = 0;
  // Ends the stream; a read blocked elsewhere returns `closed`.
  virtual void shutdown() = 0;
};

using TransportFactory = std::function<Result<std::unique_ptr<Transport>>(const std::string& host, std::uint16_t port,
                                                                          std::chrono::milliseconds connect_timeout)>;

// TCP with TCP_NODELAY; the connect gives up after `connect_timeout`.
Result<std::unique_ptr<Transport>> connect_tcp(const std::string& host, std::uint16_t port,
                                               std::chrono::milliseconds connect_timeout);

}  // namespace spindle::yarn

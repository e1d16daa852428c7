#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "spindle/core/result.h"

namespace spindle {

// TLS on a task's advertised port in front of a server of the task that
// speaks clear HTTP on the loopback only (TensorBoard): on an encrypted
// cluster, nothing of it crosses the network in clear. Every connection is
// relayed byte for byte on a thread of its own event loop.
class TlsFront {
 public:
  // Listens on every interface at `public_port` before it returns (the port
  // may be held by a PortReservation: both set SO_REUSEADDR) and relays to
  // 127.0.0.1:`loopback_port`.
  static Result<std::unique_ptr<TlsFront>> start(std::uint16_t public_port, std::uint16_t loopback_port,
                                                 const std::string& certificate_pem, const std::string& key_pem);
  virtual ~TlsFront() = default;
  // Connections relayed so far, for tests and logs.
  virtual std::uint64_t connections() const = 0;
};

}  // namespace spindle

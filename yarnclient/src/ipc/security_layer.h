#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/rpc_protection.h"

namespace spindle::yarn::ipc {

// What a SASL mechanism negotiated beyond the login: every byte of the
// connection afterwards goes through wrap on its way out and unwrap on its
// way in. Each direction has its own sequence, so one thread may wrap while
// another unwraps, but neither may be called concurrently with itself.
class SecurityLayer {
 public:
  virtual ~SecurityLayer() = default;
  virtual RpcProtection protection() const = 0;
  // The largest piece of the byte stream one wrap may seal, as the peer's
  // buffer allows.
  virtual std::size_t max_plain_bytes() const = 0;
  virtual Result<std::string> wrap(std::string_view plain) = 0;
  // An error for a token that fails its check (tampered, replayed, out of
  // order): such a token is never taken as data.
  virtual Result<std::string> unwrap(std::string_view sealed) = 0;
};

// The strongest protection both the client's list and the server's offer
// allow, or nothing.
std::optional<RpcProtection> strongest_common(const std::vector<RpcProtection>& allowed,
                                              const std::vector<RpcProtection>& offered);

// "integrity or privacy" style names of a list, for sentences.
std::string describe_protections(const std::vector<RpcProtection>& protections);

// The sentence for a server that allows none of what the client does.
Error no_common_protection(std::string_view server, const std::vector<RpcProtection>& offered,
                           const std::vector<RpcProtection>& allowed);

}  // namespace spindle::yarn::ipc

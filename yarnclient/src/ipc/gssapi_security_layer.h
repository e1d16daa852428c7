#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/rpc_protection.h"

namespace spindle::yarn::ipc {

// RFC 4752's last GSSAPI step: once the Kerberos context stands, the server
// offers security layers in a wrapped 4-byte message (a bit mask, then the
// largest message it takes), and the client answers with its choice.
inline constexpr std::uint8_t security_layer_none = 1;
inline constexpr std::uint8_t security_layer_integrity = 2;
inline constexpr std::uint8_t security_layer_confidentiality = 4;

struct SecurityLayerOffer {
  std::uint8_t layers = 0;  // bit mask of the security_layer_* values
  std::uint32_t max_message_size = 0;
};

// The server's offer, already unwrapped.
Result<SecurityLayerOffer> parse_security_layer_offer(std::string_view unwrapped, std::string_view server);

struct SecurityLayerChoice {
  RpcProtection protection = RpcProtection::authentication;
  std::string answer;  // to be wrapped before it is sent
};

// The strongest layer both the offer and `allowed` (hadoop.rpc.protection)
// name, with the answer that says so and the largest sealed message this
// client takes; a sentence when they share none.
Result<SecurityLayerChoice> choose_security_layer(const SecurityLayerOffer& offer,
                                                  const std::vector<RpcProtection>& allowed, std::string_view server);

}  // namespace spindle::yarn::ipc

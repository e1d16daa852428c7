#include "ipc/gssapi_security_layer.h"

#include "ipc/security_layer.h"

namespace spindle::yarn::ipc {

namespace {
// The largest sealed message this client says it takes, as Java's clients
// say; Hadoop's servers seal each answer whole, whatever its size, and this
// client takes any size.
constexpr std::uint32_t client_max_message = 65536;
}  // namespace

Result<SecurityLayerOffer> parse_security_layer_offer(std::string_view unwrapped, std::string_view server) {
  if (unwrapped.size() != 4) {
    return make_error(std::string(server) + " sent a Kerberos security-layer offer of " +
                      std::to_string(unwrapped.size()) + " bytes instead of 4; it does not speak SASL GSSAPI");
  }
  const auto byte = [&](std::size_t index) { return static_cast<std::uint8_t>(unwrapped[index]); };
  SecurityLayerOffer offer;
  offer.layers = byte(0);
  offer.max_message_size = (std::uint32_t{byte(1)} << 16) | (std::uint32_t{byte(2)} << 8) | byte(3);
  return offer;
}

Result<SecurityLayerChoice> choose_security_layer(const SecurityLayerOffer& offer,
                                                  const std::vector<RpcProtection>& allowed, std::string_view server) {
  std::vector<RpcProtection> offered;
  if (offer.layers & security_layer_none) offered.push_back(RpcProtection::authentication);
  if (offer.layers & security_layer_integrity) offered.push_back(RpcProtection::integrity);
  if (offer.layers & security_layer_confidentiality) offered.push_back(RpcProtection::privacy);
  const auto chosen = strongest_common(allowed, offered);
  if (!chosen) return no_common_protection(server, offered, allowed);
  SecurityLayerChoice choice;
  choice.protection = *chosen;
  if (*chosen == RpcProtection::authentication) {
    // No layer, so no buffer size (RFC 4752 asks for zero), and no
    // authorization id: the server takes the authenticated principal.
    choice.answer = std::string{static_cast<char>(security_layer_none), '\0', '\0', '\0'};
    return choice;
  }
  const auto bit = *chosen == RpcProtection::privacy ? security_layer_confidentiality : security_layer_integrity;
  choice.answer =
      std::string{static_cast<char>(bit), static_cast<char>(client_max_message >> 16),
                  static_cast<char>((client_max_message >> 8) & 0xFF), static_cast<char>(client_max_message & 0xFF)};
  return choice;
}

}  // namespace spindle::yarn::ipc

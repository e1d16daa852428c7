#include "ipc/gssapi_security_layer.h"

namespace spindle::yarn::ipc {

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

Result<std::string> no_security_layer_answer(const SecurityLayerOffer& offer, std::string_view server) {
  if (!(offer.layers & security_layer_none)) {
    const bool privacy = offer.layers & security_layer_confidentiality;
    return authentication_error(std::string(server) + " requires RPC " + (privacy ? "privacy" : "integrity") +
                                " (hadoop.rpc.protection=" + (privacy ? "privacy" : "integrity") +
                                "), which Spindle does not support; Spindle needs the cluster to allow "
                                "hadoop.rpc.protection=authentication");
  }
  // No layer, so no buffer size (RFC 4752 asks for zero), and no
  // authorization id: the server takes the authenticated principal.
  return std::string{static_cast<char>(security_layer_none), '\0', '\0', '\0'};
}

}  // namespace spindle::yarn::ipc

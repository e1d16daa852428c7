#pragma once

#include <cstdint>
#include <memory>

#include "ipc/gss_handles.h"
#include "ipc/security_layer.h"

namespace spindle::yarn::ipc {

// SASL GSSAPI's integrity or privacy layer: Kerberos' own wrap tokens over
// the established context, which the layer takes over. `peer_max_message`
// is the largest sealed message the server said it takes.
std::unique_ptr<SecurityLayer> gss_wrap_layer(std::unique_ptr<GssContext> context, RpcProtection protection,
                                              std::uint32_t peer_max_message);

}  // namespace spindle::yarn::ipc

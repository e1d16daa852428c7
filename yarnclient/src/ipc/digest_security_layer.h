#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "ipc/security_layer.h"

namespace spindle::yarn::ipc {

// Which end of the connection a layer serves: each direction has its own keys.
enum class DigestRole { client, server };

// DIGEST-MD5's security layers (RFC 2831, 2.3 and 2.4) over the session's
// H(A1): integrity seals each message with a truncated HMAC-MD5 and a
// sequence number; privacy also encrypts it with "3des" (two-key triple DES
// in CBC mode, the chain running on from message to message). `ha1` is the
// 16 raw bytes of H(A1); `peer_max_buffer` is the "maxbuf" the other end
// named, which bounds what one wrap may send it.
Result<std::unique_ptr<SecurityLayer>> digest_security_layer(const std::string& ha1, RpcProtection protection,
                                                             DigestRole role, std::size_t peer_max_buffer);

}  // namespace spindle::yarn::ipc

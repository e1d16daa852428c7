// Any answers a server can send once a DIGEST-MD5 security layer stands:
// raw bytes must never get through as an answer (they cannot carry a valid
// seal), and bytes the real server end sealed must always unseal, whatever
// answers they hold and however they are cut; a sealed message with one
// byte changed must be refused. Never a crash.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ipc/digest_security_layer.h"
#include "ipc/frame_codec.h"
#include "ipc/incoming_frames.h"

namespace {

namespace ipc = spindle::yarn::ipc;
using spindle::yarn::RpcProtection;

std::string wrap_frame(const std::string& token) {
  spindle::wire::hadoop::RpcResponseHeader header;
  header.set_call_id(static_cast<std::uint32_t>(ipc::sasl_call_id));
  header.set_status(spindle::wire::hadoop::RpcResponseHeader::SUCCESS);
  spindle::wire::hadoop::RpcSasl wrap;
  wrap.set_state(spindle::wire::hadoop::RpcSasl::WRAP);
  wrap.set_token(token);
  return ipc::encode_frame({&header, &wrap});
}

bool is_seal_failure(const std::string& message) {
  return message.find("integrity check") != std::string::npos || message.find("sequence number") != std::string::npos ||
         message.find("too short") != std::string::npos || message.find("unknown type") != std::string::npos ||
         message.find("cipher blocks") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto mode = data[0];
  const auto protection = (mode & 1) ? RpcProtection::privacy : RpcProtection::integrity;
  const bool sealed_by_server = mode & 2;
  const bool tamper = mode & 4;
  const std::string key(16, '\x33');
  auto client = ipc::digest_security_layer(key, protection, ipc::DigestRole::client, 65536);
  auto server = ipc::digest_security_layer(key, protection, ipc::DigestRole::server, 65536);
  if (!client || !server) std::abort();
  ipc::IncomingFrames incoming("fuzz", 1 << 20);
  incoming.seal_with(client->get());
  int delivered = 0;
  auto deliver = [&](ipc::ResponseFrame) { ++delivered; };

  // The rest: pieces, each preceded by its length in one byte.
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  while (!rest.empty()) {
    const auto length = std::min<std::size_t>(static_cast<unsigned char>(rest.front()), rest.size() - 1);
    const std::string piece(rest.substr(1, length));
    rest.remove_prefix(1 + length);
    if (!sealed_by_server) {
      auto taken = incoming.take(piece, deliver);
      if (delivered > 0) std::abort();  // raw bytes passed for a sealed answer
      if (!taken) return 0;
      continue;
    }
    if (piece.empty()) continue;
    auto token = (*server)->wrap(piece);
    if (!token) std::abort();
    std::string frame = wrap_frame(*token);
    if (tamper) {
      // One byte of the seal itself, past the frame's headers.
      const auto at = frame.size() - 1 - (static_cast<unsigned char>(piece[0]) % token->size());
      frame[at] = static_cast<char>(frame[at] ^ 0x20);
    }
    auto taken = incoming.take(frame, deliver);
    if (tamper) {
      if (taken || !is_seal_failure(taken.error().message)) std::abort();  // a changed seal was taken
      return 0;
    }
    if (!taken) {
      if (is_seal_failure(taken.error().message)) std::abort();  // a good seal refused
      return 0;  // what it held was no answer; the connection would end here
    }
  }
  return 0;
}

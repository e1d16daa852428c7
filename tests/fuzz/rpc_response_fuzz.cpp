// Any bytes from a server that claims to speak Hadoop IPC: the frame
// splitter, the header decoder, the SASL and response messages and the
// DIGEST-MD5 challenge parser must answer with errors, never crash.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ipc/digest_md5.h"
#include "ipc/frame_codec.h"
#include "yarn_service.pb.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace ipc = spindle::yarn::ipc;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // Feed in uneven pieces, as a network would.
  ipc::FrameSplitter splitter(1 << 20);
  for (std::size_t offset = 0; offset < bytes.size(); offset += 7) {
    splitter.append(bytes.substr(offset, 7));
    while (true) {
      auto frame = splitter.next();
      if (!frame.ok() || !*frame) break;
      auto response = ipc::decode_response(**frame);
      if (!response.ok()) continue;
      std::string_view body = response->body;
      spindle::wire::hadoop::RpcSasl sasl;
      if (ipc::read_delimited(body, sasl).ok()) {
        for (const auto& auth : sasl.auths()) (void)ipc::parse_digest_challenge(auth.challenge());
      }
      body = response->body;
      spindle::wire::yarn::AllocateResponse allocate;
      (void)ipc::read_delimited(body, allocate);
    }
  }
  (void)ipc::parse_digest_challenge(bytes);
  return 0;
}

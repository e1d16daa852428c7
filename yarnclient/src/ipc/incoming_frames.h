#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "ipc/frame_codec.h"
#include "ipc/rpc_error.h"
#include "ipc/security_layer.h"

namespace spindle::yarn::ipc {

// What a server sends once the handshake is over, cut into answers. Under a
// security layer every answer arrives sealed inside SASL WRAP messages, and
// the unsealed bytes are a stream of their own in which one answer may span
// seals or share one; anything unsealed, or a seal that fails its check,
// is an error that ends the connection.
class IncomingFrames {
 public:
  IncomingFrames(std::string peer, std::size_t max_frame_bytes);

  // From now on answers must come sealed by `layer` (not owned).
  void seal_with(SecurityLayer* layer) { layer_ = layer; }

  // The frames of the stream before the layer starts: the handshake's.
  FrameSplitter& handshake_frames() { return frames_; }

  // Takes the next bytes of the stream and hands each whole answer on.
  Result<void, RpcError> take(std::string_view bytes, const std::function<void(ResponseFrame)>& deliver);

 private:
  RpcError protocol_error(const std::string& message) const;
  Result<void, RpcError> take_sealed(const ResponseFrame& frame, const std::function<void(ResponseFrame)>& deliver);

  std::string peer_;
  FrameSplitter frames_;
  FrameSplitter unsealed_;
  SecurityLayer* layer_ = nullptr;
};

}  // namespace spindle::yarn::ipc

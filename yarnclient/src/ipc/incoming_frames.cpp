#include "ipc/incoming_frames.h"

namespace spindle::yarn::ipc {

IncomingFrames::IncomingFrames(std::string peer, std::size_t max_frame_bytes)
    : peer_(std::move(peer)), frames_(max_frame_bytes), unsealed_(max_frame_bytes) {}

RpcError IncomingFrames::protocol_error(const std::string& message) const {
  return RpcError{RpcError::Kind::protocol, peer_ + ": " + message};
}

Result<void, RpcError> IncomingFrames::take(std::string_view bytes, const std::function<void(ResponseFrame)>& deliver) {
  frames_.append(bytes);
  while (true) {
    auto frame = frames_.next();
    if (!frame) return protocol_error(frame.error().message);
    if (!*frame) return {};
    auto decoded = decode_response(**frame);
    if (!decoded) return protocol_error(decoded.error().message);
    if (!layer_) {
      if (decoded->call_id() == sasl_call_id) {
        return protocol_error("sent a SASL message after the handshake on a connection without a security layer");
      }
      deliver(std::move(*decoded));
      continue;
    }
    if (auto taken = take_sealed(*decoded, deliver); !taken) return taken.error();
  }
}

Result<void, RpcError> IncomingFrames::take_sealed(const ResponseFrame& frame,
                                                   const std::function<void(ResponseFrame)>& deliver) {
  // Under a layer only sealed messages may come; anything else, such as a
  // server that drops to clear text, ends the connection.
  if (frame.call_id() != sasl_call_id) {
    return protocol_error("sent an unsealed answer on a connection that agreed on RPC " +
                          std::string(to_string(layer_->protection())) + "; the connection is closed");
  }
  if (frame.header.status() != hadoop::RpcResponseHeader::SUCCESS) {
    return RpcError{RpcError::Kind::remote, describe_error(frame.header), frame.header.exception_class_name()};
  }
  hadoop::RpcSasl wrap;
  std::string_view body = frame.body;
  if (auto parsed = read_delimited(body, wrap); !parsed) return protocol_error(parsed.error().message);
  if (wrap.state() != hadoop::RpcSasl::WRAP) {
    return protocol_error("sent a SASL message other than WRAP after the handshake; the connection is closed");
  }
  auto plain = layer_->unwrap(wrap.token());
  if (!plain) return protocol_error(plain.error().message + "; the connection is closed and nothing it said is used");
  unsealed_.append(*plain);
  while (true) {
    auto inner = unsealed_.next();
    if (!inner) return protocol_error(inner.error().message);
    if (!*inner) return {};
    auto answer = decode_response(**inner);
    if (!answer) return protocol_error(answer.error().message);
    deliver(std::move(*answer));
  }
}

}  // namespace spindle::yarn::ipc

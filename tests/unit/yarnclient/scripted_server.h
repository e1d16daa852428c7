#pragma once

// A Transport whose other end is a test: it sees every write the client
// makes (the preamble, then one frame per write) and answers with whatever
// bytes it likes, split however it likes, or by hanging up.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>

#include "ipc/frame_codec.h"
#include "spindle/yarn/transport.h"
#include "yarn_service.pb.h"

namespace spindle::yarn::testing {

namespace hadoop = spindle::wire::hadoop;

// A frame the client wrote, taken apart.
struct ClientFrame {
  hadoop::RpcRequestHeader header;
  std::string rest;  // the delimited messages after the header
};

class ScriptedTransport final : public Transport {
 public:
  using Handler = std::function<void(const std::string& written, ScriptedTransport& server)>;

  explicit ScriptedTransport(Handler handler) : handler_(std::move(handler)) {}

  Result<void, IoError> write_all(std::string_view bytes) override {
    {
      std::lock_guard lock(mutex_);
      if (closed_) return IoError{IoError::Kind::closed, "closed by the test server"};
      writes_.emplace_back(bytes);
    }
    handler_(std::string(bytes), *this);
    return {};
  }

  Result<std::string, IoError> read_some(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(mutex_);
    if (!ready_.wait_for(lock, timeout, [&] { return !pending_.empty() || closed_; })) {
      return IoError{IoError::Kind::timed_out, "nothing yet"};
    }
    if (pending_.empty()) return IoError{IoError::Kind::closed, "the test server hung up"};
    std::string chunk = std::move(pending_.front());
    pending_.pop_front();
    return chunk;
  }

  void shutdown() override { hang_up(); }

  // The server's side.
  void send(std::string bytes) {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(bytes));
    ready_.notify_all();
  }
  void send_in_pieces(const std::string& bytes, std::size_t piece) {
    for (std::size_t i = 0; i < bytes.size(); i += piece) send(bytes.substr(i, piece));
  }
  void hang_up() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    ready_.notify_all();
  }
  std::vector<std::string> writes() {
    std::lock_guard lock(mutex_);
    return writes_;
  }

 private:
  Handler handler_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::string> pending_;
  std::vector<std::string> writes_;
  bool closed_ = false;
};

inline bool is_preamble(const std::string& written) {
  return written.size() == 7 && written.starts_with("hrpc");
}

inline ClientFrame parse_client_frame(const std::string& written) {
  ClientFrame frame;
  std::string_view body(written);
  body.remove_prefix(4);
  auto ok = ipc::read_delimited(body, frame.header);
  if (!ok) throw std::runtime_error("client wrote a broken frame: " + ok.error().message);
  frame.rest.assign(body);
  return frame;
}

// A response frame for a call id, with an optional message.
inline std::string response_frame(std::int32_t call_id, const google::protobuf::MessageLite* message = nullptr,
                                  hadoop::RpcResponseHeader::Status status = hadoop::RpcResponseHeader::SUCCESS,
                                  const std::string& exception = "", const std::string& error = "") {
  hadoop::RpcResponseHeader header;
  header.set_call_id(static_cast<std::uint32_t>(call_id));
  header.set_status(status);
  header.set_server_ipc_version(9);
  if (!exception.empty()) header.set_exception_class_name(exception);
  if (!error.empty()) header.set_error_message(error);
  if (message) return ipc::encode_frame({&header, message});
  return ipc::encode_frame({&header});
}

// A Hadoop server's NEGOTIATE answer offering TOKEN with DIGEST-MD5 and
// this challenge, as Hadoop's token servers name themselves.
inline hadoop::RpcSasl digest_offer(const std::string& challenge) {
  hadoop::RpcSasl reply;
  reply.set_state(hadoop::RpcSasl::NEGOTIATE);
  auto* token = reply.add_auths();
  token->set_method("TOKEN");
  token->set_mechanism("DIGEST-MD5");
  token->set_protocol("");
  token->set_server_id("default");
  token->set_challenge(challenge);
  return reply;
}

}  // namespace spindle::yarn::testing

#include "ipc/rpc_connection.h"

#include "ipc/digest_md5.h"
#include "ipc/sasl_mechanism.h"

namespace spindle::yarn::ipc {
namespace {

using Clock = std::chrono::steady_clock;

hadoop::RpcRequestHeader request_header(std::int32_t call_id, const std::string& client_id, int retry_count) {
  hadoop::RpcRequestHeader header;
  header.set_rpc_kind(hadoop::RPC_PROTOCOL_BUFFER);
  header.set_rpc_op(hadoop::RpcRequestHeader::RPC_FINAL_PACKET);
  header.set_call_id(call_id);
  header.set_client_id(client_id);
  header.set_retry_count(retry_count);
  return header;
}

RpcError remote_error(const hadoop::RpcResponseHeader& header) {
  return RpcError{RpcError::Kind::remote, describe_error(header), header.exception_class_name()};
}

std::string seconds(std::chrono::milliseconds duration) {
  const auto tenths = duration.count() / 100;
  return std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "") + " s";
}

}  // namespace

RpcConnection::RpcConnection(std::unique_ptr<Transport> transport, ConnectionParams params)
    : transport_(std::move(transport)), params_(std::move(params)), incoming_(params_.peer, params_.max_frame_bytes) {
  if (!params_.make_cnonce) params_.make_cnonce = random_cnonce;
}

Result<std::unique_ptr<RpcConnection>, RpcError> RpcConnection::open(std::unique_ptr<Transport> transport,
                                                                     ConnectionParams params) {
  std::unique_ptr<RpcConnection> connection(new RpcConnection(std::move(transport), std::move(params)));
  if (auto done = connection->handshake(); !done) {
    connection->transport_->shutdown();
    return done.error();
  }
  connection->reader_ = std::thread([raw = connection.get()] { raw->reader_loop(); });
  return connection;
}

RpcConnection::~RpcConnection() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  transport_->shutdown();
  if (reader_.joinable()) reader_.join();
}

bool RpcConnection::broken() const {
  std::lock_guard lock(mutex_);
  return broken_.has_value();
}

RpcError RpcConnection::io_error(const IoError& error, std::string_view while_doing) const {
  if (error.kind == IoError::Kind::timed_out) {
    return RpcError{RpcError::Kind::timed_out, params_.peer + " did not answer " + std::string(while_doing) +
                                                   " within " + seconds(params_.handshake_timeout)};
  }
  return RpcError{RpcError::Kind::lost,
                  "the connection to " + params_.peer + " broke " + std::string(while_doing) + ": " + error.message};
}

RpcProtection RpcConnection::protection() const {
  return layer_ ? layer_->protection() : RpcProtection::authentication;
}

Result<void, RpcError> RpcConnection::send(const std::string& frame) {
  std::lock_guard lock(write_mutex_);
  if (auto written = transport_->write_all(frame); !written) return io_error(written.error(), "while sending");
  return {};
}

Result<void, RpcError> RpcConnection::send_sealed(const std::string& frame) {
  if (!layer_) return send(frame);
  // Sealing and sending under one lock keeps the sequence numbers in the
  // order the server sees them.
  std::lock_guard lock(write_mutex_);
  const auto header = request_header(sasl_call_id, "", -1);
  std::string out;
  const std::size_t piece = layer_->max_plain_bytes();
  for (std::size_t offset = 0; offset < frame.size(); offset += piece) {
    auto sealed = layer_->wrap(std::string_view(frame).substr(offset, piece));
    if (!sealed) return RpcError{RpcError::Kind::protocol, params_.peer + ": " + sealed.error().message};
    hadoop::RpcSasl wrap;
    wrap.set_state(hadoop::RpcSasl::WRAP);
    wrap.set_token(std::move(*sealed));
    out += encode_frame({&header, &wrap});
  }
  if (auto written = transport_->write_all(out); !written) return io_error(written.error(), "while sending");
  return {};
}

Result<void, RpcError> RpcConnection::receive(std::string_view bytes) {
  return incoming_.take(bytes, [this](ResponseFrame frame) { dispatch(std::move(frame)); });
}

Result<ResponseFrame, RpcError> RpcConnection::read_frame(Clock::time_point deadline) {
  while (true) {
    auto frame = incoming_.handshake_frames().next();
    if (!frame) return RpcError{RpcError::Kind::protocol, params_.peer + ": " + frame.error().message};
    if (*frame) {
      auto decoded = decode_response(**frame);
      if (!decoded) return RpcError{RpcError::Kind::protocol, params_.peer + ": " + decoded.error().message};
      return std::move(*decoded);
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return io_error(IoError{IoError::Kind::timed_out, ""}, "the connection handshake");
    auto bytes = transport_->read_some(left);
    if (!bytes) return io_error(bytes.error(), "during the connection handshake");
    incoming_.handshake_frames().append(*bytes);
  }
}

Result<void, RpcError> RpcConnection::handshake() {
  // SIMPLE needs no SASL at all; a token or Kerberos starts a negotiation.
  const bool sasl = params_.token || params_.kerberos;
  if (auto sent = send(connection_preamble(sasl)); !sent) return sent.error();
  std::optional<std::string> context_user = params_.user;
  if (sasl) {
    auto authenticated = authenticate();
    if (!authenticated) return authenticated.error();
    context_user = std::move(*authenticated);
  }
  hadoop::IpcConnectionContext context;
  context.set_protocol(params_.protocol);
  auto* user = context.mutable_user_info();
  if (context_user) user->set_effective_user(*context_user);
  const auto header = request_header(connection_context_call_id, params_.client_id, -1);
  if (auto sent = send_sealed(encode_frame({&header, &context})); !sent) return sent.error();
  return {};
}

Result<std::unique_ptr<SaslMechanism>, RpcError> RpcConnection::make_mechanism(const AuthChoice& choice) {
  if (choice.method == AuthChoice::Method::token) {
    return token_mechanism(*params_.token, params_.make_cnonce, params_.protection);
  }
  const auto factory = kerberos_mechanism_factory();
  if (!factory) {
    return RpcError{RpcError::Kind::authentication,
                    params_.peer + " needs Kerberos, but this program was built without Kerberos support"};
  }
  auto made = factory(*params_.kerberos, params_.server_host, params_.protection);
  if (!made) return RpcError{RpcError::Kind::authentication, made.error().message};
  return std::move(*made);
}

Result<std::optional<std::string>, RpcError> RpcConnection::authenticate() {
  const auto deadline = Clock::now() + params_.handshake_timeout;
  const auto header = request_header(sasl_call_id, "", -1);
  auto exchange = [&](const hadoop::RpcSasl& message) -> Result<hadoop::RpcSasl, RpcError> {
    if (auto sent = send(encode_frame({&header, &message})); !sent) return sent.error();
    auto frame = read_frame(deadline);
    if (!frame) return frame.error();
    if (frame->header.status() != hadoop::RpcResponseHeader::SUCCESS) return remote_error(frame->header);
    if (frame->call_id() != sasl_call_id) {
      return RpcError{RpcError::Kind::protocol, params_.peer + " answered the SASL negotiation with a call"};
    }
    hadoop::RpcSasl reply;
    std::string_view body = frame->body;
    if (auto parsed = read_delimited(body, reply); !parsed) {
      return RpcError{RpcError::Kind::protocol, params_.peer + ": " + parsed.error().message};
    }
    return reply;
  };
  // A mechanism's own sentence; Kerberos failures (no ticket, wrong
  // principal) stay recognisable as such.
  auto failed = [&](const Error& error, RpcError::Kind otherwise) {
    if (error.kind == Error::Kind::authentication) return RpcError{RpcError::Kind::authentication, error.message};
    return RpcError{otherwise, params_.peer + ": " + error.message};
  };

  hadoop::RpcSasl negotiate;
  negotiate.set_state(hadoop::RpcSasl::NEGOTIATE);
  auto offer = exchange(negotiate);
  if (!offer) return offer.error();
  // A server without a secret manager takes everyone as SIMPLE.
  if (offer->state() == hadoop::RpcSasl::SUCCESS) return std::optional<std::string>(params_.user);

  const auto choice = choose_auth(*offer, params_.token.has_value(), params_.kerberos.has_value());
  if (choice.method == AuthChoice::Method::none) {
    std::string offered;
    for (const auto& auth : offer->auths()) {
      offered += (offered.empty() ? "" : ", ") + auth.method() + "/" + auth.mechanism();
    }
    const std::string wanted = params_.token ? (params_.kerberos ? "TOKEN or KERBEROS" : "TOKEN") : "KERBEROS";
    return RpcError{RpcError::Kind::remote,
                    params_.peer + " does not accept " + wanted + " authentication (it offers " + offered + ")"};
  }
  hadoop::RpcSasl initiate;
  initiate.set_state(hadoop::RpcSasl::INITIATE);
  // The server compares the chosen auth with what it offered, challenge aside.
  auto* chosen = initiate.add_auths();
  *chosen = *choice.offer;
  chosen->clear_challenge();
  if (choice.method == AuthChoice::Method::simple) {
    // The server lets us fall back to SIMPLE; like Hadoop's client, say so and
    // go on without waiting for an answer.
    if (auto sent = send(encode_frame({&header, &initiate})); !sent) return sent.error();
    return std::optional<std::string>(params_.user);
  }

  auto mechanism = make_mechanism(choice);
  if (!mechanism) return mechanism.error();
  auto first = (*mechanism)->start(*choice.offer);
  if (!first) return failed(first.error(), RpcError::Kind::protocol);
  initiate.set_token(*first);
  auto reply = exchange(initiate);
  for (int round = 0; reply && reply->state() == hadoop::RpcSasl::CHALLENGE && round < 16; ++round) {
    auto answer = (*mechanism)->step(reply->token());
    if (!answer) return failed(answer.error(), RpcError::Kind::remote);
    hadoop::RpcSasl response;
    response.set_state(hadoop::RpcSasl::RESPONSE);
    response.set_token(*answer);
    reply = exchange(response);
  }
  if (!reply && reply.error().kind == RpcError::Kind::remote && choice.method == AuthChoice::Method::kerberos) {
    return RpcError{RpcError::Kind::authentication,
                    params_.peer + " refused our Kerberos login (" + reply.error().message +
                        "); check that the server's principal and keytab match the configuration",
                    reply.error().exception_class};
  }
  if (!reply) return reply.error();
  if (reply->state() != hadoop::RpcSasl::SUCCESS) {
    return RpcError{RpcError::Kind::protocol, params_.peer + " ended the SASL exchange in an unexpected state"};
  }
  if (auto finished = (*mechanism)->finish(reply->token()); !finished) {
    return failed(finished.error(), RpcError::Kind::remote);
  }
  auto layer = (*mechanism)->security_layer();
  if (!layer) return failed(layer.error(), RpcError::Kind::protocol);
  layer_ = std::move(*layer);
  incoming_.seal_with(layer_.get());
  // Bytes the server sent after SUCCESS are already sealed.
  if (auto taken = receive({}); !taken) return taken.error();
  return (*mechanism)->context_user();
}

Result<std::string, RpcError> RpcConnection::call(std::string_view method, const google::protobuf::MessageLite& request,
                                                  std::chrono::milliseconds timeout, int retry_count) {
  auto pending = std::make_shared<PendingCall>();
  std::int32_t call_id = 0;
  {
    std::lock_guard lock(mutex_);
    if (broken_) return *broken_;
    call_id = next_call_id_;
    next_call_id_ = (next_call_id_ + 1) & 0x7FFFFFFF;
    pending_[call_id] = pending;
  }
  hadoop::RequestHeader method_header;
  method_header.set_method_name(std::string(method));
  method_header.set_declaring_class_protocol_name(params_.protocol);
  method_header.set_client_protocol_version(1);
  const auto header = request_header(call_id, params_.client_id, retry_count);
  if (auto sent = send_sealed(encode_frame({&header, &method_header, &request})); !sent) {
    std::lock_guard lock(mutex_);
    pending_.erase(call_id);
    return sent.error();
  }
  std::unique_lock lock(mutex_);
  if (!answered_.wait_for(lock, timeout, [&] { return pending->done; })) {
    pending_.erase(call_id);
    return RpcError{RpcError::Kind::timed_out,
                    params_.peer + " did not answer " + std::string(method) + " within " + seconds(timeout)};
  }
  if (pending->error) return *pending->error;
  return std::move(pending->body);
}

void RpcConnection::reader_loop() {
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_ || broken_) return;
    }
    auto bytes = transport_->read_some(params_.ping_interval);
    if (!bytes && bytes.error().kind == IoError::Kind::timed_out) {
      // Quiet line: tell the server we are alive, as Hadoop's own client does.
      const auto ping = request_header(ping_call_id, params_.client_id, -1);
      if (auto sent = send_sealed(encode_frame({&ping})); !sent) fail_everything(sent.error());
      continue;
    }
    if (!bytes) {
      {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
      }
      fail_everything(io_error(bytes.error(), "while waiting for answers"));
      return;
    }
    if (auto taken = receive(*bytes); !taken) {
      fail_everything(taken.error());
      return;
    }
  }
}

void RpcConnection::dispatch(ResponseFrame frame) {
  const auto status = frame.header.status();
  if (status == hadoop::RpcResponseHeader::FATAL) {
    fail_everything(remote_error(frame.header));
    return;
  }
  std::lock_guard lock(mutex_);
  auto found = pending_.find(frame.call_id());
  if (found == pending_.end()) return;  // an answer to a call that already timed out
  auto& call = *found->second;
  if (status == hadoop::RpcResponseHeader::SUCCESS) {
    std::string_view body = frame.body;
    auto message = take_delimited(body);
    if (message) {
      call.body.assign(*message);
    } else {
      call.error = RpcError{RpcError::Kind::protocol, params_.peer + ": " + message.error().message};
    }
  } else {
    call.error = remote_error(frame.header);
  }
  call.done = true;
  pending_.erase(found);
  answered_.notify_all();
}

void RpcConnection::fail_everything(const RpcError& error) {
  std::lock_guard lock(mutex_);
  if (!broken_) broken_ = error;
  for (auto& [id, call] : pending_) {
    call->error = error;
    call->done = true;
  }
  pending_.clear();
  answered_.notify_all();
}

}  // namespace spindle::yarn::ipc

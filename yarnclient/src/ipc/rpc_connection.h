#pragma once

#include <google/protobuf/message_lite.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ipc/frame_codec.h"
#include "ipc/incoming_frames.h"
#include "ipc/rpc_error.h"
#include "ipc/security_layer.h"
#include "spindle/yarn/rpc_options.h"
#include "spindle/yarn/token.h"
#include "spindle/yarn/transport.h"

namespace spindle::yarn::ipc {

struct ConnectionParams {
  std::string peer;                         // "host:port", for messages
  std::string protocol;                     // e.g. org.apache.hadoop.yarn.api.ApplicationClientProtocolPB
  std::string user;                         // SIMPLE authentication: who we say we are
  std::optional<Token> token;               // TOKEN authentication (DIGEST-MD5) when set
  std::optional<KerberosOptions> kerberos;  // KERBEROS authentication (GSSAPI) when set
  std::string server_host;                  // the host dialled, for a Kerberos principal's _HOST
  std::string client_id;                    // 16 bytes, the same for every connection of one client
  std::chrono::milliseconds ping_interval{60'000};
  std::chrono::milliseconds handshake_timeout{20'000};
  std::size_t max_frame_bytes = default_max_frame_bytes;
  std::function<std::string()> make_cnonce;  // for tests; random when empty
  // hadoop.rpc.protection: what this client allows; the strongest the
  // server also allows is used.
  std::vector<RpcProtection> protection{RpcProtection::authentication};
};

// One Hadoop IPC connection, after its handshake: many calls may be in
// flight at once from several threads; a reader thread matches answers to
// calls by call id and pings the server while the line is quiet.
class RpcConnection {
 public:
  static Result<std::unique_ptr<RpcConnection>, RpcError> open(std::unique_ptr<Transport> transport,
                                                               ConnectionParams params);
  ~RpcConnection();
  RpcConnection(const RpcConnection&) = delete;
  RpcConnection& operator=(const RpcConnection&) = delete;

  // Sends one call and waits for its answer: the response message's bytes.
  Result<std::string, RpcError> call(std::string_view method, const google::protobuf::MessageLite& request,
                                     std::chrono::milliseconds timeout, int retry_count = 0);

  // Whether the connection can take no more calls.
  bool broken() const;
  // What SASL protects on this connection.
  RpcProtection protection() const;

 private:
  struct PendingCall {
    bool done = false;
    std::string body;
    std::optional<RpcError> error;
  };

  RpcConnection(std::unique_ptr<Transport> transport, ConnectionParams params);
  Result<void, RpcError> handshake();
  // The SASL negotiation; its value is the user the connection context
  // names (none when a token names it).
  Result<std::optional<std::string>, RpcError> authenticate();
  Result<std::unique_ptr<class SaslMechanism>, RpcError> make_mechanism(const struct AuthChoice& choice);
  Result<ResponseFrame, RpcError> read_frame(std::chrono::steady_clock::time_point deadline);
  Result<void, RpcError> send(const std::string& frame);
  // Sealed by the security layer, when there is one, as SASL WRAP messages.
  Result<void, RpcError> send_sealed(const std::string& frame);
  // Takes the bytes of the stream, unsealing them first under a security
  // layer; an error ends the connection.
  Result<void, RpcError> receive(std::string_view bytes);
  void reader_loop();
  void dispatch(ResponseFrame frame);
  void fail_everything(const RpcError& error);
  RpcError io_error(const IoError& error, std::string_view while_doing) const;

  std::unique_ptr<Transport> transport_;
  ConnectionParams params_;
  // Set once the handshake agreed on integrity or privacy; from then on
  // every frame travels inside SASL WRAP messages.
  std::unique_ptr<SecurityLayer> layer_;
  IncomingFrames incoming_;

  mutable std::mutex mutex_;  // guards what follows
  std::condition_variable answered_;
  std::map<std::int32_t, std::shared_ptr<PendingCall>> pending_;
  std::int32_t next_call_id_ = 0;
  std::optional<RpcError> broken_;
  bool stopping_ = false;

  std::mutex write_mutex_;
  std::thread reader_;
};

}  // namespace spindle::yarn::ipc

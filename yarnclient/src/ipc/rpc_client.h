#pragma once

#include <google/protobuf/message_lite.h>

#include <memory>
#include <mutex>
#include <string>

#include "ipc/rpc_connection.h"
#include "spindle/yarn/rpc_options.h"

namespace spindle::yarn::ipc {

// Calls one protocol of one Hadoop service: opens the connection when
// needed, fails over between the service's addresses, reconnects after a
// broken connection, and retries by the options' policy.
class RpcClient {
 public:
  RpcClient(std::string protocol, RpcOptions options);

  Result<std::string, RpcError> call(std::string_view method, const google::protobuf::MessageLite& request);

  template <typename Response>
  Result<Response, RpcError> call_for(std::string_view method, const google::protobuf::MessageLite& request) {
    auto bytes = call(method, request);
    if (!bytes) return bytes.error();
    Response response;
    if (!response.ParseFromString(*bytes)) {
      return RpcError{RpcError::Kind::protocol,
                      "the answer to " + std::string(method) + " does not parse as " + response.GetTypeName()};
    }
    return response;
  }

  const RpcOptions& options() const { return options_; }
  // What SASL protects on the connection, which is opened if need be.
  Result<RpcProtection, RpcError> protection();
  // A new token for connections made from now on (an AMRM token after the
  // ResourceManager rolled its key); the open connection stays as it is.
  void replace_token(Token token);

 private:
  Result<std::shared_ptr<RpcConnection>, RpcError> connection();

  std::string protocol_;
  RpcOptions options_;
  std::string client_id_;
  std::mutex mutex_;
  std::shared_ptr<RpcConnection> connection_;
  std::size_t address_index_ = 0;
};

}  // namespace spindle::yarn::ipc

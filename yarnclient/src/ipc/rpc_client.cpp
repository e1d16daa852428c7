#include "ipc/rpc_client.h"

#include "spindle/core/cluster_spec.h"

#include <openssl/rand.h>

#include <thread>

namespace spindle::yarn {

RetryPolicy fixed_retries(int retries, std::chrono::milliseconds pause) {
  return [retries, pause](int attempt, bool) -> std::optional<std::chrono::milliseconds> {
    if (attempt >= retries) return std::nullopt;
    return pause;
  };
}

}  // namespace spindle::yarn

namespace spindle::yarn::ipc {
namespace {

std::string random_client_id() {
  std::string id(16, '\0');
  RAND_bytes(reinterpret_cast<unsigned char*>(id.data()), static_cast<int>(id.size()));
  return id;
}

bool is_standby(const RpcError& error) {
  return error.kind == RpcError::Kind::remote && error.exception_class.ends_with("StandbyException");
}

}  // namespace

RpcClient::RpcClient(std::string protocol, RpcOptions options)
    : protocol_(std::move(protocol)), options_(std::move(options)), client_id_(random_client_id()) {}

void RpcClient::replace_token(Token token) {
  std::lock_guard lock(mutex_);
  options_.token = std::move(token);
}

Result<std::shared_ptr<RpcConnection>, RpcError> RpcClient::connection() {
  std::lock_guard lock(mutex_);
  if (connection_ && !connection_->broken()) return connection_;
  connection_.reset();
  if (options_.addresses.empty()) return RpcError{RpcError::Kind::unreachable, "no address is configured"};
  std::string problems;
  for (std::size_t tried = 0; tried < options_.addresses.size(); ++tried) {
    const std::size_t index = (address_index_ + tried) % options_.addresses.size();
    const std::string& address = options_.addresses[index];
    auto split = parse_host_port(address);
    if (!split) return RpcError{RpcError::Kind::unreachable, split.error().message};
    auto transport = options_.transport(split->host, split->port, options_.connect_timeout);
    if (!transport) {
      problems += (problems.empty() ? "" : "; ") + transport.error().message;
      continue;
    }
    ConnectionParams params;
    params.peer = address;
    params.protocol = protocol_;
    params.user = options_.user;
    params.token = options_.token;
    params.kerberos = options_.kerberos;
    params.server_host = split->host;
    params.client_id = client_id_;
    params.ping_interval = options_.ping_interval;
    params.handshake_timeout = options_.connect_timeout;
    params.protection = options_.protection;
    auto opened = RpcConnection::open(std::move(*transport), std::move(params));
    if (!opened) {
      // Refused, or no way to prove who we are: retrying won't help.
      if (opened.error().kind == RpcError::Kind::remote || opened.error().kind == RpcError::Kind::authentication) {
        return opened.error();
      }
      problems += (problems.empty() ? "" : "; ") + opened.error().message;
      continue;
    }
    address_index_ = index;
    connection_ = std::move(*opened);
    return connection_;
  }
  return RpcError{RpcError::Kind::unreachable, problems};
}

Result<RpcProtection, RpcError> RpcClient::protection() {
  if (options_.configuration_problem) return RpcError{RpcError::Kind::authentication, *options_.configuration_problem};
  auto open = connection();
  if (!open) return open.error();
  return (*open)->protection();
}

Result<std::string, RpcError> RpcClient::call(std::string_view method, const google::protobuf::MessageLite& request) {
  if (options_.configuration_problem) return RpcError{RpcError::Kind::authentication, *options_.configuration_problem};
  for (int attempt = 0;; ++attempt) {
    auto open = connection();
    RpcError error;
    if (open) {
      auto answer = (*open)->call(method, request, options_.call_timeout, attempt);
      if (answer) return answer;
      error = answer.error();
      if (error.kind == RpcError::Kind::remote && !is_standby(error)) return error;
      if (error.kind == RpcError::Kind::timed_out) return error;
      std::lock_guard lock(mutex_);
      connection_.reset();
      // A standby ResourceManager: the next address may be the active one.
      if (is_standby(error)) address_index_ = (address_index_ + 1) % options_.addresses.size();
    } else {
      error = open.error();
      if (error.kind == RpcError::Kind::remote || error.kind == RpcError::Kind::authentication) return error;
    }
    const auto pause = options_.retry(attempt, error.kind == RpcError::Kind::unreachable);
    if (!pause) return error;
    std::this_thread::sleep_for(*pause);
  }
}

}  // namespace spindle::yarn::ipc

#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "hadoop_ipc.pb.h"
#include "spindle/core/result.h"
#include "spindle/yarn/token.h"

namespace spindle::yarn::ipc {

// One SASL mechanism as Hadoop's RPC negotiation uses it: the server offers
// (method, mechanism, protocol, server id, first challenge), the client
// answers, challenges and responses go back and forth, the server ends with
// SUCCESS. DIGEST-MD5 over tokens is here; Kerberos (GSSAPI) takes the same
// place with a ticket instead of a token.
class SaslMechanism {
 public:
  virtual ~SaslMechanism() = default;
  virtual std::string_view method() const = 0;     // "TOKEN", "KERBEROS"
  virtual std::string_view mechanism() const = 0;  // "DIGEST-MD5", "GSSAPI"
  // The answer to the offer the server made for this mechanism.
  virtual Result<std::string> start(const wire::hadoop::RpcSasl::Auth& offer) = 0;
  // The answer to a further challenge.
  virtual Result<std::string> step(std::string_view challenge) = 0;
  // Checks what the server sent with SUCCESS (empty when it sent nothing).
  virtual Result<void> finish(std::string_view final_message) = 0;
  // Whether the connection context must name the user (Kerberos) or must not
  // (tokens carry it).
  virtual bool context_names_user() const = 0;
};

// DIGEST-MD5 with a Hadoop token: identifier and password, each Base64, as
// user name and password.
std::unique_ptr<SaslMechanism> token_mechanism(Token token, std::function<std::string()> make_cnonce);

}  // namespace spindle::yarn::ipc

#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle::yarn {

// Who a SPNEGO login proved to be.
struct NegotiateLogin {
  std::string principal;             // "alice@EXAMPLE.COM"; its short name is the cluster's rules' (short_name_of)
  std::chrono::seconds lifetime{0};  // what is left of the client's ticket
};

// Accepts Kerberos logins to a web server (SPNEGO, RFC 4559) with the
// service's key from a keytab, as Hadoop's web servers do with their
// HTTP/host principal. Safe to use from several threads.
class NegotiateAcceptor {
 public:
  // `principal`: the service principal to accept as ("HTTP/gateway@REALM");
  // empty: any principal whose key the keytab holds.
  static Result<std::shared_ptr<NegotiateAcceptor>> open(const std::string& keytab, const std::string& principal);
  virtual ~NegotiateAcceptor() = default;

  // The base64 token of an "Authorization: Negotiate" field. Errors are
  // clauses that end without a period.
  virtual Result<NegotiateLogin> accept(std::string_view base64_token) const = 0;
};

}  // namespace spindle::yarn

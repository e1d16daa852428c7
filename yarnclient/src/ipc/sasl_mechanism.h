#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hadoop_ipc.pb.h"
#include "ipc/security_layer.h"
#include "spindle/core/result.h"
#include "spindle/yarn/rpc_options.h"
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
  // The effective user the connection context names once authenticated: the
  // Kerberos principal, as Hadoop's client sends it; nothing for tokens, which
  // carry their user (naming another one is refused).
  virtual std::optional<std::string> context_user() const = 0;
  // After finish: the layer that seals every byte from now on, or null when
  // the exchange settled on authentication alone.
  virtual Result<std::unique_ptr<SecurityLayer>> security_layer() = 0;
};

// DIGEST-MD5 with a Hadoop token: identifier and password, each Base64, as
// user name and password.
// `allowed` is hadoop.rpc.protection.
std::unique_ptr<SaslMechanism> token_mechanism(Token token, std::function<std::string()> make_cnonce,
                                               std::vector<RpcProtection> allowed);

// Which of the server's offers the client takes, in the server's order like
// Hadoop's client: TOKEN when it holds a token, KERBEROS when configured for
// it, SIMPLE when the server allows it. `offer` is null when none fits.
struct AuthChoice {
  enum class Method { none, token, kerberos, simple } method = Method::none;
  const wire::hadoop::RpcSasl::Auth* offer = nullptr;
};
AuthChoice choose_auth(const wire::hadoop::RpcSasl& negotiate, bool have_token, bool want_kerberos);

// Kerberos lives in its own library (spindle_yarnclient_kerberos) so that
// programs that only use tokens, like the container binary, do not link
// GSS-API. Linking that library installs the factory; without it the hook is
// null and a Kerberos connection fails with a sentence saying so.
using KerberosMechanismFactory = Result<std::unique_ptr<SaslMechanism>> (*)(const KerberosOptions& options,
                                                                            const std::string& server_host,
                                                                            const std::vector<RpcProtection>& allowed);
void install_kerberos_mechanism(KerberosMechanismFactory factory);
KerberosMechanismFactory kerberos_mechanism_factory();

// The principal of the default ticket cache ("alice@EXAMPLE.COM"), from the
// same library; null without it.
using TicketPrincipalReader = Result<std::string> (*)();
void install_ticket_principal_reader(TicketPrincipalReader reader);
TicketPrincipalReader ticket_principal_reader();

// Gets a ticket for `principal` from `keytab` into a credentials cache in
// this process's memory and returns the cache's name, for GSS-API users
// that only take the default cache (libcurl's SPNEGO); same library.
using KeytabLogin = Result<std::string> (*)(const std::string& principal, const std::string& keytab);
void install_keytab_login(KeytabLogin login);
KeytabLogin keytab_login();

}  // namespace spindle::yarn::ipc

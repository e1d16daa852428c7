#pragma once

// SPNEGO for the Beast transport. The container binary's Kerberos library
// installs the initiator at start-up, as the RPC mechanism is installed
// (ipc/sasl_mechanism.h); a program without it answers a Negotiate
// challenge with the sentence no_kerberos_ticket() gives.

#include <string>

#include "spindle/core/result.h"

namespace spindle::yarn::http {

// The "Negotiate" token for the web server on `host`, from the process's
// default Kerberos credentials (KRB5CCNAME), unencoded.
using NegotiateInitiator = Result<std::string> (*)(const std::string& host);

void install_negotiate_initiator(NegotiateInitiator initiator);
NegotiateInitiator negotiate_initiator();

}  // namespace spindle::yarn::http

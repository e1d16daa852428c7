#pragma once

// The signed cookie that stands for a Kerberos login until it expires:
// base64 of "principal\nexpiry" and an HMAC-SHA256 of it with the server's
// secret. Nothing in it is secret; it cannot be made without the secret.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace spindle::tbproxy {

std::string make_login_cookie(std::string_view principal, std::chrono::system_clock::time_point expires,
                              std::string_view secret);

// The principal of a cookie this secret signed and that has not expired.
std::optional<std::string> verified_login(std::string_view cookie, std::string_view secret,
                                          std::chrono::system_clock::time_point now);

}  // namespace spindle::tbproxy

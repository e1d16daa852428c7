#pragma once

#include <string>

namespace spindle::yarn {

// A Hadoop delegation or access token: the identifier the server decodes,
// the password it checks (the HMAC of the identifier), its kind and service.
struct Token {
  std::string identifier;
  std::string password;
  std::string kind;
  std::string service;

  friend bool operator==(const Token&, const Token&) = default;
};

}  // namespace spindle::yarn

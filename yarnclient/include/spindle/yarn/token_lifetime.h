#pragma once

// What a delegation token's identifier says of its life: who it is for,
// when it was issued and the last moment any renewal can keep it alive
// (its maximum lifetime: dfs.namenode.delegation.token.max-lifetime,
// yarn.resourcemanager.delegation.token.max-lifetime; seven days unless a
// cluster says otherwise). Past that moment the server refuses it, renewed
// or not, and only a new token helps.

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spindle/yarn/token.h"

namespace spindle::yarn {

struct TokenLifetime {
  std::string kind;
  std::string service;
  std::string owner;  // the principal or user it was issued to
  std::string renewer;
  std::chrono::system_clock::time_point issued;
  std::chrono::system_clock::time_point ends;  // its maximum date
};

// nullopt for a token that is not a delegation token (an AMRM or a
// container token) or whose identifier does not read as one. Never throws.
std::optional<TokenLifetime> read_token_lifetime(const Token& token);

// Of the delegation tokens among `tokens`, the one that ends first;
// nullopt when none says.
std::optional<TokenLifetime> first_to_end(const std::vector<Token>& tokens);
// The same of tokens by alias, as credentials hold them.
std::optional<TokenLifetime> first_to_end(const std::map<std::string, Token>& tokens);

}  // namespace spindle::yarn

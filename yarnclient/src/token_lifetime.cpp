#include "spindle/yarn/token_lifetime.h"

#include <string_view>

#include "token_identifiers.pb.h"
#include "writable/writable_codec.h"

namespace spindle::yarn {
namespace {

using std::chrono::milliseconds;
using std::chrono::system_clock;

system_clock::time_point at_ms(std::int64_t ms) {
  return system_clock::time_point(milliseconds(ms));
}

// A date no server would write: before 2000 or after 2200.
bool plausible(std::int64_t ms) {
  return ms > 946'684'800'000 && ms < 7'258'118'400'000;
}

// Hadoop's Writable form (AbstractDelegationTokenIdentifier): a version
// byte (0), owner, renewer and real user as Texts, then issue and maximum
// dates as variable-length longs, in milliseconds since the epoch.
std::optional<TokenLifetime> read_writable(std::string_view in) {
  if (in.empty() || in.front() != 0) return std::nullopt;
  in.remove_prefix(1);
  TokenLifetime lifetime;
  auto owner = writable::take_sized(in);
  auto renewer = owner ? writable::take_sized(in) : std::nullopt;
  auto real_user = renewer ? writable::take_sized(in) : std::nullopt;
  auto issued = real_user ? writable::take_vlong(in) : std::nullopt;
  auto ends = issued ? writable::take_vlong(in) : std::nullopt;
  if (!ends || !plausible(*issued) || !plausible(*ends)) return std::nullopt;
  lifetime.owner = std::move(*owner);
  lifetime.renewer = std::move(*renewer);
  lifetime.issued = at_ms(*issued);
  lifetime.ends = at_ms(*ends);
  return lifetime;
}

std::optional<TokenLifetime> read_yarn(const std::string& in) {
  wire::yarn::YARNDelegationTokenIdentifierProto identifier;
  if (!identifier.ParseFromString(in) || !identifier.has_maxdate()) return std::nullopt;
  if (!plausible(identifier.issuedate()) || !plausible(identifier.maxdate())) return std::nullopt;
  TokenLifetime lifetime;
  lifetime.owner = identifier.owner();
  lifetime.renewer = identifier.renewer();
  lifetime.issued = at_ms(identifier.issuedate());
  lifetime.ends = at_ms(identifier.maxdate());
  return lifetime;
}

}  // namespace

std::optional<TokenLifetime> read_token_lifetime(const Token& token) {
  std::optional<TokenLifetime> lifetime;
  if (token.kind == "RM_DELEGATION_TOKEN" || token.kind == "TIMELINE_DELEGATION_TOKEN") {
    lifetime = read_yarn(token.identifier);
  } else if (token.kind == "HDFS_DELEGATION_TOKEN" || token.kind == "WEBHDFS delegation" ||
             token.kind == "SWEBHDFS delegation" || token.kind == "kms-dt") {
    lifetime = read_writable(token.identifier);
  }
  if (!lifetime) return std::nullopt;
  lifetime->kind = token.kind;
  lifetime->service = token.service;
  return lifetime;
}

std::optional<TokenLifetime> first_to_end(const std::vector<Token>& tokens) {
  std::optional<TokenLifetime> first;
  for (const auto& token : tokens) {
    auto lifetime = read_token_lifetime(token);
    if (lifetime && (!first || lifetime->ends < first->ends)) first = std::move(lifetime);
  }
  return first;
}

std::optional<TokenLifetime> first_to_end(const std::map<std::string, Token>& tokens) {
  std::vector<Token> all;
  for (const auto& [alias, token] : tokens) all.push_back(token);
  return first_to_end(all);
}

}  // namespace spindle::yarn

// Any bytes as $HADOOP_TOKEN_FILE_LOCATION: credentials or an error, never a
// crash; what parses must serialize and parse back to the same. Each token's
// identifier is read for its life in both forms (Writable and protobuf).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "spindle/yarn/credentials.h"
#include "spindle/yarn/token_lifetime.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using spindle::yarn::Credentials;
  auto parsed = Credentials::parse(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!parsed.ok()) return 0;
  for (auto token : parsed->tokens) {
    for (const char* kind : {"HDFS_DELEGATION_TOKEN", "RM_DELEGATION_TOKEN"}) {
      token.second.kind = kind;
      if (auto lifetime = spindle::yarn::read_token_lifetime(token.second);
          lifetime && lifetime->ends.time_since_epoch().count() <= 0)
        std::abort();
    }
  }
  for (auto format : {Credentials::Format::writable, Credentials::Format::protobuf}) {
    auto again = Credentials::parse(parsed->serialize(format));
    if (!again.ok() || again->tokens != parsed->tokens || again->secrets != parsed->secrets) std::abort();
  }
  return 0;
}

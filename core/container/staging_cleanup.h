#pragma once

#include <map>
#include <optional>
#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/token.h"

namespace spindle::container {

// Removes the job's staging directory once the job is over. `location` is
// what the client put in SPINDLE_STAGING: "file:///abs/dir" or the
// directory's WebHDFS URL "http://namenode:port/webhdfs/v1/dir?user.name=u".
// With a delegation token (Kerberos clusters) the request carries
// delegation=<token> instead of the URL's query: containers have no
// Kerberos ticket, only tokens. WebHDFS is spoken with Beast so the
// container binary needs no libcurl.
Result<void> remove_staging(const std::string& location, const std::optional<yarn::Token>& delegation = std::nullopt);

// Of the container's delegation tokens, the one for the NameNode of a
// WebHDFS `location`: an HDFS token whose service is that host's address,
// else the only HDFS token there is. None without HDFS tokens.
std::optional<yarn::Token> staging_token(const std::map<std::string, yarn::Token>& tokens, const std::string& location);

}  // namespace spindle::container

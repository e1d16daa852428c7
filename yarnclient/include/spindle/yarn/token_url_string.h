#pragma once

#include <string>
#include <string_view>

#include "spindle/core/result.h"
#include "spindle/yarn/token.h"

namespace spindle::yarn {

// A token as Hadoop's HTTP services pass it (Token.encodeToUrlString): the
// Writable form (vint-sized identifier and password, then kind and service
// as Text) in URL-safe Base64 without padding. WebHDFS takes it as
// `delegation=`, the ResourceManager's REST API hands it out this way.
// The string is a credential: never put it in a message or a log.
std::string encode_token_url_string(const Token& token);

// Reads a url string from outside (a server's answer, a file). Accepts the
// standard Base64 alphabet and padding as well, as Hadoop's decoder does.
// Errors never quote the input.
Result<Token> decode_token_url_string(std::string_view text);

// The text with the values of delegation= and token= query parameters
// replaced by "<redacted>", so a URL can appear in a message without the
// token it carries.
std::string redact_token_parameters(std::string_view text);

}  // namespace spindle::yarn

// Any text as a delegation token's url string (a server's answer): a token
// or an error, never a crash; what decodes must encode and decode back to
// the same token, and no error may quote the input.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "spindle/yarn/token_url_string.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace spindle::yarn;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto token = decode_token_url_string(text);
  if (!token.ok()) {
    // Errors are fixed sentences: short, whatever the input, so they cannot quote a token.
    const auto& message = token.error().message;
    if (!message.starts_with("the delegation token received is not a Hadoop token url string (") ||
        message.size() > 200 || (size > 200 && message.find(text) != std::string::npos)) {
      std::abort();
    }
    return 0;
  }
  auto again = decode_token_url_string(encode_token_url_string(*token));
  if (!again.ok() || !(*again == *token)) std::abort();
  (void)redact_token_parameters(text);
  return 0;
}

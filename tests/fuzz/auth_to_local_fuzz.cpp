// Any text as hadoop.security.auth_to_local rules and a principal to map:
// rules or a sentence, a name or a sentence, never a crash, a hang or a
// runaway regular expression. Under Hadoop's mechanism a name never holds
// '/' or '@'. The input is the rules, then a NUL byte or an empty line, then
// the principal; without either, all of it is the rules.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "spindle/yarn/auth_to_local.h"

namespace {

using spindle::yarn::AuthToLocalMechanism;
using spindle::yarn::AuthToLocalRules;

void check_mapping(const AuthToLocalRules& rules, std::string_view principal, AuthToLocalMechanism mechanism) {
  const auto name = rules.short_name(principal);
  if (!name.ok()) {
    if (name.error().message.empty()) std::abort();
    return;
  }
  if (name->empty() && !principal.empty()) std::abort();
  if (mechanism == AuthToLocalMechanism::hadoop && name->find_first_of("/@") != std::string::npos) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view rules_text = input;
  std::string_view principal = "alice@EXAMPLE.COM";
  std::size_t split = input.find('\0');
  std::size_t separator_length = 1;
  if (split == std::string_view::npos) {
    split = input.find("\n\n");
    separator_length = 2;
  }
  if (split != std::string_view::npos) {
    rules_text = input.substr(0, split);
    principal = input.substr(split + separator_length);
  }
  for (const auto mechanism : {AuthToLocalMechanism::hadoop, AuthToLocalMechanism::mit}) {
    const auto rules = AuthToLocalRules::parse(rules_text, "EXAMPLE.COM", mechanism);
    if (!rules.ok()) {
      if (rules.error().message.empty()) std::abort();
      return 0;
    }
    check_mapping(*rules, principal, mechanism);
    check_mapping(*rules, "nn/host.example.com@EXAMPLE.COM", mechanism);
  }
  return 0;
}

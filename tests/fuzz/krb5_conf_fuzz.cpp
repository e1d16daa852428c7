// Any text as the submitting machine's krb5.conf: a realm whose every KDC
// is host:port, or a sentence, never a crash; and what the application
// master writes from a realm reads back as the same KDCs.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "spindle/yarn/kerberos_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const char* realm : {"", "EXAMPLE.COM"}) {
    const auto found = spindle::yarn::realm_from_krb5_conf(text, "krb5.conf", realm);
    if (!found) {
      if (found.error().message.empty()) std::abort();
      continue;
    }
    if (found->name.empty() || found->kdcs.empty()) std::abort();
    for (const auto& kdc : found->kdcs) {
      if (kdc.find(':') == std::string::npos || kdc.find('\n') != std::string::npos) std::abort();
    }
  }
  return 0;
}

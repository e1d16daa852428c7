// Java KeyStores as ssl-client.xml may name them: any bytes are read or
// refused with one sentence that names the store; what is read lies inside
// the input; and a store sealed with the fuzzer's password reads the same
// with it as without it.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "java_keystore.h"

namespace {

void require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string where = "the truststore t.jks";
  const auto unchecked = spindle::yarn::java_keystore_certificates(bytes, "", where);
  const auto checked = spindle::yarn::java_keystore_certificates(bytes, "changeit", where);
  for (const auto* result : {&unchecked, &checked}) {
    if (!*result) {
      require(result->error().message.starts_with(where + " "));
      continue;
    }
    require(!result->value().empty());
    std::size_t total = 0;
    for (const auto& der : result->value()) total += der.size();
    require(total <= size);
  }
  // The seal only decides whether the store opens, never what it holds.
  if (checked) require(unchecked && unchecked.value() == checked.value());
  return 0;
}

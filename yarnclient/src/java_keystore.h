#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"

namespace spindle::yarn {

// The certificates a Java KeyStore (JKS, the format of Hadoop's default
// truststore type) trusts, DER-encoded: each trusted-certificate entry, and
// the first certificate of each key entry, as Java's trust managers take
// them. With a password, the store's SHA-1 seal is checked first, as Java
// does (UTF-16 password, "Mighty Aphrodite", every byte before the seal);
// without one it is read unchecked, as Java reads it then too. `where`
// begins each sentence.
Result<std::vector<std::string>> java_keystore_certificates(std::string_view bytes, std::string_view password,
                                                            const std::string& where);

// Whether the bytes begin as a JKS store does (0xFEEDFEED).
bool is_java_keystore(std::string_view bytes);

}  // namespace spindle::yarn

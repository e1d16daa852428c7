#pragma once

#include <string>
#include <string_view>

namespace spindle {

// The word as a POSIX shell reads back unchanged: as is when it holds only
// characters a shell leaves alone, else in single quotes.
std::string shell_quote(std::string_view word);

}  // namespace spindle

#pragma once

#include <string_view>
#include <vector>

namespace spindle::container {

// A file this program carries in itself, to be written out at `name`
// (relative to a directory of the caller's choice).
struct EmbeddedFile {
  std::string_view name;
  std::string_view bytes;
  bool executable = false;
};

// The Python hook of python_hook.h: built into the binary, since what runs in
// containers travels as this one file.
const std::vector<EmbeddedFile>& embedded_python_files();

}  // namespace spindle::container

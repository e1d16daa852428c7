// The rewriting and checks of files from a user's Python environment
// (scripts, activate scripts, pyvenv.cfg, .pth and .egg-link files, link
// targets): no input may crash them, and a rewritten script always finds
// its interpreter on PATH.
#include <cstddef>
#include <cstdint>
#include <string>

#include "client/python_env/relocation.h"

namespace relocation = spindle::client::relocation;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string root = "/home/ada/envs/train";
  const std::string content(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 6) {
    case 0:
      if (auto script = relocation::relocated_script(content, root)) {
        // Whatever the arguments after it say, the interpreter itself is looked up on PATH.
        const std::string sh_form = "#!/bin/sh\n'''exec' ";
        const bool on_path = script->starts_with("#!/usr/bin/env ") ||
                             (script->starts_with(sh_form) && !script->substr(sh_form.size()).starts_with(root));
        if (!on_path) __builtin_trap();
      }
      break;
    case 1:
      (void)relocation::relocated_activate("activate", content, root);
      (void)relocation::relocated_activate("activate.fish", content, root);
      break;
    case 2: (void)relocation::relocated_pyvenv_cfg(content); break;
    case 3:
      (void)relocation::outside_reference("lib/python3.11/site-packages/x.pth", content, root);
      (void)relocation::outside_reference("lib/python3.11/site-packages/x.egg-link", content, root);
      break;
    case 4:
      (void)relocation::relocated_link("bin/python3", content, root);
      (void)relocation::relocated_link("lib/deep/link", content, root);
      break;
    default: (void)relocation::relocated_link(content, "../lib", root); break;
  }
  return 0;
}

// The rewriting and checks of files from a user's Python environment
// (scripts, activate scripts, pyvenv.cfg, .pth and .egg-link files, link
// targets): no input may crash them, and a rewritten script always names
// its interpreter by a name PATH finds.
#include <cstddef>
#include <cstdint>
#include <string>

#include "client/python_env/relocation.h"

namespace relocation = spindle::client::relocation;

namespace {

// The interpreter word of a rewritten script: after "#!/usr/bin/env " or
// pip's "'''exec' "; "/" when it has neither form.
std::string interpreter_of(const std::string& script) {
  const std::string env_form = "#!/usr/bin/env ";
  const std::string sh_form = "#!/bin/sh\n'''exec' ";
  std::string rest = "/";
  if (script.starts_with(env_form)) rest = script.substr(env_form.size());
  if (script.starts_with(sh_form)) rest = script.substr(sh_form.size());
  return rest.substr(0, rest.find_first_of(" \t\n"));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string root = "/home/ada/envs/train";
  const std::string content(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 6) {
    case 0:
      if (auto script = relocation::relocated_script(content, root)) {
        const auto interpreter = interpreter_of(*script);
        if (interpreter.empty() || interpreter.find('/') != std::string::npos) __builtin_trap();
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

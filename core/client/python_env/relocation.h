#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "spindle/core/result.h"

// How files of a Python environment change so that it works from whatever
// directory a node unpacks it into. Pure functions of a file's relative
// path and content; `root` is the environment's absolute directory.
namespace spindle::client::relocation {

// A script whose interpreter line names an interpreter inside the
// environment, rewritten to find it on PATH (`#!/usr/bin/env python3.11`),
// including pip's two-line form for long paths. Nothing when the script
// does not name the environment.
std::optional<std::string> relocated_script(std::string_view content, const std::string& root);

// bin/activate and bin/activate.fish, rewritten to compute the environment's
// directory from their own location. Nothing for other files.
std::optional<std::string> relocated_activate(std::string_view name, std::string_view content, const std::string& root);

// Activate scripts that cannot find their own location (csh) are left out.
bool is_unrelocatable_activate(std::string_view name);

// pyvenv.cfg without the line that records the command that made it (which
// names the old directory); where the base interpreter lives stays.
std::string relocated_pyvenv_cfg(std::string_view content);

// A problem that stops the environment from being relocated, as the part of
// a sentence after the file's name: an editable install or a .pth path
// outside the environment. Nothing when the file is fine.
std::optional<std::string> outside_reference(const std::filesystem::path& relative, std::string_view content,
                                             const std::string& root);

// What a symbolic link becomes: a link inside the environment made
// relative, the interpreter links in bin/ kept (they name the base
// interpreter, which nodes must have), anything else refused.
Result<std::string> relocated_link(const std::filesystem::path& relative, const std::string& target,
                                   const std::string& root);

}  // namespace spindle::client::relocation

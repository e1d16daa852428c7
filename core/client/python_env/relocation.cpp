#include "client/python_env/relocation.h"

#include <vector>

namespace spindle::client::relocation {
namespace {

namespace fs = std::filesystem;

std::string_view first_line(std::string_view content) {
  return content.substr(0, content.find('\n'));
}

std::string with_slash(std::string root) {
  if (!root.ends_with('/')) root += '/';
  return root;
}

bool is_inside(const fs::path& path, const std::string& root) {
  const auto normal = path.lexically_normal().string();
  return normal == root || normal.starts_with(with_slash(root));
}

// "/root/env/bin/python3.11 -u" -> "python3.11 -u"; only an interpreter
// directly in bin/, which PATH finds by its name.
std::optional<std::string> interpreter_on_path(std::string_view command, const std::string& root) {
  const std::string bin = with_slash(root) + "bin/";
  if (!command.starts_with(bin)) return std::nullopt;
  const auto rest = command.substr(bin.size());
  const auto name = rest.substr(0, rest.find_first_of(" \t"));
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  return std::string(rest);
}

}  // namespace

std::optional<std::string> relocated_script(std::string_view content, const std::string& root) {
  const auto line = first_line(content);
  if (!line.starts_with("#!")) return std::nullopt;
  const auto rest = content.substr(std::min(content.size(), line.size() + 1));
  if (auto interpreter = interpreter_on_path(line.substr(2), root)) {
    return "#!/usr/bin/env " + *interpreter + "\n" + std::string(rest);
  }
  // pip's form when the path is too long for the kernel:
  //   #!/bin/sh
  //   '''exec' /long/env/bin/python "$0" "$@"
  //   ' '''
  constexpr std::string_view exec_prefix = "'''exec' ";
  if (line == "#!/bin/sh" && rest.starts_with(exec_prefix)) {
    const auto second = first_line(rest);
    if (auto interpreter = interpreter_on_path(second.substr(exec_prefix.size()), root)) {
      return std::string(line) + "\n" + std::string(exec_prefix) + *interpreter + "\n" +
             std::string(rest.substr(std::min(rest.size(), second.size() + 1)));
    }
  }
  return std::nullopt;
}

std::optional<std::string> relocated_activate(std::string_view name, std::string_view content,
                                              const std::string& root) {
  struct Form {
    std::string_view file;
    std::vector<std::string> assignments;  // as venv writes them, with the root
    std::string replacement;
  };
  const std::vector<Form> forms = {
      {"activate",
       {"VIRTUAL_ENV=\"" + root + "\"", "VIRTUAL_ENV='" + root + "'"},
       "VIRTUAL_ENV=\"$(cd \"$(dirname \"${BASH_SOURCE[0]:-$0}\")/..\" && pwd)\""},
      {"activate.fish",
       {"set -gx VIRTUAL_ENV \"" + root + "\"", "set -gx VIRTUAL_ENV '" + root + "'"},
       "set -gx VIRTUAL_ENV (builtin realpath (dirname (status -f))/..)"},
  };
  for (const auto& form : forms) {
    if (name != form.file) continue;
    std::string text(content);
    bool changed = false;
    for (const auto& assignment : form.assignments) {
      for (auto at = text.find(assignment); at != std::string::npos; at = text.find(assignment, at)) {
        text.replace(at, assignment.size(), form.replacement);
        at += form.replacement.size();
        changed = true;
      }
    }
    if (changed) return text;
  }
  return std::nullopt;
}

bool is_unrelocatable_activate(std::string_view name) {
  return name == "activate.csh";
}

std::string relocated_pyvenv_cfg(std::string_view content) {
  std::string kept;
  std::size_t start = 0;
  while (start < content.size()) {
    auto end = content.find('\n', start);
    if (end == std::string_view::npos) end = content.size();
    const auto line = content.substr(start, end - start);
    const auto key = line.substr(0, line.find('='));
    if (key.find_first_not_of(' ') == std::string_view::npos ||
        key.substr(0, key.find_last_not_of(' ') + 1) != "command") {
      kept.append(line);
      kept += '\n';
    }
    start = end + 1;
  }
  return kept;
}

std::optional<std::string> outside_reference(const fs::path& relative, std::string_view content,
                                             const std::string& root) {
  const auto name = relative.filename().string();
  if (name.starts_with("__editable___") && name.ends_with("_finder.py")) {
    return "belongs to an editable install, whose sources stay outside the environment; install the package "
           "normally (pip install without -e) or ship a prepared archive";
  }
  const bool pth = name.ends_with(".pth");
  const bool egg_link = name.ends_with(".egg-link");
  if (!pth && !egg_link) return std::nullopt;
  std::size_t start = 0;
  while (start < content.size()) {
    auto end = content.find('\n', start);
    if (end == std::string_view::npos) end = content.size();
    std::string line(content.substr(start, end - start));
    start = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line.starts_with('#') || line.starts_with("import ") || line.starts_with("import\t")) continue;
    if (line.starts_with('/') && !is_inside(line, root)) {
      return "adds " + line + " to the module path, outside the environment" +
             (egg_link || name.starts_with("__editable__") ? " (an editable install)" : "") +
             "; install that package into the environment or ship a prepared archive";
    }
    if (egg_link) break;  // its first line is the path; the rest is not
  }
  return std::nullopt;
}

Result<std::string> relocated_link(const fs::path& relative, const std::string& target, const std::string& root) {
  const fs::path link_directory = fs::path(root) / relative.parent_path();
  const fs::path resolved = fs::path(target).is_absolute() ? fs::path(target) : link_directory / target;
  if (is_inside(resolved, root)) {
    return fs::path(resolved.lexically_normal()).lexically_relative(link_directory.lexically_normal()).string();
  }
  const auto name = relative.filename().string();
  if (relative.parent_path() == "bin" && name.starts_with("python")) return target;
  return make_error("is a link to " + target +
                    ", outside the environment; copy what it points to into the environment or remove it");
}

}  // namespace spindle::client::relocation

#include "spec/shipped_files.h"

#include <unistd.h>

#include <array>
#include <system_error>

namespace spindle::detail {
namespace {

constexpr std::array<std::string_view, 5> archive_extensions{".tar.gz", ".tgz", ".tar", ".zip", ".jar"};

bool has_archive_extension(std::string_view name) {
  for (auto extension : archive_extensions) {
    if (name.size() > extension.size() && name.ends_with(extension)) return true;
  }
  return false;
}

std::string check_container_name(std::string_view name) {
  if (name.empty()) return "the name in the container is empty";
  if (name == "." || name == "..") return "\"" + std::string(name) + "\" cannot be used as a name in the container";
  if (name.find('/') != std::string_view::npos || name.find('\\') != std::string_view::npos) {
    return "\"" + std::string(name) +
           "\" contains a slash; YARN links each file into the container's working "
           "directory under a plain name";
  }
  return {};
}

}  // namespace

bool is_remote_source(std::string_view source) {
  const auto colon = source.find(':');
  if (colon == std::string_view::npos || colon < 2) return false;  // "C:" style or no scheme
  for (std::size_t i = 0; i < colon; ++i) {
    const char c = source[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') return false;
  }
  return !source.starts_with("file:");
}

std::string default_shipped_name(std::string_view source, bool archive) {
  std::string name = std::filesystem::path(std::string(source)).filename().string();
  if (archive) {
    for (auto extension : archive_extensions) {
      if (name.size() > extension.size() && name.ends_with(extension)) {
        name.resize(name.size() - extension.size());
        break;
      }
    }
  }
  return name;
}

LocalSourceCheck check_local_source(const std::string& source, const std::filesystem::path& base_dir, bool must_exist,
                                    bool archive) {
  std::string path_text = source;
  if (path_text.starts_with("file://")) {
    path_text.erase(0, 7);
  } else if (path_text.starts_with("file:")) {
    path_text.erase(0, 5);
  }
  std::filesystem::path path(path_text);
  if (path.is_relative()) path = base_dir / path;
  path = path.lexically_normal();
  LocalSourceCheck check{path.string(), {}};
  if (archive && !has_archive_extension(path.filename().string())) {
    check.problem = "\"" + source + "\" is not an archive YARN can unpack; use .tar.gz, .tgz, .tar, .zip or .jar, " +
                    "or ship it under files";
    return check;
  }
  if (!must_exist) return check;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    check.problem = "\"" + check.resolved +
                    "\" does not exist; fix the path (relative paths start at the spec's "
                    "directory)";
  } else if (archive && !std::filesystem::is_regular_file(status)) {
    check.problem = "\"" + check.resolved + "\" is not a regular file; an archive must be one file";
  } else if (::access(path.c_str(), R_OK) != 0) {
    check.problem = "\"" + check.resolved + "\" cannot be read; check its permissions";
  }
  return check;
}

namespace {

std::optional<ShippedFile> read_one(YamlFields& fields, const YAML::Node& source_node, const std::string& field,
                                    const std::string& name, bool archive, const SpecParseOptions& options) {
  auto source = fields.non_empty_string(source_node, field);
  if (!source) return std::nullopt;
  if (auto problem = check_container_name(name); !problem.empty()) {
    fields.error(source_node, field, problem);
    return std::nullopt;
  }
  if (is_remote_source(*source)) {
    if (archive && !has_archive_extension(*source)) {
      fields.error(source_node, field,
                   "\"" + *source + "\" is not an archive YARN can unpack; use .tar.gz, .tgz, .tar, .zip or .jar");
      return std::nullopt;
    }
    return ShippedFile{name, *source};
  }
  const auto check = check_local_source(*source, options.base_dir, options.check_files, archive);
  if (!check.problem.empty()) {
    fields.error(source_node, field, check.problem);
    return std::nullopt;
  }
  return ShippedFile{name, check.resolved};
}

}  // namespace

std::vector<ShippedFile> read_shipped_files(YamlFields& fields, const YAML::Node& node, const std::string& field,
                                            bool archives, const SpecParseOptions& options) {
  std::vector<ShippedFile> shipped;
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::string item_field = field + "[" + std::to_string(i) + "]";
      if (!node[i].IsScalar()) {
        fields.error(node[i], item_field, "must be a path or URI, not " + describe(node[i]));
        continue;
      }
      const std::string name = default_shipped_name(node[i].Scalar(), archives);
      if (auto file = read_one(fields, node[i], item_field, name, archives, options)) shipped.push_back(*file);
    }
    return shipped;
  }
  if (!node.IsMap()) {
    fields.error(
        node, field,
        "must map names in the container to sources ({train.py: ./train.py}) or list sources, not " + describe(node));
    return shipped;
  }
  fields.for_each_key(
      node, field, {},
      [&](const std::string& name, const YAML::Node&, const YAML::Node& value, const std::string& item_field) {
        if (auto file = read_one(fields, value, item_field, name, archives, options)) shipped.push_back(*file);
      });
  return shipped;
}

std::optional<ShippedFile> read_script(YamlFields& fields, const YAML::Node& node, const std::string& field,
                                       const std::string& source, const SpecParseOptions& options) {
  if (is_remote_source(source)) return ShippedFile{default_shipped_name(source, false), source};
  const auto check = check_local_source(source, options.base_dir, options.check_files, false);
  if (!check.problem.empty()) {
    fields.error(node, field, check.problem);
    return std::nullopt;
  }
  return ShippedFile{default_shipped_name(source, false), check.resolved};
}

}  // namespace spindle::detail

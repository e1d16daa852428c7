#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "spindle/core/result.h"
#include "spindle/yarn/token.h"

namespace spindle::yarn {

// Hadoop's token storage ("HDTS"), as NodeManagers hand it to containers in
// $HADOOP_TOKEN_FILE_LOCATION and as clients put it in launch contexts.
struct Credentials {
  enum class Format { writable = 0, protobuf = 1 };

  std::map<std::string, Token> tokens;         // by alias
  std::map<std::string, std::string> secrets;  // by alias

  // The first token of a kind, e.g. "YARN_AM_RM_TOKEN".
  const Token* find_kind(std::string_view kind) const;

  static Result<Credentials> parse(std::string_view bytes, const std::string& source_name = "credentials");
  static Result<Credentials> read_file(const std::filesystem::path& path);
  std::string serialize(Format format = Format::writable) const;
};

}  // namespace spindle::yarn

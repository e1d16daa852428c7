#include "spindle/yarn/credentials.h"

#include <fstream>
#include <sstream>

#include "hadoop_ipc.pb.h"
#include "ipc/frame_codec.h"
#include "writable/writable_codec.h"

namespace spindle::yarn {
namespace {

constexpr std::string_view magic = "HDTS";

using writable::append_sized;
using writable::append_vlong;

class Reader {
 public:
  Reader(std::string_view bytes, const std::string& source) : bytes_(bytes), source_(source) {}

  Result<std::int64_t> vlong() {
    auto value = writable::take_vlong(bytes_);
    if (!value) return cut("a number");
    return *value;
  }

  Result<std::string> bytes(const char* what) {
    auto length = vlong();
    if (!length) return length.error();
    if (*length < 0 || static_cast<std::uint64_t>(*length) > bytes_.size()) return cut(what);
    std::string out(bytes_.substr(0, static_cast<std::size_t>(*length)));
    bytes_.remove_prefix(static_cast<std::size_t>(*length));
    return out;
  }

  Result<std::int64_t> count(const char* what) {
    auto number = vlong();
    if (!number) return number.error();
    // Each entry takes bytes, so a count above what is left is a lie.
    if (*number < 0 || static_cast<std::uint64_t>(*number) > bytes_.size()) {
      return make_error(source_ + " claims " + std::to_string(*number) + " " + what + ", more than it holds");
    }
    return *number;
  }

  bool done() const { return bytes_.empty(); }

 private:
  Error cut(const char* what) const {
    return make_error(source_ + " is cut off in the middle of " + std::string(what) +
                      "; it is not a whole Hadoop credentials file");
  }
  std::string_view bytes_;
  const std::string& source_;
};

Result<Credentials> parse_writable(std::string_view body, const std::string& source) {
  Reader reader(body, source);
  Credentials credentials;
  auto tokens = reader.count("tokens");
  if (!tokens) return tokens.error();
  for (std::int64_t i = 0; i < *tokens; ++i) {
    auto alias = reader.bytes("a token alias");
    if (!alias) return alias.error();
    Token token;
    for (auto [field, what] :
         {std::pair{&token.identifier, "a token identifier"}, std::pair{&token.password, "a token password"},
          std::pair{&token.kind, "a token kind"}, std::pair{&token.service, "a token service"}}) {
      auto value = reader.bytes(what);
      if (!value) return value.error();
      *field = std::move(*value);
    }
    credentials.tokens[*alias] = std::move(token);
  }
  auto secrets = reader.count("secrets");
  if (!secrets) return secrets.error();
  for (std::int64_t i = 0; i < *secrets; ++i) {
    auto alias = reader.bytes("a secret alias");
    if (!alias) return alias.error();
    auto secret = reader.bytes("a secret");
    if (!secret) return secret.error();
    credentials.secrets[*alias] = std::move(*secret);
  }
  if (!reader.done()) return make_error(source + " has bytes after its last entry; it may be corrupt");
  return credentials;
}

Result<Credentials> parse_protobuf(std::string_view body, const std::string& source) {
  // One varint-delimited message, as Hadoop's writeDelimitedTo leaves it.
  wire::hadoop::CredentialsFile file;
  if (auto parsed = ipc::read_delimited(body, file); !parsed) {
    return make_error(source +
                      " holds a protobuf credentials record that is cut off or does not parse; it is not a "
                      "whole Hadoop credentials file");
  }
  Credentials credentials;
  for (const auto& entry : file.tokens()) {
    const auto& token = entry.token();
    credentials.tokens[entry.alias()] = Token{token.identifier(), token.password(), token.kind(), token.service()};
  }
  for (const auto& entry : file.secrets()) credentials.secrets[entry.alias()] = entry.secret();
  return credentials;
}

}  // namespace

const Token* Credentials::find_kind(std::string_view kind) const {
  for (const auto& [alias, token] : tokens) {
    if (token.kind == kind) return &token;
  }
  return nullptr;
}

Result<Credentials> Credentials::parse(std::string_view bytes, const std::string& source_name) {
  if (bytes.size() < magic.size() + 1 || bytes.substr(0, magic.size()) != magic) {
    return make_error(source_name + " does not start with HDTS; it is not a Hadoop credentials file");
  }
  const auto format = static_cast<unsigned char>(bytes[magic.size()]);
  const auto body = bytes.substr(magic.size() + 1);
  if (format == 0) return parse_writable(body, source_name);
  if (format == 1) return parse_protobuf(body, source_name);
  return make_error(source_name + " uses credentials format " + std::to_string(format) +
                    ", which this version of Spindle does not know (0 and 1 are)");
}

Result<Credentials> Credentials::read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(path.string() + " cannot be read; check HADOOP_TOKEN_FILE_LOCATION and its permissions");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return parse(bytes.str(), path.string());
}

std::string Credentials::serialize(Format format) const {
  std::string out(magic);
  out.push_back(static_cast<char>(format));
  if (format == Format::protobuf) {
    wire::hadoop::CredentialsFile file;
    for (const auto& [alias, token] : tokens) {
      auto* entry = file.add_tokens();
      entry->set_alias(alias);
      auto* proto = entry->mutable_token();
      proto->set_identifier(token.identifier);
      proto->set_password(token.password);
      proto->set_kind(token.kind);
      proto->set_service(token.service);
    }
    for (const auto& [alias, secret] : secrets) {
      auto* entry = file.add_secrets();
      entry->set_alias(alias);
      entry->set_secret(secret);
    }
    ipc::append_delimited(out, file);
    return out;
  }
  append_vlong(out, static_cast<std::int64_t>(tokens.size()));
  for (const auto& [alias, token] : tokens) {
    append_sized(out, alias);
    append_sized(out, token.identifier);
    append_sized(out, token.password);
    append_sized(out, token.kind);
    append_sized(out, token.service);
  }
  append_vlong(out, static_cast<std::int64_t>(secrets.size()));
  for (const auto& [alias, secret] : secrets) {
    append_sized(out, alias);
    append_sized(out, secret);
  }
  return out;
}

}  // namespace spindle::yarn

#include "container/token_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "spindle/yarn/credentials.h"
#include "spindle/yarn/token_service.h"

namespace spindle::container {
namespace {

constexpr auto look_interval = std::chrono::seconds(1);
constexpr std::string_view am_rm_kind = "YARN_AM_RM_TOKEN";

std::int64_t modified_ns(const struct stat& status) {
  return static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec;
}

Result<void> write_whole(int fd, const std::string& bytes, const std::string& path) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const auto n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error("cannot write " + path + ": " + std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
  return {};
}

}  // namespace

TokenFile::TokenFile(std::string path) : path_(std::move(path)) {}

std::map<std::string, yarn::Token> TokenFile::delegation_tokens() {
  std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (modified_ns_ >= 0 && now - looked_ < look_interval) return tokens_;
  looked_ = now;
  struct stat status {};
  if (::stat(path_.c_str(), &status) != 0) return tokens_;
  if (status.st_ino == inode_ && modified_ns(status) == modified_ns_) return tokens_;
  auto credentials = yarn::Credentials::read_file(path_);
  // A file that does not read keeps the tokens read last: they may still work.
  if (!credentials) return tokens_;
  tokens_.clear();
  for (auto& [alias, token] : credentials->tokens) {
    if (token.kind != am_rm_kind) tokens_[alias] = std::move(token);
  }
  inode_ = status.st_ino;
  modified_ns_ = modified_ns(status);
  return tokens_;
}

Result<void> TokenFile::replace_tokens(const std::string& path, const std::map<std::string, yarn::Token>& tokens) {
  auto credentials = yarn::Credentials::read_file(path);
  if (!credentials) return credentials.error();
  for (const auto& [alias, token] : tokens) credentials->tokens[alias] = token;
  const std::string bytes = credentials->serialize();
  const std::string next = path + ".next";
  // Only the job's user reads it, as YARN wrote the one it replaces.
  const int fd = ::open(next.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return make_error("cannot write " + next + ": " + std::strerror(errno));
  auto written = write_whole(fd, bytes, next);
  if (written && ::fsync(fd) != 0) written = make_error("cannot write " + next + ": " + std::strerror(errno));
  ::close(fd);
  if (written && ::rename(next.c_str(), path.c_str()) != 0) {
    written = make_error("cannot put the new tokens in " + path + ": " + std::strerror(errno));
  }
  if (!written) ::unlink(next.c_str());
  return written;
}

std::optional<yarn::Token> resource_manager_token(TokenFile& file, const std::map<std::string, yarn::Token>& started) {
  const auto current = file.delegation_tokens();
  for (const auto* tokens : {&current, &started}) {
    for (const auto& [alias, token] : *tokens) {
      if (token.kind == yarn::rm_delegation_kind) return token;
    }
  }
  return std::nullopt;
}

}  // namespace spindle::container

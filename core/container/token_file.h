#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "spindle/core/result.h"
#include "spindle/yarn/token.h"

namespace spindle::container {

// A container's token file (HADOOP_TOKEN_FILE_LOCATION). On a job that
// refreshes its tokens (docs/architecture.md, "Jobs that outlive their
// tokens") the executor replaces it while the task runs, and every reader
// in the container (the hdfs:// bridge, the output mirror) takes the new
// tokens from it without a restart. Thread-safe.
class TokenFile {
 public:
  explicit TokenFile(std::string path);

  // Its delegation tokens by alias (the AMRM token left out), read again
  // whenever the file was replaced since; looked at once a second at most.
  std::map<std::string, yarn::Token> delegation_tokens();

  const std::string& path() const { return path_; }

  // Puts `tokens` in place of those of the same alias, keeping every other
  // entry (the job's secret, the spec), through a new file beside it renamed
  // over the old one: a reader sees the old file or the new one, never a mix.
  static Result<void> replace_tokens(const std::string& path, const std::map<std::string, yarn::Token>& tokens);

 private:
  std::string path_;
  std::mutex mutex_;
  std::map<std::string, yarn::Token> tokens_;
  ino_t inode_ = 0;
  std::int64_t modified_ns_ = -1;
  std::chrono::steady_clock::time_point looked_{};
};

// The ResourceManager's delegation token: the one in `file` now (the
// master's refresher may have replaced it), else the one in `started`.
std::optional<yarn::Token> resource_manager_token(TokenFile& file, const std::map<std::string, yarn::Token>& started);

}  // namespace spindle::container

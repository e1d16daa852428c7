#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/result.h"

namespace spindle::client {

// What the submitting user's machine keeps about a job: above all its secret,
// without which nobody can read the job's status or events. One JSON file
// per job, readable by its owner only.
struct JobRecord {
  std::string application_id;
  std::string name;
  std::string secret;
  // On an encrypted cluster, the SHA-256 of the job API's certificate, which
  // this machine's connections pin; empty: the API speaks clear HTTP.
  std::string api_certificate_sha256;
  std::string staging;  // where the job's files were staged
  std::int64_t submitted_ms = 0;
  std::string final_status_json;  // the last status seen, once the job ended
};

class JobRecords {
 public:
  // $SPINDLE_STATE_DIR, else $XDG_STATE_HOME/spindle, else ~/.local/state/spindle.
  static std::filesystem::path default_directory();
  explicit JobRecords(std::filesystem::path directory = default_directory()) : directory_(std::move(directory)) {}

  Result<void> save(const JobRecord& record) const;
  Result<JobRecord> load(const std::string& application_id) const;
  std::vector<JobRecord> all() const;

 private:
  std::filesystem::path directory_;
};

}  // namespace spindle::client

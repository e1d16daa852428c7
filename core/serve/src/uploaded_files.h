#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"
#include "spindle/serve/cluster_access.h"

namespace spindle::serve {

// A local file of the spec that this machine has not got.
struct MissingFile {
  std::string key;  // "files" or "archives"
  std::string name;
  std::string source;
};

// The spec's local files under files: and archives: that are not here,
// which a client must send along with the submit.
std::vector<MissingFile> local_files_not_here(const JobSpec& spec);

// The files a client sent with a submit, written where the submit reads
// them: a directory of this server's user alone, removed with this object
// once the job is staged.
class UploadedFiles {
 public:
  // Writes each upload and points the spec's local file of that name at it.
  // An upload the spec has no local file for, or a local file neither sent
  // nor on this machine, is bad input (Error::Kind::not_found, its sentence
  // naming it); a directory that cannot be written is the server's fault.
  static Result<std::unique_ptr<UploadedFiles>> place(JobSpec& spec, const std::vector<UploadedFile>& uploads);
  // Writes the keytab (mode 600, in a directory of mode 700) and makes it
  // the spec's Kerberos login.
  static Result<std::unique_ptr<UploadedFiles>> place_keytab(JobSpec& spec, const UploadedKeytab& keytab);
  ~UploadedFiles();
  UploadedFiles(const UploadedFiles&) = delete;
  UploadedFiles& operator=(const UploadedFiles&) = delete;

 private:
  explicit UploadedFiles(std::filesystem::path directory) : directory_(std::move(directory)) {}
  std::filesystem::path directory_;
};

}  // namespace spindle::serve

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "spindle/client/dashboard_client.h"

namespace spindle::client {

Result<std::vector<FileToSend>, SubmitError> read_files_to_send(const JobSpec& spec) {
  std::vector<FileToSend> files;
  std::uint64_t total = 0;
  for (const auto* list : {&spec.files, &spec.archives}) {
    const char* key = list == &spec.files ? "files" : "archives";
    for (const auto& file : *list) {
      if (file.source.find("://") != std::string::npos) continue;
      const auto where = std::string(key) + ": " + file.name + ": ";
      std::error_code ec;
      const auto size = std::filesystem::file_size(file.source, ec);
      if (ec) {
        return SubmitError{SubmitError::Kind::bad_input,
                           where + "cannot read " + file.source + " on this machine (" + ec.message() +
                               "); through a Spindle server the spec's local files are sent from here"};
      }
      total += size;
      if (total > max_submit_upload_bytes) {
        return SubmitError{SubmitError::Kind::bad_input,
                           where + "the spec's local files come to more than the " +
                               std::to_string(max_submit_upload_bytes / (1024 * 1024)) +
                               " MiB a submit through a Spindle server carries; put the large ones on HDFS and "
                               "name them by their hdfs:// address"};
      }
      std::ifstream in(file.source, std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      if (!in && !in.eof()) {
        return SubmitError{SubmitError::Kind::bad_input,
                           where + "cannot read " + file.source + " on this machine: " + std::strerror(errno)};
      }
      files.push_back({file.name, std::move(bytes).str()});
    }
  }
  return files;
}

}  // namespace spindle::client

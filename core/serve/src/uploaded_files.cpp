#include "uploaded_files.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace spindle::serve {
namespace {

namespace fs = std::filesystem;

bool is_local(const ShippedFile& file) {
  return file.source.find("://") == std::string::npos;
}

ShippedFile* local_file_named(JobSpec& spec, const std::string& name) {
  for (auto* list : {&spec.files, &spec.archives}) {
    for (auto& file : *list) {
      if (file.name == name && is_local(file)) return &file;
    }
  }
  return nullptr;
}

Result<void> write_whole(const fs::path& path, const std::string& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return make_error("cannot write " + path.string() + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < bytes.size()) {
    const auto n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      return make_error("cannot write " + path.string() + ": " + std::strerror(error));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return make_error("cannot write " + path.string() + ": " + std::strerror(errno));
  return {};
}

// A new directory under the temporary one that only this server's user can
// read (mkdtemp makes it so), for what a submit sent.
Result<fs::path> private_directory(const std::string& prefix, const std::string& what) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (!::mkdtemp(pattern.data())) {
    return make_error("The server cannot make a directory for the " + what + " sent with the submit in " +
                      fs::temp_directory_path().string() + ": " + std::strerror(errno));
  }
  return fs::path(pattern);
}

}  // namespace

std::vector<MissingFile> local_files_not_here(const JobSpec& spec) {
  std::vector<MissingFile> missing;
  for (const auto* list : {&spec.files, &spec.archives}) {
    for (const auto& file : *list) {
      std::error_code ec;
      if (is_local(file) && !fs::is_regular_file(file.source, ec)) {
        missing.push_back({list == &spec.files ? "files" : "archives", file.name, file.source});
      }
    }
  }
  return missing;
}

Result<std::unique_ptr<UploadedFiles>> UploadedFiles::place(JobSpec& spec, const std::vector<UploadedFile>& uploads) {
  std::vector<ShippedFile*> targets;
  for (const auto& upload : uploads) {
    auto* file = local_file_named(spec, upload.name);
    if (!file) {
      return Error{"The submit sends a file named " + upload.name +
                       ", but the spec names no local file of that name under files: or archives:; send only those.",
                   Error::Kind::not_found};
    }
    targets.push_back(file);
  }
  auto directory = private_directory("spindle-serve-upload-", "files");
  if (!directory) return directory.error();
  std::unique_ptr<UploadedFiles> placed(new UploadedFiles(std::move(*directory)));
  for (std::size_t i = 0; i < uploads.size(); ++i) {
    // A directory per file keeps its own file name, whose extension says how an archive unpacks.
    const auto directory = placed->directory_ / std::to_string(i);
    std::error_code ec;
    fs::create_directory(directory, ec);
    if (ec) return make_error("The server cannot write " + directory.string() + ": " + ec.message());
    const auto file_name = fs::path(targets[i]->source).filename();
    const auto path = directory / (file_name.empty() ? fs::path(uploads[i].name).filename() : file_name);
    if (auto written = write_whole(path, uploads[i].bytes); !written) {
      return make_error("The server cannot keep the file " + uploads[i].name +
                        " sent with the submit: " + written.error().message);
    }
    targets[i]->source = path.string();
  }
  // The spec was read without looking for its files; those not sent must be on this machine.
  if (const auto missing = local_files_not_here(spec); !missing.empty()) {
    const auto& file = missing.front();
    return Error{file.key + ": " + file.name + ": " + file.source +
                     " was not sent with the submit and is not on the server's machine; send it along, or name it "
                     "by its hdfs:// address.",
                 Error::Kind::not_found};
  }
  return placed;
}

Result<std::unique_ptr<UploadedFiles>> UploadedFiles::place_keytab(JobSpec& spec, const UploadedKeytab& keytab) {
  auto directory = private_directory("spindle-serve-keytab-", "keytab");
  if (!directory) return directory.error();
  std::unique_ptr<UploadedFiles> placed(new UploadedFiles(std::move(*directory)));
  const auto path = placed->directory_ / "job.keytab";
  if (auto written = write_whole(path, keytab.bytes); !written) {
    return make_error("The server cannot keep the keytab sent with the submit: " + written.error().message);
  }
  spec.kerberos = KerberosLogin{keytab.principal, path.string()};
  return placed;
}

UploadedFiles::~UploadedFiles() {
  std::error_code ignored;
  fs::remove_all(directory_, ignored);
}

}  // namespace spindle::serve

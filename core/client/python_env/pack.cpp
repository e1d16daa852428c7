#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "client/python_env/relocation.h"
#include "spindle/client/python_env.h"
#include "spindle/core/sha256.h"

namespace spindle::client {
namespace {

namespace fs = std::filesystem;

// Raised when what goes into an archive or its name changes, so that
// archives packed by an earlier release are not taken for current ones.
constexpr std::string_view pack_format = "spindle-python-env-1";
constexpr std::size_t fingerprint_length = 16;
constexpr std::size_t chunk = 1 << 20;

struct Entry {
  fs::path relative;
  struct stat info {};
  std::string link_target;
};

// Every entry under the root, sorted, links not followed. __pycache__ is
// walked for the archive but not counted in the fingerprint: running the
// environment writes byte code there, which is not a change of what it holds.
Result<std::vector<Entry>> entries_of(const fs::path& root) {
  std::vector<Entry> entries;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::none, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    Entry entry;
    entry.relative = it->path().lexically_relative(root);
    if (::lstat(it->path().c_str(), &entry.info) != 0) {
      return make_error("python_env: cannot read " + it->path().string() + ": " + std::strerror(errno));
    }
    if (S_ISLNK(entry.info.st_mode)) entry.link_target = fs::read_symlink(it->path(), ec).string();
    entries.push_back(std::move(entry));
  }
  if (ec) return make_error("python_env: cannot read " + root.string() + ": " + ec.message());
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.relative < b.relative; });
  return entries;
}

bool in_pycache(const fs::path& relative) {
  return std::any_of(relative.begin(), relative.end(), [](const fs::path& part) { return part == "__pycache__"; });
}

// A directory's size and time change whenever an entry comes or goes, such
// as __pycache__; the entries themselves are counted, so they are left out.
std::string metadata_line(const fs::path& relative, const struct stat& info, const std::string& link_target) {
  const bool directory = S_ISDIR(info.st_mode);
  std::ostringstream line;
  line << relative.string() << '\0' << (info.st_mode & 0170777) << ' ' << (directory ? 0 : info.st_size) << ' '
       << (directory ? 0 : info.st_mtim.tv_sec) << '.' << (directory ? 0 : info.st_mtim.tv_nsec) << ' ' << link_target
       << '\n';
  return line.str();
}

std::string stem_of(const PythonEnvironment& environment) {
  std::string name = environment.path.filename().string();
  for (auto suffix : {".tar.gz", ".tgz", ".zip", ".pex"}) {
    if (name.ends_with(suffix)) name.resize(name.size() - std::string_view(suffix).size());
  }
  for (auto& letter : name) {
    if (!std::isalnum(static_cast<unsigned char>(letter)) && letter != '.' && letter != '_') letter = '-';
  }
  return name.empty() ? "python-env" : name;
}

std::string extension_of(const PythonEnvironment& environment) {
  if (environment.kind == PythonEnvironment::Kind::venv) return ".tar.gz";
  const auto name = environment.path.filename().string();
  for (auto suffix : {".tar.gz", ".tgz", ".zip", ".pex"}) {
    if (name.ends_with(suffix)) return suffix;
  }
  return "";
}

Result<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("python_env: cannot read " + path.string());
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

// Files whose content packing may change: small text files in known places.
bool may_be_rewritten(const fs::path& relative) {
  const auto parent = relative.parent_path();
  const auto name = relative.filename().string();
  return parent == "bin" || relative == "pyvenv.cfg" || name.ends_with(".pth") || name.ends_with(".egg-link") ||
         (name.starts_with("__editable___") && name.ends_with("_finder.py"));
}

class ArchiveWriter {
 public:
  explicit ArchiveWriter(const fs::path& path) : archive_(archive_write_new(), archive_write_free), path_(path) {}

  Result<void> open() {
    archive_write_set_format_pax_restricted(archive_.get());
    archive_write_add_filter_gzip(archive_.get());
    // Level 1: packing a 2 GB environment is bound by compression, and a
    // higher level saves little on shared libraries.
    archive_write_set_filter_option(archive_.get(), "gzip", "compression-level", "1");
    if (archive_write_open_filename(archive_.get(), path_.c_str()) != ARCHIVE_OK) return failure();
    return {};
  }

  Result<void> add(const fs::path& relative, const struct stat& info, const std::string* link_target,
                   const std::string* content, const fs::path& source, const std::function<void(std::uint64_t)>& read) {
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(), archive_entry_free);
    archive_entry_set_pathname(entry.get(), relative.c_str());
    archive_entry_set_mtime(entry.get(), info.st_mtim.tv_sec, info.st_mtim.tv_nsec);
    archive_entry_set_perm(entry.get(), info.st_mode & 07777);
    if (link_target) {
      archive_entry_set_filetype(entry.get(), AE_IFLNK);
      archive_entry_set_symlink(entry.get(), link_target->c_str());
    } else if (S_ISDIR(info.st_mode)) {
      archive_entry_set_filetype(entry.get(), AE_IFDIR);
    } else {
      archive_entry_set_filetype(entry.get(), AE_IFREG);
      archive_entry_set_size(entry.get(), content ? static_cast<la_int64_t>(content->size()) : info.st_size);
    }
    if (archive_write_header(archive_.get(), entry.get()) != ARCHIVE_OK) return failure();
    if (!S_ISREG(info.st_mode) || link_target) return {};
    if (content) {
      if (archive_write_data(archive_.get(), content->data(), content->size()) < 0) return failure();
      read(content->size());
      return {};
    }
    const int fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return make_error("python_env: cannot read " + source.string() + ": " + std::strerror(errno));
    std::vector<char> buffer(chunk);
    la_int64_t left = info.st_size;
    while (left > 0) {
      const ssize_t got = ::read(fd, buffer.data(), buffer.size());
      if (got <= 0) break;
      const auto used = std::min<la_int64_t>(got, left);
      if (archive_write_data(archive_.get(), buffer.data(), static_cast<std::size_t>(used)) < 0) {
        ::close(fd);
        return failure();
      }
      left -= used;
      read(static_cast<std::uint64_t>(used));
    }
    ::close(fd);
    if (left > 0) return make_error("python_env: " + source.string() + " shrank while it was packed; pack it again");
    return {};
  }

  Result<void> close() {
    if (archive_write_close(archive_.get()) != ARCHIVE_OK) return failure();
    return {};
  }

 private:
  Error failure() const {
    const char* why = archive_error_string(archive_.get());
    return Error{"cannot write " + path_.string() + ": " + (why ? why : "unknown error")};
  }

  std::unique_ptr<struct archive, decltype(&archive_write_free)> archive_;
  fs::path path_;
};

Result<void> check_readable_archive(const fs::path& path, bool pex) {
  std::unique_ptr<struct archive, decltype(&archive_read_free)> reader(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(reader.get());
  archive_read_support_format_tar(reader.get());
  archive_read_support_format_zip(reader.get());
  if (archive_read_open_filename(reader.get(), path.c_str(), chunk) != ARCHIVE_OK) {
    return make_error("python_env: " + path.string() + " is a corrupt archive, or none (" +
                      archive_error_string(reader.get()) + "); make it again");
  }
  archive_entry* entry = nullptr;
  std::size_t entries = 0;
  bool pex_info = false;
  int status = ARCHIVE_OK;
  while ((status = archive_read_next_header(reader.get(), &entry)) == ARCHIVE_OK) {
    ++entries;
    if (std::string_view(archive_entry_pathname(entry)) == "PEX-INFO") pex_info = true;
    if (archive_read_data_skip(reader.get()) != ARCHIVE_OK) {
      status = ARCHIVE_FATAL;
      break;
    }
  }
  if (status != ARCHIVE_EOF) {
    const char* why = archive_error_string(reader.get());
    return make_error("python_env: " + path.string() + " is a corrupt archive (after " + std::to_string(entries) +
                      " entries: " + (why ? why : "it ends early") + "); make it again");
  }
  if (entries == 0) return make_error("python_env: " + path.string() + " is an empty archive");
  if (pex && !pex_info)
    return make_error("python_env: " + path.string() + " is a zip file but not a PEX (no PEX-INFO)");
  return {};
}

Result<void> copy_out(const fs::path& archive, const std::optional<fs::path>& output) {
  if (!output) return {};
  std::error_code ec;
  fs::copy_file(archive, *output, fs::copy_options::overwrite_existing, ec);
  if (ec) return make_error("cannot write " + output->string() + ": " + ec.message());
  return {};
}

}  // namespace

namespace {

// One pass over what the environment holds: its entries (a directory), its
// fingerprint, the name it is kept under, and its size.
struct Survey {
  std::vector<Entry> entries;  // empty for a prepared archive
  std::string fingerprint;
  std::string name;
  std::uint64_t bytes = 0;
  std::size_t files = 0;
};

Result<Survey> survey(const PythonEnvironment& environment) {
  if (environment.kind == PythonEnvironment::Kind::conda) {
    return make_error("python_env: " + environment.path.string() +
                      " is a conda environment, which Spindle does not pack yet (its prefix is compiled into "
                      "binaries); pack it with conda-pack (conda pack -p DIR -o env.tar.gz) and name the archive");
  }
  Survey found;
  Sha256 hash;
  hash.add(pack_format);
  if (environment.kind == PythonEnvironment::Kind::venv) {
    auto entries = entries_of(environment.path);
    if (!entries) return entries.error();
    found.entries = std::move(*entries);
    for (const auto& entry : found.entries) {
      if (!in_pycache(entry.relative)) hash.add(metadata_line(entry.relative, entry.info, entry.link_target));
      if (!S_ISREG(entry.info.st_mode)) continue;
      found.bytes += static_cast<std::uint64_t>(entry.info.st_size);
      ++found.files;
    }
  } else {
    struct stat info {};
    if (::stat(environment.path.c_str(), &info) != 0) {
      return make_error("python_env: cannot read " + environment.path.string() + ": " + std::strerror(errno));
    }
    hash.add(metadata_line(environment.path.filename(), info, ""));
    found.bytes = static_cast<std::uint64_t>(info.st_size);
    found.files = 1;
  }
  found.fingerprint = hash.hex_digest().substr(0, fingerprint_length);
  found.name = stem_of(environment) + "-" + found.fingerprint + extension_of(environment);
  return found;
}

}  // namespace

Result<std::string> python_env_fingerprint(const PythonEnvironment& environment) {
  auto found = survey(environment);
  if (!found) return found.error();
  return found->fingerprint;
}

Result<EnvironmentSummary> summarize_python_env(const PythonEnvironment& environment) {
  auto found = survey(environment);
  if (!found) return found.error();
  return EnvironmentSummary{found->name, found->bytes, found->files};
}

Result<PackedEnvironment> pack_python_env(const PythonEnvironment& environment, const PackOptions& options) {
  auto found = survey(environment);
  if (!found) return found.error();
  const auto cache = options.cache_directory.empty() ? default_pack_cache() : options.cache_directory;
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) return make_error("cannot make the cache of packed environments " + cache.string() + ": " + ec.message());
  PackedEnvironment packed;
  packed.name = found->name;

  if (environment.kind != PythonEnvironment::Kind::venv) {
    // Checked once per content; the archive itself is shipped as it is.
    const auto checked = cache / (packed.name + ".checked");
    if (!fs::exists(checked, ec)) {
      if (auto readable = check_readable_archive(environment.path, environment.kind == PythonEnvironment::Kind::pex);
          !readable) {
        return readable.error();
      }
      std::ofstream(checked) << environment.path.string() << "\n";
    }
    packed.archive = environment.path;
    packed.bytes = found->bytes;
    if (auto copied = copy_out(packed.archive, options.output); !copied) return copied.error();
    return packed;
  }

  packed.archive = cache / packed.name;
  if (fs::exists(packed.archive, ec)) {
    packed.bytes = fs::file_size(packed.archive, ec);
    if (auto copied = copy_out(packed.archive, options.output); !copied) return copied.error();
    return packed;
  }
  const auto& entries = found->entries;
  const std::string root = environment.path.string();
  const std::uint64_t total = found->bytes;

  // Every refusal comes before anything is written.
  struct Planned {
    const Entry* entry;
    std::optional<std::string> content;
    std::optional<std::string> link;
  };
  std::vector<Planned> plan;
  for (const auto& entry : entries) {
    Planned planned{&entry, std::nullopt, std::nullopt};
    const auto source = environment.path / entry.relative;
    const auto name = entry.relative.filename().string();
    if (S_ISLNK(entry.info.st_mode)) {
      auto link = relocation::relocated_link(entry.relative, entry.link_target, root);
      if (!link) return make_error("python_env: " + source.string() + " " + link.error().message);
      planned.link = *link;
    } else if (S_ISREG(entry.info.st_mode) && may_be_rewritten(entry.relative)) {
      if (entry.relative.parent_path() == "bin" && relocation::is_unrelocatable_activate(name)) continue;
      auto content = read_file(source);
      if (!content) return content.error();
      if (auto problem = relocation::outside_reference(entry.relative, *content, root)) {
        return make_error("python_env: " + source.string() + " " + *problem);
      }
      if (entry.relative == "pyvenv.cfg") {
        planned.content = relocation::relocated_pyvenv_cfg(*content);
      } else if (entry.relative.parent_path() == "bin") {
        planned.content = relocation::relocated_activate(name, *content, root);
        if (!planned.content) planned.content = relocation::relocated_script(*content, root);
      }
    } else if (!S_ISREG(entry.info.st_mode) && !S_ISDIR(entry.info.st_mode)) {
      continue;  // sockets and pipes left by a running program
    }
    plan.push_back(std::move(planned));
  }

  const auto temporary = cache / (packed.name + ".part-" + std::to_string(::getpid()));
  ArchiveWriter writer(temporary);
  std::uint64_t done = 0;
  auto read = [&](std::uint64_t bytes) {
    done += bytes;
    if (options.progress) options.progress(done, total);
  };
  auto written = writer.open();
  for (std::size_t i = 0; written && i < plan.size(); ++i) {
    const auto& planned = plan[i];
    written =
        writer.add(planned.entry->relative, planned.entry->info, planned.link ? &*planned.link : nullptr,
                   planned.content ? &*planned.content : nullptr, environment.path / planned.entry->relative, read);
  }
  if (written) written = writer.close();
  if (!written) {
    fs::remove(temporary, ec);
    return written.error();
  }
  fs::rename(temporary, packed.archive, ec);
  if (ec) return make_error("cannot keep the packed environment " + packed.archive.string() + ": " + ec.message());
  packed.packed_now = true;
  packed.bytes = fs::file_size(packed.archive, ec);
  if (auto copied = copy_out(packed.archive, options.output); !copied) return copied.error();
  return packed;
}

}  // namespace spindle::client

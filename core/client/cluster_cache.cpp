#include "spindle/client/cluster_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "spindle/core/container_contract.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::client {
namespace {

namespace fs = std::filesystem;

// A name from the user (spindle env rm) must stay inside the cache.
Result<void> check_name(const std::string& name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
    return make_error("\"" + name + "\" is not the name of a cached file; spindle env list shows the environments");
  }
  return {};
}

std::string temporary_name(const std::string& name) {
  return "." + name + ".uploading-" + std::to_string(::getpid());
}

bool is_temporary(const std::string& name) {
  return name.starts_with('.') && name.find(".uploading-") != std::string::npos;
}

// How a cached file reaches a container: its name in the working directory,
// and whether the node unpacks it.
yarn::LocalFile as_resource(CacheArea area, const std::string& name, std::string url, std::int64_t size,
                            std::int64_t time) {
  yarn::LocalFile file;
  if (area == CacheArea::container_binaries) {
    file.name = container_contract::binary_name;
    file.archive = false;
  } else {
    file.name = name.ends_with(".pex") ? container_contract::python_env_pex_link_name
                                       : container_contract::python_env_link_name;
    file.archive = !name.ends_with(".pex");
  }
  file.url = std::move(url);
  file.size = size;
  file.modification_time = time;
  file.kept_for_user = true;
  return file;
}

std::string directory_of(CacheArea area) {
  return area == CacheArea::container_binaries ? "bin" : "envs";
}

class LocalCache final : public ClusterCache {
 public:
  LocalCache(CacheArea area, fs::path directory) : area_(area), directory_(std::move(directory)) {}

  Result<std::optional<yarn::LocalFile>> find(const std::string& name) override {
    if (auto checked = check_name(name); !checked) return checked.error();
    std::error_code ec;
    const auto path = directory_ / name;
    if (!fs::is_regular_file(path, ec)) return std::optional<yarn::LocalFile>();
    return std::optional<yarn::LocalFile>(described(name));
  }
  Result<yarn::LocalFile> upload(const fs::path& archive, const std::string& name,
                                 std::function<void(std::int64_t, std::int64_t)> progress) override {
    if (auto checked = check_name(name); !checked) return checked.error();
    std::error_code ec;
    fs::create_directories(directory_, ec);
    const auto temporary = directory_ / temporary_name(name);
    fs::copy_file(archive, temporary, fs::copy_options::overwrite_existing, ec);
    if (!ec) fs::rename(temporary, directory_ / name, ec);
    if (ec) {
      fs::remove(temporary, ec);
      return make_error("cannot copy " + archive.string() + " to " + directory_.string() + ": " + ec.message());
    }
    const auto size = static_cast<std::int64_t>(fs::file_size(directory_ / name, ec));
    if (progress) progress(size, size);
    return described(name);
  }
  Result<std::vector<CachedFile>> list() override {
    std::vector<CachedFile> found;
    std::error_code ec;
    if (!fs::exists(directory_, ec)) return found;
    for (const auto& entry : fs::directory_iterator(directory_, ec)) {
      const auto name = entry.path().filename().string();
      if (!entry.is_regular_file() || is_temporary(name)) continue;
      found.push_back({name, static_cast<std::int64_t>(entry.file_size()), modification_ms(entry.path())});
    }
    if (ec) return make_error("cannot list " + directory_.string() + ": " + ec.message());
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return found;
  }
  Result<bool> remove(const std::string& name) override {
    if (auto checked = check_name(name); !checked) return checked.error();
    std::error_code ec;
    const bool removed = fs::remove(directory_ / name, ec);
    if (ec) return make_error("cannot remove " + (directory_ / name).string() + ": " + ec.message());
    return removed;
  }
  std::string location() const override { return "file://" + directory_.string(); }

 private:
  static std::int64_t modification_ms(const fs::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return 0;
    return static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000 + info.st_mtim.tv_nsec / 1'000'000;
  }
  yarn::LocalFile described(const std::string& name) const {
    std::error_code ec;
    const auto path = directory_ / name;
    return as_resource(area_, name, "file://" + path.string(), static_cast<std::int64_t>(fs::file_size(path, ec)),
                       modification_ms(path));
  }

  CacheArea area_;
  fs::path directory_;
};

class HdfsCache final : public ClusterCache {
 public:
  HdfsCache(CacheArea area, yarn::WebHdfs hdfs, std::string directory)
      : area_(area), hdfs_(std::move(hdfs)), directory_(std::move(directory)) {}

  Result<std::optional<yarn::LocalFile>> find(const std::string& name) override {
    if (auto checked = check_name(name); !checked) return checked.error();
    auto there = hdfs_.exists(path_of(name));
    if (!there) return there.error();
    if (!*there) return std::optional<yarn::LocalFile>();
    auto file = described(name);
    if (!file) return file.error();
    return std::optional<yarn::LocalFile>(std::move(*file));
  }
  Result<yarn::LocalFile> upload(const fs::path& archive, const std::string& name,
                                 std::function<void(std::int64_t, std::int64_t)> progress) override {
    if (auto checked = check_name(name); !checked) return checked.error();
    if (auto made = hdfs_.mkdirs(directory_, "700"); !made) return made.error();
    const auto temporary = path_of(temporary_name(name));
    if (auto uploaded = hdfs_.upload(archive, temporary, true, progress); !uploaded) return uploaded.error();
    auto renamed = hdfs_.rename(temporary, path_of(name));
    if (!renamed || !*renamed) {
      // Another submit may have put the same content there first; then it serves.
      (void)hdfs_.remove(temporary, false);
      auto there = hdfs_.exists(path_of(name));
      if (!there || !*there) {
        return make_error("cannot rename " + hdfs_.uri(temporary) + " to " + name +
                          (renamed ? std::string() : ": " + renamed.error().message));
      }
    }
    return described(name);
  }
  Result<std::vector<CachedFile>> list() override {
    auto there = hdfs_.exists(directory_);
    if (!there) return there.error();
    std::vector<CachedFile> found;
    if (!*there) return found;
    auto entries = hdfs_.list(directory_);
    if (!entries) return entries.error();
    for (const auto& entry : *entries) {
      if (entry.directory || is_temporary(entry.name)) continue;
      found.push_back({entry.name, entry.length, entry.modification_time});
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return found;
  }
  Result<bool> remove(const std::string& name) override {
    if (auto checked = check_name(name); !checked) return checked.error();
    return hdfs_.remove(path_of(name), false);
  }
  std::string location() const override { return hdfs_.uri(directory_); }

 private:
  std::string path_of(const std::string& name) const { return directory_ + "/" + name; }
  Result<yarn::LocalFile> described(const std::string& name) {
    auto status = hdfs_.status(path_of(name));
    if (!status) return status.error();
    return as_resource(area_, name, hdfs_.uri(path_of(name)), status->length, status->modification_time);
  }

  CacheArea area_;
  yarn::WebHdfs hdfs_;
  std::string directory_;
};

}  // namespace

Result<std::unique_ptr<ClusterCache>> ClusterCache::open(const yarn::HadoopConfiguration& configuration,
                                                         CacheArea area) {
  const auto default_fs = configuration.get_or("fs.defaultFS", "file:///");
  if (default_fs.starts_with("file:")) {
    const char* home = std::getenv("HOME");
    return std::unique_ptr<ClusterCache>(
        std::make_unique<LocalCache>(area, fs::path(home ? home : "/tmp") / ".spindle" / directory_of(area)));
  }
  auto hdfs = yarn::WebHdfs::from_configuration(configuration);
  if (!hdfs) return hdfs.error();
  const auto directory = "/user/" + hdfs->options().user + "/.spindle/" + directory_of(area);
  return std::unique_ptr<ClusterCache>(std::make_unique<HdfsCache>(area, std::move(*hdfs), directory));
}

}  // namespace spindle::client

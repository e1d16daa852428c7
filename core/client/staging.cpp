#include "client/staging.h"

#include "spindle/core/environment.h"

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>

#include "spindle/client/submit.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::client {
namespace {

std::int64_t modification_ms(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return 0;
  return static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000 + info.st_mtim.tv_nsec / 1'000'000;
}

class LocalStaging final : public StagingArea {
 public:
  explicit LocalStaging(std::filesystem::path directory) : directory_(std::move(directory)) {}

  Result<void> create() override {
    std::error_code ec;
    std::filesystem::create_directories(directory_, ec);
    if (ec) return make_error("cannot create the staging directory " + directory_.string() + ": " + ec.message());
    return {};
  }
  Result<yarn::LocalFile> put(const std::filesystem::path& local, const std::string& name, bool archive) override {
    std::error_code ec;
    std::filesystem::copy_file(local, directory_ / name, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) return make_error("cannot stage " + local.string() + " in " + directory_.string() + ": " + ec.message());
    return described(directory_ / name, name, archive);
  }
  Result<yarn::LocalFile> put_private(const std::filesystem::path& local, const std::string& name) override {
    std::error_code ec;
    std::filesystem::permissions(directory_, std::filesystem::perms::owner_all, ec);
    auto put_file = put(local, name, false);
    if (!put_file) return put_file;
    std::filesystem::permissions(directory_ / name,
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_write, ec);
    if (ec) return make_error("cannot make " + (directory_ / name).string() + " private: " + ec.message());
    return put_file;
  }
  Result<yarn::LocalFile> describe(const std::string& uri, const std::string& name, bool archive) override {
    if (!uri.starts_with("file://")) {
      return make_error(uri + " is on another file system than the cluster's default (file:); give a local path");
    }
    return described(uri.substr(7), name, archive);
  }
  Result<void> write_and_read_back(const std::string& name, const std::string& text) override {
    const auto path = directory_ / name;
    { std::ofstream(path, std::ios::binary) << text; }
    std::ifstream in(path, std::ios::binary);
    const std::string back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (back != text) return make_error("the file " + path.string() + " did not come back as it was written");
    return {};
  }
  Result<void> remove() override {
    std::error_code ec;
    std::filesystem::remove_all(directory_, ec);
    if (ec) return make_error("cannot remove " + directory_.string() + ": " + ec.message());
    return {};
  }
  std::string location() const override { return directory_.string(); }
  std::string removal_location() const override { return "file://" + directory_.string(); }

 private:
  static Result<yarn::LocalFile> described(const std::filesystem::path& path, const std::string& name, bool archive) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return make_error("cannot read " + path.string() + ": " + ec.message());
    yarn::LocalFile file;
    file.name = name;
    file.url = "file://" + std::filesystem::absolute(path).string();
    file.size = static_cast<std::int64_t>(size);
    file.modification_time = modification_ms(path);
    file.archive = archive;
    return file;
  }

  std::filesystem::path directory_;
};

class HdfsStaging final : public StagingArea {
 public:
  HdfsStaging(yarn::WebHdfs hdfs, std::string directory) : hdfs_(std::move(hdfs)), directory_(std::move(directory)) {}

  Result<void> create() override { return hdfs_.mkdirs(directory_, "700"); }
  Result<yarn::LocalFile> put(const std::filesystem::path& local, const std::string& name, bool archive) override {
    const auto path = directory_ + "/" + name;
    if (auto uploaded = hdfs_.upload(local, path, true); !uploaded) return uploaded.error();
    return described(path, name, archive);
  }
  Result<yarn::LocalFile> put_private(const std::filesystem::path& local, const std::string& name) override {
    const auto path = directory_ + "/" + name;
    // The directory is 700 from the start, so the moment before the file's
    // own permission is set shows it to nobody else either.
    if (auto uploaded = hdfs_.upload(local, path, true); !uploaded) return uploaded.error();
    if (auto made_private = hdfs_.set_permission(path, "600"); !made_private) return made_private.error();
    return described(path, name, false);
  }
  Result<yarn::LocalFile> describe(const std::string& uri, const std::string& name, bool archive) override {
    if (!uri.starts_with("hdfs://")) {
      return make_error(uri + " is not on HDFS, the cluster's file system; give a local path or an hdfs:// URI");
    }
    return described(hdfs_path_of(uri), name, archive);
  }
  Result<void> write_and_read_back(const std::string& name, const std::string& text) override {
    const auto path = directory_ + "/" + name;
    if (auto written = hdfs_.write(path, text, true); !written) return written.error();
    auto back = hdfs_.read_all(path);
    if (!back) return back.error();
    if (*back != text) return make_error(hdfs_.uri(path) + " did not come back as it was written");
    return {};
  }
  Result<void> remove() override {
    auto removed = hdfs_.remove(directory_, true);
    if (!removed) return removed.error();
    return {};
  }
  std::string location() const override { return hdfs_.uri(directory_); }
  std::string removal_location() const override {
    return (hdfs_.options().https ? "https://" : "http://") + hdfs_.options().namenode_http + "/webhdfs/v1" +
           directory_ + "?user.name=" + hdfs_.options().user;
  }

 private:
  Result<yarn::LocalFile> described(const std::string& path, const std::string& name, bool archive) {
    auto status = hdfs_.status(path);
    if (!status) return status.error();
    yarn::LocalFile file;
    file.name = name;
    file.url = hdfs_.uri(path);
    file.size = status->length;
    file.modification_time = status->modification_time;
    file.archive = archive;
    return file;
  }

  yarn::WebHdfs hdfs_;
  std::string directory_;
};

}  // namespace

Result<std::unique_ptr<StagingArea>> StagingArea::open(const yarn::HadoopConfiguration& configuration,
                                                       const std::string& application_id) {
  const auto default_fs = configuration.get_or("fs.defaultFS", "file:///");
  if (default_fs.starts_with("file:")) {
    const char* home = std::getenv("HOME");
    return std::unique_ptr<StagingArea>(
        std::make_unique<LocalStaging>(std::filesystem::path(home ? home : "/tmp") / ".spindle" / application_id));
  }
  auto hdfs = yarn::WebHdfs::from_configuration(configuration);
  if (!hdfs) return hdfs.error();
  const auto directory = "/user/" + hdfs->options().user + "/.spindle/" + application_id;
  return std::unique_ptr<StagingArea>(std::make_unique<HdfsStaging>(std::move(*hdfs), directory));
}

StagedItems stage_all(StagingArea& area, const std::vector<StagingItem>& items, std::size_t at_once) {
  StagedItems staged;
  staged.files.assign(items.size(), Result<yarn::LocalFile>(make_error("not staged: an earlier file failed")));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex failure_mutex;
  auto work = [&] {
    while (!failed) {
      const auto index = next++;
      if (index >= items.size()) return;
      const auto& item = items[index];
      auto result = item.remote() ? area.describe(item.source, item.name, item.archive)
                                  : area.put(item.source, item.name, item.archive);
      if (!result) {
        std::lock_guard lock(failure_mutex);
        if (!staged.first_failure) staged.first_failure = index;
        failed = true;
      }
      staged.files[index] = std::move(result);
    }
  };
  std::vector<std::thread> workers;
  const auto threads = std::min(std::max<std::size_t>(at_once, 1), items.size());
  for (std::size_t i = 1; i < threads; ++i) workers.emplace_back(work);
  work();
  for (auto& worker : workers) worker.join();
  return staged;
}

Result<bool> remove_staging_left_behind(const yarn::HadoopConfiguration& configuration,
                                        const std::string& application_id, const std::string& location) {
  // The record is only a file on this machine: never remove more than a job's own directory.
  if (!location.ends_with("/.spindle/" + application_id)) {
    return make_error("the recorded staging location " + location + " is not a staging directory of " + application_id +
                      ", so it was left alone");
  }
  if (!location.starts_with("hdfs://")) {
    std::error_code ec;
    const auto removed = std::filesystem::remove_all(location, ec);
    if (ec) return make_error("cannot remove the staging directory " + location + ": " + ec.message());
    return removed > 0;
  }
  auto hdfs = yarn::WebHdfs::from_configuration(configuration);
  if (!hdfs) return hdfs.error();
  const auto authority_end = location.find('/', std::string_view("hdfs://").size());
  const auto path = authority_end == std::string::npos ? std::string() : location.substr(authority_end);
  // Another cluster's directory cannot be reached through this one's NameNode.
  if (path.empty() || hdfs->uri(path) != location) {
    return make_error("the staging directory " + location + " is not on this cluster's file system " + hdfs->uri("/"));
  }
  return hdfs->remove(path, true);
}

}  // namespace spindle::client

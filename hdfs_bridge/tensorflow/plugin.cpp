// TensorFlow's hdfs:// as a modular file system plugin
// (docs/architecture.md, "hdfs:// inside the task"). TensorFlow hands every
// operation a whole URI (translate_name keeps it whole, so the nameservice
// survives); the bridge process carries it out.

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bridge_client.h"
#include "plugin_mutex.h"
#include "tf_filesystem_abi.h"

namespace {

using spindle::hdfs_bridge::BridgeClient;
using spindle::hdfs_bridge::Operation;
using spindle::hdfs_bridge::Outcome;
using spindle::hdfs_bridge::PluginLock;
using spindle::hdfs_bridge::PluginMutex;
using spindle::hdfs_bridge::Reply;
using spindle::hdfs_bridge::Request;

// TensorFlow's status setter, found in the TensorFlow library the process
// has loaded already (the plugin does not link TensorFlow, so that it loads
// into any version with this interface).
using SetStatus = void (*)(TF_Status*, TF_Code, const char*);
SetStatus set_status_function = nullptr;

void set_status(TF_Status* status, TF_Code code, const std::string& message) {
  if (set_status_function && status) set_status_function(status, code, message.c_str());
}

void ok(TF_Status* status) {
  set_status(status, TF_OK, "");
}

TF_Code code_of(Outcome outcome) {
  switch (outcome) {
    case Outcome::ok: return TF_OK;
    case Outcome::not_found: return TF_NOT_FOUND;
    case Outcome::already_exists: return TF_ALREADY_EXISTS;
    case Outcome::permission_denied: return TF_PERMISSION_DENIED;
    case Outcome::unauthenticated: return TF_UNAUTHENTICATED;
    case Outcome::invalid: return TF_INVALID_ARGUMENT;
    case Outcome::not_empty: return TF_FAILED_PRECONDITION;
    case Outcome::unavailable: return TF_UNAVAILABLE;
    case Outcome::failed: return TF_INTERNAL;
  }
  return TF_INTERNAL;
}

// Carries out a request; false (with the status set, naming the URI) when it failed.
bool perform(const Request& request, Reply& reply, TF_Status* status) {
  reply = BridgeClient::instance().call(request);
  if (reply.outcome == Outcome::ok) {
    ok(status);
    return true;
  }
  set_status(status, code_of(reply.outcome), request.path + ": " + reply.message);
  return false;
}

Request request_for(Operation operation, const char* uri) {
  Request request;
  request.operation = operation;
  request.path = uri;
  return request;
}

bool stat_of(const char* uri, Reply& reply, TF_Status* status) {
  return perform(request_for(Operation::stat, uri), reply, status);
}

char* copy_of(const std::string& text) {
  auto* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy) std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

// ---- reading ----

// Reads ahead of the reader: a window that doubles while reads follow each
// other (TFRecord streams, up to 16 MiB a request) and falls back to
// 256 KiB on a jump (a checkpoint's index, SavedModel's protos). Nothing is
// known of the file's end beyond the last answer: a file that grows (an event
// file TensorBoard follows) is read on.
class RandomAccessFile {
 public:
  explicit RandomAccessFile(std::string uri) : uri_(std::move(uri)) {}

  std::int64_t read(std::uint64_t offset, std::size_t n, char* buffer, TF_Status* status) {
    PluginLock lock(mutex_);
    std::size_t done = 0;
    while (done < n) {
      const std::uint64_t at = offset + done;
      if (at >= cached_offset_ && at < cached_offset_ + cached_.size()) {
        const std::size_t available = static_cast<std::size_t>(cached_offset_ + cached_.size() - at);
        const std::size_t take = std::min(available, n - done);
        std::memcpy(buffer + done, cached_.data() + (at - cached_offset_), take);
        done += take;
        continue;
      }
      window_ = at == next_ ? std::min(window_ * 2, max_window) : min_window;
      Request request = request_for(Operation::read, uri_.c_str());
      request.offset = static_cast<std::int64_t>(at);
      request.length = static_cast<std::int64_t>(std::max(window_, std::min(n - done, max_window)));
      Reply reply;
      if (!perform(request, reply, status)) return -1;
      next_ = at + reply.data.size();
      cached_offset_ = at;
      cached_ = std::move(reply.data);
      if (cached_.empty()) break;
    }
    if (done < n) {
      set_status(status, TF_OUT_OF_RANGE, "Read less bytes than requested");
    } else {
      ok(status);
    }
    return static_cast<std::int64_t>(done);
  }

 private:
  static constexpr std::size_t min_window = 256 * 1024;
  static constexpr std::size_t max_window = 16 * 1024 * 1024;
  std::string uri_;
  PluginMutex mutex_;
  std::string cached_;
  std::uint64_t cached_offset_ = 0;
  std::uint64_t next_ = 0;
  std::size_t window_ = min_window;
};

// ---- writing ----

// Where a written file waits for its flush or close: SPINDLE_HDFS_SPOOL (a
// task's directory, which YARN removes with the container), else TMPDIR, else /tmp.
std::string spool_directory() {
  for (const char* name : {"SPINDLE_HDFS_SPOOL", "TMPDIR"}) {
    if (const char* value = std::getenv(name); value && *value) return value;
  }
  return "/tmp";
}

// Keeps what is appended in a spool file on the node's disk until a flush
// or a close; then the bridge streams it into the file in HDFS in one
// request (a new file's CREATE, an APPEND after that), which it can make
// again from the spool after a NameNode failover. A new file appears in HDFS
// at its first flush or its close, so that each file costs HDFS one
// creation (about 50 ms on a quiet cluster, the most of a small file's
// write); after each flush it is closed there with every byte so far
// visible to readers. Without a
// spool file (a full or read-only disk) the bytes wait in memory instead,
// 64 MiB at most at a time.
class WritableFile {
 public:
  // `length`: what an existing file holds already (appending); -1 for a new file.
  WritableFile(std::string uri, std::int64_t length)
      : uri_(std::move(uri)), written_(std::max<std::int64_t>(length, 0)), in_hdfs_(length >= 0) {
    std::string name = spool_directory() + "/spindle-hdfs-XXXXXX";
    spool_fd_ = ::mkstemp(name.data());
    if (spool_fd_ >= 0) {
      ::fcntl(spool_fd_, F_SETFD, FD_CLOEXEC);
      spool_path_ = std::move(name);
    }
  }
  ~WritableFile() {
    if (spool_fd_ < 0) return;
    ::close(spool_fd_);
    ::unlink(spool_path_.c_str());
  }
  WritableFile(const WritableFile&) = delete;
  WritableFile& operator=(const WritableFile&) = delete;

  void append(const char* data, std::size_t n, TF_Status* status) {
    PluginLock lock(mutex_);
    if (spool_fd_ >= 0) {
      for (std::size_t done = 0; done < n;) {
        const ssize_t wrote = ::write(spool_fd_, data + done, n - done);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote < 0) {
          return set_status(status, TF_RESOURCE_EXHAUSTED,
                            uri_ + ": cannot keep what is written in the spool file " + spool_path_ + ": " +
                                std::strerror(errno) + " (set SPINDLE_HDFS_SPOOL to a directory with room)");
        }
        done += static_cast<std::size_t>(wrote);
      }
      spooled_ += static_cast<std::int64_t>(n);
      return ok(status);
    }
    pending_.append(data, n);
    if (pending_.size() < piece) return ok(status);
    send(status);
  }
  std::int64_t tell(TF_Status* status) {
    PluginLock lock(mutex_);
    ok(status);
    return written_ + spooled_ + static_cast<std::int64_t>(pending_.size());
  }
  void flush(TF_Status* status) {
    PluginLock lock(mutex_);
    if (spooled_ == 0 && pending_.empty() && in_hdfs_) return ok(status);
    send(status);
  }
  // A file dropped without a close still gets what was written to it, as a
  // local file's would; a failure then has nobody to be returned to, so it is said on stderr.
  void write_what_is_left() {
    PluginLock lock(mutex_);
    if (spooled_ == 0 && pending_.empty() && in_hdfs_) return;
    const std::int64_t left = spooled_ + static_cast<std::int64_t>(pending_.size());
    const Reply reply = transmit();
    if (reply.outcome != Outcome::ok) {
      std::fprintf(stderr,
                   "spindle hdfs plugin: %s was dropped without a close, and its last %lld bytes were lost: %s\n",
                   uri_.c_str(), static_cast<long long>(left), reply.message.c_str());
    }
  }
  void send(TF_Status* status) {
    const Reply reply = transmit();
    if (reply.outcome == Outcome::ok) return ok(status);
    set_status(status, code_of(reply.outcome), uri_ + ": " + reply.message);
  }

 private:
  // What waits goes to HDFS; it is kept when that fails, so that a flush the caller tries again sends it.
  Reply transmit() {
    Request request = request_for(Operation::write, uri_.c_str());
    request.offset = written_;
    if (spooled_ > 0) {
      request.second_path = spool_path_;
      request.length = spooled_;
    } else {
      request.data = std::move(pending_);
      pending_.clear();
    }
    Reply reply = BridgeClient::instance().call(request);
    if (reply.outcome != Outcome::ok) {
      if (spooled_ == 0) pending_.insert(0, request.data);
      return reply;
    }
    in_hdfs_ = true;
    if (spooled_ > 0) {
      written_ += spooled_;
      spooled_ = 0;
      if (::ftruncate(spool_fd_, 0) != 0 || ::lseek(spool_fd_, 0, SEEK_SET) != 0) {
        ::close(spool_fd_);
        ::unlink(spool_path_.c_str());
        spool_fd_ = -1;  // in memory from now on
      }
    } else {
      written_ += static_cast<std::int64_t>(request.data.size());
    }
    return reply;
  }

  static constexpr std::size_t piece = 64 * 1024 * 1024;
  std::string uri_;
  PluginMutex mutex_;
  int spool_fd_ = -1;
  std::string spool_path_;
  std::int64_t spooled_ = 0;  // bytes in the spool file, not yet in HDFS
  std::string pending_;       // without a spool file: bytes in memory, not yet in HDFS
  std::int64_t written_;      // bytes in HDFS
  bool in_hdfs_;              // whether the file is there yet
};

// ---- the tables ----

void random_access_cleanup(TF_RandomAccessFile* file) {
  delete static_cast<RandomAccessFile*>(file->plugin_file);
}

std::int64_t random_access_read(const TF_RandomAccessFile* file, std::uint64_t offset, std::size_t n, char* buffer,
                                TF_Status* status) {
  return static_cast<RandomAccessFile*>(file->plugin_file)->read(offset, n, buffer, status);
}

void writable_cleanup(TF_WritableFile* file) {
  auto* writable = static_cast<WritableFile*>(file->plugin_file);
  writable->write_what_is_left();
  delete writable;
}
void writable_append(const TF_WritableFile* file, const char* data, std::size_t n, TF_Status* status) {
  static_cast<WritableFile*>(file->plugin_file)->append(data, n, status);
}
std::int64_t writable_tell(const TF_WritableFile* file, TF_Status* status) {
  return static_cast<WritableFile*>(file->plugin_file)->tell(status);
}
void writable_flush(const TF_WritableFile* file, TF_Status* status) {
  static_cast<WritableFile*>(file->plugin_file)->flush(status);
}

void filesystem_init(TF_Filesystem* filesystem, TF_Status* status) {
  filesystem->plugin_filesystem = nullptr;
  ok(status);
}
void filesystem_cleanup(TF_Filesystem*) {}

void new_random_access_file(const TF_Filesystem*, const char* uri, TF_RandomAccessFile* file, TF_Status* status) {
  // Opening a file that is not there fails at once, as TensorFlow's own file systems do.
  Reply reply;
  if (!stat_of(uri, reply, status)) return;
  if (reply.status.directory) {
    return set_status(status, TF_FAILED_PRECONDITION, std::string(uri) + " is a directory, not a file");
  }
  file->plugin_file = new RandomAccessFile(uri);
}

// The file itself is made at its first flush or close, with the directories it needs, as HDFS's own
// clients make them (and TensorFlow's object-store file systems behave).
void new_writable_file(const TF_Filesystem*, const char* uri, TF_WritableFile* file, TF_Status* status) {
  ok(status);
  file->plugin_file = new WritableFile(uri, -1);
}

void new_appendable_file(const TF_Filesystem* filesystem, const char* uri, TF_WritableFile* file, TF_Status* status) {
  Reply reply;
  if (!stat_of(uri, reply, status)) {
    // Appending to a file that is not there makes it.
    return new_writable_file(filesystem, uri, file, status);
  }
  file->plugin_file = new WritableFile(uri, reply.status.length);
}

void writable_close(const TF_WritableFile* file, TF_Status* status) {
  writable_flush(file, status);
}

void create_dir(const TF_Filesystem*, const char* uri, TF_Status* status) {
  Reply reply;
  if (perform(request_for(Operation::stat, uri), reply, status)) {
    return set_status(status, TF_ALREADY_EXISTS, std::string(uri) + " exists already");
  }
  perform(request_for(Operation::make_directories, uri), reply, status);
}

void recursively_create_dir(const TF_Filesystem*, const char* uri, TF_Status* status) {
  Reply reply;
  perform(request_for(Operation::make_directories, uri), reply, status);
}

bool remove(const char* uri, bool recursive, TF_Status* status) {
  Request request = request_for(Operation::remove, uri);
  request.flag = recursive;
  Reply reply;
  if (!perform(request, reply, status)) return false;
  if (reply.flag) return true;
  set_status(status, TF_NOT_FOUND, std::string(uri) + " is not in HDFS");
  return false;
}

void delete_file(const TF_Filesystem*, const char* uri, TF_Status* status) {
  remove(uri, false, status);
}
void delete_dir(const TF_Filesystem*, const char* uri, TF_Status* status) {
  remove(uri, false, status);
}

void delete_recursively(const TF_Filesystem*, const char* uri, std::uint64_t* undeleted_files,
                        std::uint64_t* undeleted_dirs, TF_Status* status) {
  *undeleted_files = 0;
  *undeleted_dirs = 0;
  Reply reply;
  if (!stat_of(uri, reply, status)) {
    *undeleted_dirs = 1;
    return;
  }
  if (!remove(uri, true, status)) *undeleted_dirs = 1;
}

void rename_file(const TF_Filesystem*, const char* from, const char* to, TF_Status* status) {
  Request request = request_for(Operation::rename, from);
  request.second_path = to;
  Reply reply;
  perform(request, reply, status);
}

void path_exists(const TF_Filesystem*, const char* uri, TF_Status* status) {
  Reply reply;
  stat_of(uri, reply, status);
}

void stat(const TF_Filesystem*, const char* uri, TF_FileStatistics* statistics, TF_Status* status) {
  Reply reply;
  if (!stat_of(uri, reply, status)) return;
  statistics->length = reply.status.directory ? 0 : reply.status.length;
  statistics->mtime_nsec = reply.status.modified_ms * 1'000'000;
  statistics->is_directory = reply.status.directory;
}

bool is_directory(const TF_Filesystem*, const char* uri, TF_Status* status) {
  Reply reply;
  if (!stat_of(uri, reply, status)) return false;
  if (!reply.status.directory) set_status(status, TF_FAILED_PRECONDITION, std::string(uri) + " is not a directory");
  return reply.status.directory;
}

std::int64_t get_file_size(const TF_Filesystem*, const char* uri, TF_Status* status) {
  Reply reply;
  if (!stat_of(uri, reply, status)) return -1;
  return reply.status.length;
}

char* translate_name(const TF_Filesystem*, const char* uri) {
  return copy_of(uri);
}

int get_children(const TF_Filesystem*, const char* uri, char*** entries, TF_Status* status) {
  Reply reply;
  if (!perform(request_for(Operation::list, uri), reply, status)) return -1;
  // HDFS lists a file as itself, under an empty name.
  if (reply.entries.size() == 1 && reply.entries.front().name.empty()) {
    set_status(status, TF_FAILED_PRECONDITION, std::string(uri) + " is not a directory");
    return -1;
  }
  const int count = static_cast<int>(reply.entries.size());
  *entries = static_cast<char**>(std::malloc(sizeof(char*) * std::max(count, 1)));
  for (int i = 0; i < count; ++i) (*entries)[i] = copy_of(reply.entries[static_cast<std::size_t>(i)].name);
  return count;
}

template <typename Table>
Table* table() {
  auto* made = static_cast<Table*>(std::calloc(1, sizeof(Table)));
  return made;
}

void register_scheme(TF_FilesystemPluginOps& ops, const char* scheme) {
  ops.scheme = copy_of(scheme);
  ops.filesystem_ops_size = sizeof(TF_FilesystemOps);
  ops.random_access_file_ops_size = sizeof(TF_RandomAccessFileOps);
  ops.writable_file_ops_size = sizeof(TF_WritableFileOps);
  ops.read_only_memory_region_ops_size = sizeof(TF_ReadOnlyMemoryRegionOps);

  auto* files = table<TF_RandomAccessFileOps>();
  files->cleanup = random_access_cleanup;
  files->read = random_access_read;
  ops.random_access_file_ops = files;

  auto* writable = table<TF_WritableFileOps>();
  writable->cleanup = writable_cleanup;
  writable->append = writable_append;
  writable->tell = writable_tell;
  writable->flush = writable_flush;
  writable->sync = writable_flush;
  writable->close = writable_close;
  ops.writable_file_ops = writable;

  auto* filesystem = table<TF_FilesystemOps>();
  filesystem->init = filesystem_init;
  filesystem->cleanup = filesystem_cleanup;
  filesystem->new_random_access_file = new_random_access_file;
  filesystem->new_writable_file = new_writable_file;
  filesystem->new_appendable_file = new_appendable_file;
  filesystem->create_dir = create_dir;
  filesystem->recursively_create_dir = recursively_create_dir;
  filesystem->delete_file = delete_file;
  filesystem->delete_dir = delete_dir;
  filesystem->delete_recursively = delete_recursively;
  filesystem->rename_file = rename_file;
  filesystem->path_exists = path_exists;
  filesystem->stat = stat;
  filesystem->is_directory = is_directory;
  filesystem->get_file_size = get_file_size;
  filesystem->translate_name = translate_name;
  filesystem->get_children = get_children;
  ops.filesystem_ops = filesystem;
}

// dlopen and dlsym as every glibc since 2.2.5 names them (2.34 moved them
// into libc.so.6 under a version of its own, which older ones do not have).
// The directive binds the references of this file alone, where the only calls are.
__asm__(".symver dlopen,dlopen@GLIBC_2.2.5");
__asm__(".symver dlsym,dlsym@GLIBC_2.2.5");

SetStatus find_set_status() {
  if (auto* found = ::dlsym(RTLD_DEFAULT, "TF_SetStatus")) return reinterpret_cast<SetStatus>(found);
  // TensorFlow loads its libraries without making their symbols global.
  for (const char* library : {"libtensorflow_framework.so.2", "libtensorflow_framework.so"}) {
    if (void* handle = ::dlopen(library, RTLD_LAZY | RTLD_NOLOAD)) {
      if (auto* found = ::dlsym(handle, "TF_SetStatus")) return reinterpret_cast<SetStatus>(found);
    }
  }
  return nullptr;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void TF_InitPlugin(TF_FilesystemPluginInfo* info) {
  info->plugin_memory_allocate = std::malloc;
  info->plugin_memory_free = std::free;
  set_status_function = find_set_status();
  if (!set_status_function) {
    std::fprintf(stderr,
                 "spindle hdfs plugin: this process has no TensorFlow library with TF_SetStatus loaded; "
                 "hdfs:// is not registered (load the plugin with tf.experimental.register_filesystem_plugin "
                 "after importing TensorFlow)\n");
    info->num_schemes = 0;
    info->ops = nullptr;
    return;
  }
  info->num_schemes = 1;
  info->ops = static_cast<TF_FilesystemPluginOps*>(std::calloc(1, sizeof(TF_FilesystemPluginOps)));
  register_scheme(info->ops[0], "hdfs");
}

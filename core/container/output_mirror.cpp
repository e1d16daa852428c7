#include "container/output_mirror.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <vector>

namespace spindle::container {
namespace {

namespace fs = std::filesystem;

constexpr const char* transient_prefix = ".spindle-";
// How long a deletion waits before it is passed on. Whoever removes a whole directory (YARN
// cleaning a container's directory away) deletes the files in it first and the directory last;
// only once the directory is gone can that be told from the command deleting its files.
constexpr auto deletion_settle = std::chrono::seconds(1);
constexpr std::uint32_t watched_events =
    IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_MODIFY | IN_DELETE_SELF | IN_ONLYDIR;

std::string join(const std::string& directory, const std::string& name) {
  return directory.empty() ? name : directory + "/" + name;
}

std::string parent_of(const std::string& relative) {
  const auto slash = relative.rfind('/');
  return slash == std::string::npos ? "" : relative.substr(0, slash);
}

// TensorFlow keeps its event files open while it trains.
bool is_event_file(const std::string& relative) {
  return relative.substr(relative.rfind('/') + 1).find("tfevents") != std::string::npos;
}

// TensorFlow's atomic writes (the "checkpoint" state file among them) go
// through "<name>.tmp<32 hex digits>" first.
bool is_atomic_write_temporary(std::string_view part) {
  const auto at = part.rfind(".tmp");
  if (at == std::string_view::npos || part.size() - at - 4 != 32) return false;
  return std::all_of(part.begin() + static_cast<std::ptrdiff_t>(at) + 4, part.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

// What a writer renames into place once whole (TensorFlow's checkpoint
// parts in "<prefix>_temp/" directories and "*.tempstate*" files), and the
// mirror's own files: copied never; the final name follows on its own.
bool is_writers_temporary(const std::string& relative) {
  std::size_t start = 0;
  while (start <= relative.size()) {
    const auto end = std::min(relative.find('/', start), relative.size());
    const std::string_view part(relative.data() + start, end - start);
    if (part.starts_with(transient_prefix) || part.ends_with("_temp") || part.find("_temp_") != std::string::npos ||
        part.find(".tempstate") != std::string::npos || is_atomic_write_temporary(part)) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

// Whether some process has the file open for writing: the kernel grants a read lease only when
// none has. Where no lease can be taken at all (a file of another owner, a file system without
// leases), nobody is taken to have.
bool open_for_writing(int fd) {
  // A writer opening the file while the lease is held breaks it, and the kernel signals the
  // holder: SIGIO unless told otherwise, which ends the process. SIGURG is ignored unless handled.
  (void)::fcntl(fd, F_SETSIG, SIGURG);
  if (::fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
    ::fcntl(fd, F_SETLEASE, F_UNLCK);
    return false;
  }
  return errno == EAGAIN;
}

struct LocalStat {
  std::uint64_t size = 0;
  std::int64_t mtime = 0;
};

std::optional<LocalStat> regular_file(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return LocalStat{static_cast<std::uint64_t>(st.st_size),
                   static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

}  // namespace

bool OutputMirror::is_transient_name(const std::string& name) {
  return name.starts_with(transient_prefix);
}

OutputMirror::OutputMirror(yarn::WebHdfs hdfs, Options options) : hdfs_(std::move(hdfs)), options_(std::move(options)) {
  while (options_.remote.size() > 1 && options_.remote.back() == '/') options_.remote.pop_back();
}

OutputMirror::~OutputMirror() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
  if (inotify_ >= 0) ::close(inotify_);
}

Result<std::unique_ptr<OutputMirror>> OutputMirror::start(yarn::WebHdfs hdfs, Options options) {
  std::unique_ptr<OutputMirror> mirror(new OutputMirror(std::move(hdfs), std::move(options)));
  std::error_code ec;
  fs::create_directories(mirror->options_.local, ec);
  if (ec)
    return make_error("cannot make the output directory " + mirror->options_.local.string() + ": " + ec.message());
  if (auto made = mirror->hdfs_.mkdirs(mirror->options_.remote); !made) return made.error();
  mirror->remote_dirs_.insert(mirror->options_.remote);
  if (auto restored = mirror->pull(); !restored) {
    return make_error("cannot copy the job's output in from HDFS: " + restored.error().message);
  }
  mirror->inotify_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (mirror->inotify_ < 0) {
    return make_error(std::string("cannot follow the output directory (inotify): ") + std::strerror(errno));
  }
  mirror->watch_tree(mirror->options_.local);
  mirror->closed_.clear();  // what the restore put there is in HDFS already
  mirror->thread_ = std::thread([raw = mirror.get()] { raw->follow(); });
  return mirror;
}

void OutputMirror::say(const std::string& line) const {
  if (options_.log) options_.log(line);
}

std::string OutputMirror::remote_path(const std::string& relative) const {
  return relative.empty() ? options_.remote : options_.remote + "/" + relative;
}

bool OutputMirror::changed_since_known(const std::string& relative) const {
  const auto now = regular_file(options_.local / relative);
  if (!now) return false;
  const auto known = known_.find(relative);
  return known == known_.end() || known->second.size != now->size || known->second.local_mtime != now->mtime;
}

// Adds a watch on a directory and everything below it; what is already in
// a directory new to the watch was written before it could be seen.
void OutputMirror::watch_tree(const fs::path& directory) {
  std::error_code ec;
  const auto relative_of = [&](const fs::path& path) {
    const auto relative = path.lexically_relative(options_.local).generic_string();
    return relative == "." ? std::string() : relative;
  };
  const auto add = [&](const fs::path& path) {
    const int watch = ::inotify_add_watch(inotify_, path.c_str(), watched_events);
    if (watch >= 0) watches_[watch] = relative_of(path);
  };
  add(directory);
  // In the order they were last written, as their closes would have come: a
  // directory lists its files in no useful order, and a file sent before an
  // older one breaks "what HDFS holds is all up to some file" (a checkpoint's
  // index before its data) if the task is cut off between the two.
  std::vector<std::pair<std::int64_t, std::string>> found;
  for (fs::recursive_directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const auto relative = relative_of(it->path());
    if (is_writers_temporary(relative)) continue;
    if (it->is_directory(ec)) {
      add(it->path());
    } else if (changed_since_known(relative)) {
      if (const auto stat = regular_file(it->path())) found.emplace_back(stat->mtime, relative);
    }
  }
  std::sort(found.begin(), found.end());
  for (const auto& [mtime, relative] : found) {
    mark_closed(relative);
    scanned_.insert(relative);
  }
}

void OutputMirror::mark_closed(const std::string& relative) {
  unmark_closed(relative);
  closed_.push_back(relative);
}

void OutputMirror::unmark_closed(const std::string& relative) {
  closed_.erase(std::remove(closed_.begin(), closed_.end(), relative), closed_.end());
}

bool OutputMirror::is_closed(const std::string& relative) const {
  return std::find(closed_.begin(), closed_.end(), relative) != closed_.end();
}

void OutputMirror::read_events() {
  alignas(inotify_event) char buffer[64 * 1024];
  while (true) {
    const ssize_t got = ::read(inotify_, buffer, sizeof buffer);
    if (got <= 0) return;
    for (ssize_t at = 0; at < got;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      if (event->mask & IN_Q_OVERFLOW) {
        // Events were lost: look at everything again.
        watch_tree(options_.local);
        continue;
      }
      if (event->mask & IN_IGNORED) {
        watches_.erase(event->wd);
        continue;
      }
      const auto directory = watches_.find(event->wd);
      if (directory == watches_.end() || event->len == 0) continue;
      const std::string relative = join(directory->second, event->name);
      if (is_writers_temporary(relative)) continue;
      if (event->mask & IN_ISDIR) {
        if (event->mask & (IN_CREATE | IN_MOVED_TO)) watch_tree(options_.local / relative);
        if (event->mask & (IN_DELETE | IN_MOVED_FROM)) {
          for (const auto& [known, _] : known_) {
            if (known.starts_with(relative + "/")) removed_.emplace(known, std::chrono::steady_clock::now());
          }
        }
        continue;
      }
      if (event->mask & (IN_CLOSE_WRITE | IN_MOVED_TO)) {
        mark_closed(relative);
        scanned_.erase(relative);
        removed_.erase(relative);
        open_events_.erase(relative);
      } else if (event->mask & (IN_DELETE | IN_MOVED_FROM)) {
        removed_.emplace(relative, std::chrono::steady_clock::now());
        unmark_closed(relative);
        scanned_.erase(relative);
        open_events_.erase(relative);
      } else if ((event->mask & IN_MODIFY) && is_event_file(relative)) {
        open_events_.emplace(relative, std::chrono::steady_clock::time_point{});
      }
    }
  }
}

Result<bool> OutputMirror::push_file(const std::string& relative, bool in_close_order) {
  const fs::path local = options_.local / relative;
  if (!changed_since_known(relative)) return true;
  // The version this copy sends is the one opened here (a rename may put
  // another in its place at any moment).
  const int fd = ::open(local.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? Result<bool>(true) : make_error(local.string() + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return true;
  const LocalStat before{static_cast<std::uint64_t>(st.st_size),
                         static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
  // A file found in a directory that appeared with it may still be being written (a scan finds
  // it, not its close): it is not whole yet, and its close will come as an event and put it back
  // in line. Only such a file: one whose close was seen may still count as open for a moment
  // (the kernel sends the event before it lets go of the writer), and would be lost from the line.
  if (in_close_order && scanned_.erase(relative) > 0 && open_for_writing(fd)) return true;
  if (in_close_order) {
    // Written again since its place in the line was taken, it may now name
    // files closed after that place (TensorFlow's "checkpoint" names the
    // newest checkpoint): it waits for its new place, behind them.
    read_events();
    if (closed_.empty() || closed_.front() != relative) return false;
  }
  const std::string parent = parent_of(remote_path(relative));
  if (!remote_dirs_.contains(parent)) {
    if (auto made = hdfs_.mkdirs(parent); !made) return made.error();
    remote_dirs_.insert(parent);
  }
  // Whole or not at all: a temporary name first, then one rename over the file.
  const std::string temporary =
      parent + "/" + transient_prefix + options_.writer + "-" + std::to_string(++temporary_serial_) + ".partial";
  // An open file may grow while it goes: what it held when opened goes. One that shrinks (written
  // again from its start) still sends the length the request announced, padded, since the server
  // would wait for the rest of it; that copy is thrown away. A NameNode failover under the
  // transfer starts it again from the first byte.
  std::uint64_t left = before.size;
  bool shrank = false;
  const auto from_the_start = [fd, &left, &shrank, size = before.size]() -> yarn::WebHdfs::ByteSource {
    left = size;
    shrank = false;
    ::lseek(fd, 0, SEEK_SET);
    return [fd, &left, &shrank](char* buffer, std::size_t room) -> std::size_t {
      const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(room, left));
      if (want == 0) return 0;
      ssize_t got = ::read(fd, buffer, want);
      if (got <= 0) {
        shrank = true;
        std::memset(buffer, 0, want);
        got = static_cast<ssize_t>(want);
      }
      left -= static_cast<std::uint64_t>(got);
      return static_cast<std::size_t>(got);
    };
  };
  if (auto written = hdfs_.write_restartable(temporary, from_the_start, static_cast<std::int64_t>(before.size), true);
      !written) {
    return written.error();
  }
  // Written again in place while it went (truncated and written anew), the copy may hold the
  // start of one version and the rest of another. Event files only grow: what went stays true.
  struct stat after {};
  const bool rewritten =
      ::fstat(fd, &after) != 0 ||
      (!is_event_file(relative) &&
       (static_cast<std::uint64_t>(after.st_size) != before.size ||
        static_cast<std::int64_t>(after.st_mtim.tv_sec) * 1'000'000'000 + after.st_mtim.tv_nsec != before.mtime));
  if (shrank || left != 0 || rewritten) {
    (void)hdfs_.remove(temporary, false);
    return make_error(local.string() + " changed while it was copied; it goes again on the next pass");
  }
  if (auto replaced = hdfs_.replace(temporary, remote_path(relative)); !replaced) {
    (void)hdfs_.remove(temporary, false);
    return replaced.error();
  }
  Known known{before.size, before.mtime, 0, static_cast<std::int64_t>(before.size), true};
  if (auto status = hdfs_.status(remote_path(relative))) known.remote_mtime = status->modification_time;
  known_[relative] = known;
  std::lock_guard lock(mutex_);
  ++totals_.files_out;
  totals_.bytes_out += static_cast<std::int64_t>(before.size);
  return true;
}

// Only what this task wrote: a reader's copies vanishing (its container
// directory cleaned away) must never empty the job's output.
Result<void> OutputMirror::remove_remote(const std::string& relative) {
  // A task being stopped, or an output directory gone as a whole: YARN cleaning the container's
  // directory away, not the command deleting what it wrote.
  std::error_code ec;
  if (keep_remote_files_ || !fs::is_directory(options_.local, ec)) return {};
  const auto known = known_.find(relative);
  if (known == known_.end()) return {};
  if (!known->second.written_here) {
    known_.erase(known);
    return {};
  }
  auto removed = hdfs_.remove(remote_path(relative), false);
  if (!removed) return removed.error();
  known_.erase(relative);
  std::lock_guard lock(mutex_);
  ++totals_.removed;
  return {};
}

Result<void> OutputMirror::pull() {
  struct Remote {
    std::string relative;
    yarn::HdfsFileStatus status;
  };
  std::vector<Remote> files;
  std::vector<std::string> directories{""};
  while (!directories.empty()) {
    const std::string directory = directories.back();
    directories.pop_back();
    auto listed = hdfs_.list(remote_path(directory));
    if (!listed) return listed.error();
    for (auto& entry : *listed) {
      const std::string relative = join(directory, entry.name);
      if (is_writers_temporary(relative)) continue;
      if (entry.directory) {
        remote_dirs_.insert(remote_path(relative));
        directories.push_back(relative);
      } else {
        files.push_back({relative, std::move(entry)});
      }
    }
  }
  std::set<std::string> present;
  for (const auto& file : files) present.insert(file.relative);
  // Gone from HDFS, unchanged here since: gone here too.
  for (auto it = known_.begin(); it != known_.end();) {
    if (!present.contains(it->first) && it->second.remote_mtime != 0 && !changed_since_known(it->first) &&
        !is_closed(it->first)) {
      std::error_code ec;
      fs::remove(options_.local / it->first, ec);
      it = known_.erase(it);
    } else {
      ++it;
    }
  }
  // Oldest first: a writer's index file, written after its data, comes after it.
  std::sort(files.begin(), files.end(),
            [](const Remote& a, const Remote& b) { return a.status.modification_time < b.status.modification_time; });
  for (const auto& file : files) {
    const auto known = known_.find(file.relative);
    if (known != known_.end() && known->second.remote_mtime == file.status.modification_time &&
        known->second.remote_size == file.status.length) {
      continue;
    }
    // What this task wrote and has not copied yet wins over what is there.
    // (An event file this task keeps open counts only once it changed here: the growth copied
    // in below changes nothing that is not known.)
    if (is_closed(file.relative) || (known != known_.end() && changed_since_known(file.relative)) ||
        (known == known_.end() && regular_file(options_.local / file.relative))) {
      continue;
    }
    // An event file that only grew grows here in place: TensorBoard keeps the file it reads
    // open, and one renamed over it would leave TensorBoard reading the old one for ever.
    if (known != known_.end() && is_event_file(file.relative) && file.status.length > known->second.remote_size &&
        known->second.size == static_cast<std::uint64_t>(known->second.remote_size)) {
      const std::int64_t grown = file.status.length - known->second.remote_size;
      // Not appended (the local copy gone meanwhile, a read refused): a whole copy instead, below.
      if (append_growth(file.relative, known->second.remote_size, file.status.length)) {
        const auto now = regular_file(options_.local / file.relative);
        known_[file.relative] =
            Known{now ? now->size : 0, now ? now->mtime : 0, file.status.modification_time, file.status.length, false};
        std::lock_guard lock(mutex_);
        totals_.bytes_in += grown;
        continue;
      }
    }
    const fs::path target = options_.local / file.relative;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    const fs::path temporary =
        target.parent_path() / (std::string(transient_prefix) + "in-" + std::to_string(++temporary_serial_));
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      if (!out) return make_error("cannot write " + temporary.string());
      auto read = hdfs_.read(remote_path(file.relative), [&out](std::string_view chunk) {
        out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        return static_cast<bool>(out);
      });
      if (!read || !out) {
        out.close();
        fs::remove(temporary, ec);
        // Removed between the listing and the read: the next pass sees it gone.
        if (!read && read.error().remote_exception == "FileNotFoundException") continue;
        return read ? make_error("cannot write " + target.string()) : read.error();
      }
    }
    fs::rename(temporary, target, ec);
    if (ec) return make_error("cannot move " + file.relative + " into the output directory: " + ec.message());
    const auto now = regular_file(target);
    known_[file.relative] =
        Known{now ? now->size : 0, now ? now->mtime : 0, file.status.modification_time, file.status.length, false};
    std::lock_guard lock(mutex_);
    ++totals_.files_in;
    totals_.bytes_in += file.status.length;
  }
  return {};
}

Result<void> OutputMirror::append_growth(const std::string& relative, std::int64_t from, std::int64_t to) {
  const fs::path local = options_.local / relative;
  const int fd = ::open(local.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return make_error("cannot append to " + local.string() + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  constexpr std::int64_t piece = 8 << 20;
  for (std::int64_t offset = from; offset < to;) {
    auto read = hdfs_.read_range(remote_path(relative), offset, std::min(piece, to - offset));
    bool written = read && !read->empty();
    for (std::size_t done = 0; written && done < read->size();) {
      const ssize_t n = ::write(fd, read->data() + done, read->size() - done);
      written = n > 0;
      done += written ? static_cast<std::size_t>(n) : 0;
    }
    if (!written) {
      // Back to what it was, whole records only: what is known of it stays true.
      (void)::ftruncate(fd, from);
      return read ? make_error("cannot append to " + local.string() + ": " + std::strerror(errno)) : read.error();
    }
    offset += static_cast<std::int64_t>(read->size());
  }
  return {};
}

void OutputMirror::follow() {
  auto next_pull = std::chrono::steady_clock::now() + options_.pull_interval;
  const auto keep_trying = [this](const std::string& relative, const Result<void>& done) {
    if (done) {
      if (failing_.erase(relative)) say(relative + " is in HDFS now");
      return true;
    }
    // Said once per file; it is tried again on every pass.
    if (failing_.emplace(relative, done.error().message).second) {
      say("copying " + relative + " to HDFS failed, trying again: " + done.error().message);
    }
    return false;
  };
  while (!stopping_) {
    pollfd watched{inotify_, POLLIN, 0};
    ::poll(&watched, 1, 500);
    read_events();
    for (auto it = removed_.begin(); it != removed_.end();) {
      if (std::chrono::steady_clock::now() - it->second < deletion_settle) {
        ++it;
        continue;
      }
      it = keep_trying(it->first, remove_remote(it->first)) ? removed_.erase(it) : std::next(it);
    }
    // In order; one that fails holds back those after it, which may name it.
    while (!closed_.empty() && !stopping_) {
      const std::string next = closed_.front();
      auto pushed = push_file(next, true);
      if (!keep_trying(next, pushed ? Result<void>() : Result<void>(pushed.error()))) break;
      if (*pushed) closed_.erase(closed_.begin());
    }
    const auto now = std::chrono::steady_clock::now();
    for (auto& [relative, last] : open_events_) {
      if (now - last < options_.open_file_interval) continue;
      auto pushed = push_file(relative, false);
      if (keep_trying(relative, pushed ? Result<void>() : Result<void>(pushed.error()))) last = now;
    }
    if (now >= next_pull) {
      if (auto pulled = pull(); !pulled) keep_trying("(copying in from HDFS)", pulled);
      next_pull = std::chrono::steady_clock::now() + options_.pull_interval;
    }
  }
}

Result<void> OutputMirror::push_all_changed() {
  read_events();
  for (auto it = removed_.begin(); it != removed_.end();) {
    if (auto done = remove_remote(it->first); !done) return done;
    it = removed_.erase(it);
  }
  // What was closed, in order; then anything else changed, oldest first.
  while (!closed_.empty()) {
    if (auto done = push_file(closed_.front(), false); !done) {
      return make_error(closed_.front() + ": " + done.error().message);
    }
    closed_.erase(closed_.begin());
  }
  std::vector<std::pair<std::int64_t, std::string>> changed;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(options_.local, ec), end; !ec && it != end; it.increment(ec)) {
    const auto relative = it->path().lexically_relative(options_.local).generic_string();
    if (is_writers_temporary(relative) || !it->is_regular_file(ec) || !changed_since_known(relative)) continue;
    if (const auto stat = regular_file(it->path())) changed.emplace_back(stat->mtime, relative);
  }
  if (ec) return make_error("cannot read the output directory " + options_.local.string() + ": " + ec.message());
  std::sort(changed.begin(), changed.end());
  for (const auto& [mtime, relative] : changed) {
    if (auto done = push_file(relative, false); !done) return make_error(relative + ": " + done.error().message);
  }
  open_events_.clear();
  return {};
}

Result<void> OutputMirror::finish(std::chrono::seconds patience) {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
  const auto give_up = std::chrono::steady_clock::now() + patience;
  while (true) {
    auto done = push_all_changed();
    if (done) return done;
    if (std::chrono::steady_clock::now() + std::chrono::seconds(2) > give_up) {
      return make_error("the output could not all be copied to HDFS " + options_.remote + " within " +
                        std::to_string(patience.count()) + " s: " + done.error().message);
    }
    if (failing_.emplace("(last pass)", done.error().message).second) {
      say("the last copy to HDFS failed, trying again: " + done.error().message);
    }
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
}

OutputMirror::Totals OutputMirror::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

}  // namespace spindle::container

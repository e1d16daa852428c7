#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::container {

// A task's output directory on its own node, kept the same as the job's
// output in HDFS while the task runs, so that tasks on nodes that share no
// disk see one output (docs/outputs-on-hdfs.md):
// - before the command starts, what HDFS holds is copied in (a restarted
//   task resumes from its checkpoints wherever it lands);
// - a file the command closes, or renames into place, goes to HDFS under a
//   temporary name and is renamed over its own, so a reader sees the old
//   version or the new one, never part of one; deletions follow;
// - TensorFlow's event files, which stay open while training, go as their
//   growing prefix every few seconds, so TensorBoard follows the run;
// - what other tasks put in HDFS comes in the same way, newest last;
// - when the command has ended, a last pass copies whatever is left.
// Several tasks writing one path: the last to close it wins, whole.
class OutputMirror {
 public:
  struct Options {
    std::filesystem::path local;  // the task's directory (SPINDLE_OUTPUT)
    std::string remote;           // the job's output in HDFS, a path
    std::string writer;           // this task, in temporary names ("worker-1")
    std::chrono::milliseconds pull_interval{3000};
    std::chrono::milliseconds open_file_interval{5000};
    std::function<void(const std::string&)> log;
  };

  struct Totals {
    std::int64_t files_in = 0, bytes_in = 0;    // from HDFS
    std::int64_t files_out = 0, bytes_out = 0;  // to HDFS
    std::int64_t removed = 0;                   // deletions passed on
  };

  // Creates the remote directory if needed, copies its contents in, and
  // starts following the local directory.
  static Result<std::unique_ptr<OutputMirror>> start(yarn::WebHdfs hdfs, Options options);
  ~OutputMirror();
  OutputMirror(const OutputMirror&) = delete;
  OutputMirror& operator=(const OutputMirror&) = delete;

  // Once the command has ended: copies what is left and stops. An error
  // names what could not be copied within `patience`.
  // Shorter than the master's patience with an executor that sends no
  // heartbeat, which it does not while it waits here.
  Result<void> finish(std::chrono::seconds patience = std::chrono::seconds(40));
  Totals totals() const;
  // From now on, files deleted here stay in HDFS. Called when the task is being stopped: YARN
  // then removes the container's directory, and that must not empty the job's output.
  void keep_remote_files() { keep_remote_files_ = true; }

  // Names the mirror itself writes, which it never copies.
  static bool is_transient_name(const std::string& name);

 private:
  struct Known {
    std::uint64_t size = 0;
    std::int64_t local_mtime = 0;   // ns
    std::int64_t remote_mtime = 0;  // ms, as HDFS says
    std::int64_t remote_size = 0;
    bool written_here = false;  // pushed by this task, not only copied in
  };

  OutputMirror(yarn::WebHdfs hdfs, Options options);
  Result<void> pull();
  // Appends to a local event file what its copy in HDFS gained since (see pull).
  Result<void> append_growth(const std::string& relative, std::int64_t from, std::int64_t to);
  // true once sent (or nothing to send); false when, checked against the
  // close order, it must wait for its place (see the .cpp).
  Result<bool> push_file(const std::string& relative, bool in_close_order);
  Result<void> remove_remote(const std::string& relative);
  Result<void> push_all_changed();
  void follow();
  void watch_tree(const std::filesystem::path& directory);
  void read_events();
  bool changed_since_known(const std::string& relative) const;
  void mark_closed(const std::string& relative);
  void unmark_closed(const std::string& relative);
  bool is_closed(const std::string& relative) const;
  std::string remote_path(const std::string& relative) const;
  void say(const std::string& line) const;

  yarn::WebHdfs hdfs_;
  Options options_;
  mutable std::mutex mutex_;
  std::map<std::string, Known> known_;  // by path relative to local
  std::set<std::string> remote_dirs_;   // made already
  // Closed or moved in, to push, in the order it happened: a writer's data
  // before the file that names it (TensorFlow's "checkpoint").
  std::vector<std::string> closed_;
  // Deleted or moved away, to pass on, since when.
  std::map<std::string, std::chrono::steady_clock::time_point> removed_;
  std::map<std::string, std::chrono::steady_clock::time_point> open_events_;  // event files written, last push
  std::map<int, std::string> watches_;                                        // inotify watch -> relative dir
  std::map<std::string, std::string> failing_;                                // path -> last error said
  // Marked closed by a scan of a directory new to the watch, not by a close: maybe still written.
  std::set<std::string> scanned_;
  Totals totals_;
  int inotify_ = -1;
  std::uint64_t temporary_serial_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> keep_remote_files_{false};
  std::thread thread_;
};

}  // namespace spindle::container

#pragma once

// Scalars out of TensorFlow event files ("*tfevents*"), read as training
// writes them: each poll returns what the writers added since the last one.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "spindle/core/result.h"

namespace spindle {

namespace tfevents {
class ScalarTags;
}

// One point of a scalar series, as TensorBoard's scalar dashboard has it.
struct ScalarPoint {
  std::string tag;
  std::int64_t step = 0;
  double wall_time = 0;  // seconds since the epoch
  double value = 0;

  bool operator==(const ScalarPoint&) const = default;
};

struct LogFileEntry {
  std::string path;        // below the directory listed, parts joined by '/'
  std::uint64_t size = 0;  // on HDFS, may lag behind a file still being written
};

// Where event files live: the local file system (LocalLogFileSystem) or
// HDFS (spindle::client::HdfsLogFileSystem).
class LogFileSystem {
 public:
  virtual ~LogFileSystem() = default;
  // Every regular file under `directory`, at any depth; none while the
  // directory does not exist yet.
  virtual Result<std::vector<LogFileEntry>> list_files(const std::string& directory) = 0;
  // Fills `into` with the bytes of `path` from `offset` on and says how many
  // it put there; fewer than asked only at the end of the file.
  virtual Result<std::size_t> read(const std::string& path, std::uint64_t offset, std::span<char> into) = 0;
};

class LocalLogFileSystem final : public LogFileSystem {
 public:
  Result<std::vector<LogFileEntry>> list_files(const std::string& directory) override;
  Result<std::size_t> read(const std::string& path, std::uint64_t offset, std::span<char> into) override;
};

// One event file, read incrementally. Scalars are simple_values and
// one-element float16/32/64 and int32/64 tensors of tags TensorBoard charts
// as scalars (plugin "scalars", as tf.summary.scalar writes them).
class EventFileReader {
 public:
  EventFileReader(LogFileSystem& files, std::string path);
  EventFileReader(EventFileReader&&) noexcept;
  EventFileReader& operator=(EventFileReader&&) noexcept;
  ~EventFileReader();

  // The scalars of the records completed since the last poll. A record cut
  // short waits for the rest. Reading stops before a damaged record; the
  // poll that starts at one returns an error naming the file and the byte
  // where the record begins, and later polls go on past it, unless its
  // length was damaged: then nothing after it can be found and the file is
  // read no further.
  Result<std::vector<ScalarPoint>> poll();

  const std::string& path() const { return path_; }
  // Where the first record not yet returned begins.
  std::uint64_t offset() const { return offset_; }
  // Bytes of the file read so far, the start of an unfinished record included.
  std::uint64_t bytes_read() const { return offset_ + unconsumed_.size(); }
  // A damaged length ended the reading of this file.
  bool stopped() const { return stopped_; }
  // The last poll stopped before a damaged record, which the next one reports.
  bool damage_next() const { return damage_next_; }

 private:
  LogFileSystem* files_;
  std::string path_;
  std::uint64_t offset_ = 0;  // where the first record not yet returned begins
  std::string unconsumed_;    // bytes read from offset_ on
  std::unique_ptr<tfevents::ScalarTags> tags_;
  bool stopped_ = false;
  bool damage_next_ = false;
};

// The points of one run: the event files in one directory.
struct RunScalars {
  std::string run;  // directory relative to the log directory; "." for the log directory itself
  std::vector<ScalarPoint> points;
};

struct LogDirectoryUpdate {
  std::vector<RunScalars> runs;  // runs with new points, by name
  std::vector<Error> problems;   // damaged records and unreadable files
};

// A log directory as TensorBoard reads it: every file whose name contains
// "tfevents", at any depth, found as it appears; files of a run in the order
// of their names.
class LogDirectoryReader {
 public:
  LogDirectoryReader(LogFileSystem& files, std::string directory);

  // What was added since the last poll; an error only when the directory
  // cannot be listed.
  Result<LogDirectoryUpdate> poll();

 private:
  struct EventFile {
    std::string run;
    EventFileReader reader;
  };

  LogFileSystem* files_;
  std::string directory_;
  std::map<std::string, EventFile> event_files_;  // by path below the directory
};

}  // namespace spindle

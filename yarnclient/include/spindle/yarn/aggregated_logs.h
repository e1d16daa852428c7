#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::yarn {

// Random access to one file's bytes: aggregated log files are read from
// their end first (the index), then only the parts asked for.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::uint64_t size() const = 0;
  // Exactly `length` bytes from `offset`, or why not.
  virtual Result<std::string> read(std::uint64_t offset, std::size_t length) = 0;
};

// A source over bytes in memory (tests, fuzzing, small files read whole).
class MemoryByteSource final : public ByteSource {
 public:
  explicit MemoryByteSource(std::string bytes) : bytes_(std::move(bytes)) {}
  std::uint64_t size() const override { return bytes_.size(); }
  Result<std::string> read(std::uint64_t offset, std::size_t length) override;

 private:
  std::string bytes_;
};

// One log file of one container, as a NodeManager aggregated it.
struct AggregatedLog {
  std::string container;
  std::string file;  // stdout, stderr, prelaunch.err, ...
  std::uint64_t length = 0;
  // The log's own modification time where the format keeps it (indexed
  // files); 0 for TFile, whose readers show the aggregated file's time.
  std::int64_t modified_ms = 0;
  std::string contents;  // empty unless asked for
};

// Which logs a reader returns: containers (all when empty), file names (all
// when empty), and whether their contents are read or only listed.
struct AggregatedLogFilter {
  std::set<std::string> containers;
  std::set<std::string> files;
  bool contents = true;
  bool wants(const std::string& container, const std::string& file) const {
    return (containers.empty() || containers.contains(container)) && (files.empty() || files.contains(file));
  }
};

enum class AggregatedLogFormat { tfile, indexed };

// The logs in one node's aggregated file, in the order the file holds them.
// `name` names the file in every error, which also says at which byte the
// file stopped making sense. TFile ("TFile", Hadoop's default) and the
// indexed format ("IFile"), each uncompressed or with "gz".
Result<std::vector<AggregatedLog>> read_tfile_logs(ByteSource& file, const std::string& name,
                                                   const AggregatedLogFilter& filter);
Result<std::vector<AggregatedLog>> read_indexed_logs(ByteSource& file, const std::string& name,
                                                     const std::string& application_id,
                                                     const AggregatedLogFilter& filter);
// Tells the format from the file's first bytes, then reads it.
Result<std::vector<AggregatedLog>> read_aggregated_logs(ByteSource& file, const std::string& name,
                                                        const std::string& application_id,
                                                        const AggregatedLogFilter& filter);

// Where a cluster keeps the aggregated logs of an application owned by
// `owner`: the directories to look in, newest layout first (per-bucket
// directories of Hadoop 3.3 and later, then the older per-user ones), for
// every format in yarn.log-aggregation.file-formats. Paths on the default
// file system, or URIs when the configuration names another.
struct AggregatedLogDirectory {
  std::string path;
  std::string format;  // the controller's name, e.g. TFile, IFile
};
std::vector<AggregatedLogDirectory> aggregated_log_directories(const HadoopConfiguration& configuration,
                                                               const std::string& owner,
                                                               const std::string& application_id);

// Whether the cluster aggregates logs at all (yarn.log-aggregation-enable).
bool log_aggregation_enabled(const HadoopConfiguration& configuration);

}  // namespace spindle::yarn

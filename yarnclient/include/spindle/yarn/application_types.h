#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/cluster_types.h"
#include "spindle/yarn/token.h"

namespace spindle::yarn {

struct ApplicationId {
  std::int64_t cluster_timestamp = 0;
  std::int32_t id = 0;

  std::string to_string() const;  // application_1700000000000_0001
  static Result<ApplicationId> parse(std::string_view text);
  friend auto operator<=>(const ApplicationId&, const ApplicationId&) = default;
};

// A file YARN copies to the node before the container starts, and links
// into its working directory under `name`.
struct LocalFile {
  std::string name;
  std::string url;  // hdfs://nn:8020/path or file:///path
  std::int64_t size = 0;
  std::int64_t modification_time = 0;  // ms since the epoch, as the file system reports it
  bool archive = false;                // unpacked by YARN (tar.gz, zip, jar)
  // Localized with PRIVATE visibility: a node keeps its copy for the same
  // user's later jobs, instead of fetching it again for each application.
  bool kept_for_user = false;
};

// Local files as base64 of JSON ([{"name", "url", "size", "time", "archive"}]),
// the way a client hands the staged files to its application master through
// an environment variable. Base64, because NodeManagers write environment
// values into the launch script between double quotes without escaping them.
std::string encode_local_files(const std::vector<LocalFile>& files);
Result<std::vector<LocalFile>> decode_local_files(std::string_view encoded);

// What a container runs: its files, environment and commands. `credentials`
// is a whole token storage file ("HDTS"...), empty for none.
struct LaunchContext {
  std::vector<LocalFile> files;
  std::map<std::string, std::string> environment;
  std::vector<std::string> commands;
  std::string credentials;
};

struct SubmissionRequest {
  ApplicationId id;
  std::string name;
  std::string queue = "default";
  std::string type = "SPINDLE";
  int priority = 0;
  std::vector<std::string> tags;
  int max_attempts = 1;
  bool keep_containers_across_attempts = false;
  // Whether the ResourceManager cancels the application's delegation tokens
  // once it ends: not for a sweep's trials, which share their controller's.
  bool cancel_tokens_when_complete = true;
  Resources am_resources{256, 1, {}};
  std::string am_node_label;
  LaunchContext am;
};

struct NewApplication {
  ApplicationId id;
  Resources maximum;  // the largest container the cluster grants
};

struct ApplicationReport {
  ApplicationId id;
  std::string user;
  std::string queue;
  std::string name;
  std::string state;         // NEW ... RUNNING, FINISHED, FAILED, KILLED
  std::string final_status;  // UNDEFINED, SUCCEEDED, FAILED, KILLED
  std::string diagnostics;
  std::string tracking_url;
  std::string am_host;
  int am_rpc_port = 0;
  std::int64_t start_time = 0;   // ms since the epoch
  std::int64_t finish_time = 0;  // ms since the epoch, 0 while running
  float progress = 0;
  std::vector<std::string> tags;

  bool finished() const { return state == "FINISHED" || state == "FAILED" || state == "KILLED"; }
};

struct AttemptReport {
  std::string id;  // appattempt_..._000001
  std::string state;
  std::string am_container;
  std::string host;
  std::string tracking_url;
  std::string diagnostics;
  std::int64_t start_time = 0;
  std::int64_t finish_time = 0;
};

struct ContainerReport {
  std::string id;
  std::string node;  // host:port
  std::string node_http_address;
  std::string state;  // NEW, RUNNING, COMPLETE
  int exit_status = 0;
  std::string diagnostics;
  std::string log_url;
  Resources resources;
  std::int64_t start_time = 0;
  std::int64_t finish_time = 0;
};

// A container the ResourceManager granted.
struct AllocatedContainer {
  std::string id;  // container_..._000002
  std::int64_t allocation_request_id = -1;
  int priority = 0;
  std::string node;  // host:port of its NodeManager
  std::string node_http_address;
  Resources resources;
  Token container_token;
};

// A container that ended, as the ResourceManager reports it.
struct CompletedContainer {
  std::string id;
  int exit_status = 0;  // the process's exit code, or one of YARN's negative codes
  std::string diagnostics;
};

// YARN's own exit statuses for containers that did not end by themselves.
namespace container_exit {
inline constexpr int invalid = -1000;
inline constexpr int aborted = -100;
inline constexpr int disks_failed = -101;
inline constexpr int preempted = -102;
inline constexpr int killed_exceeded_vmem = -103;
inline constexpr int killed_exceeded_pmem = -104;
inline constexpr int killed_by_appmaster = -105;
inline constexpr int killed_by_resourcemanager = -106;
inline constexpr int killed_after_app_completion = -107;
}  // namespace container_exit

}  // namespace spindle::yarn

#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "spindle/client/history_store.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

// Why a submit failed: the user's input, or the cluster (unreachable or
// refusing). The CLI turns these into exit codes 2 and 3.
struct SubmitError {
  enum class Kind { bad_input, cluster } kind = Kind::cluster;
  std::string message;
};

struct SubmitOptions {
  // The application master and task executor binary to stage; empty: the
  // spindle-container next to the running program.
  std::filesystem::path container_binary;
  std::function<void(const std::string&)> progress;  // one line per step, for stderr
  // After each local file is staged: bytes copied so far, and in all.
  std::function<void(std::uint64_t staged, std::uint64_t total)> staged_bytes;
  // While python_env is packed: bytes of the environment read so far, and in all.
  std::function<void(std::uint64_t packed, std::uint64_t total)> packed_bytes;
  // While the packed environment is uploaded (not called when the cluster holds it).
  std::function<void(std::uint64_t uploaded, std::uint64_t total)> environment_uploaded;
  // The MLflow tracking server jobs are recorded in when their spec names
  // none (the app's setting); empty: MLFLOW_TRACKING_URI, if set.
  std::string mlflow_tracking_uri;
  // Whether the job is refused when the nodes the cluster has now can never hold it (a container
  // larger than the largest it grants, a node label no node carries, a gang its queue can never
  // hold). Off for clusters whose nodes come and go: the ResourceManager then refuses what it
  // cannot grant once the application master asks, and the job fails saying why.
  bool check_fit = true;
  // Set by submit_sweep: the application is the sweep's controller, which
  // runs this search (search_to_json) over the spec (docs/sweeps.md).
  std::string sweep_search_json;
};

// How the job's Python environment reached the cluster.
struct ShippedEnvironment {
  std::string name;      // "<environment>-<fingerprint>.tar.gz"
  std::string location;  // its URI on the cluster's file system
  std::uint64_t bytes = 0;
  std::uint64_t uploaded_bytes = 0;  // 0 when the cluster held it already
  bool packed_now = false;           // false when an archive packed earlier was reused
};

struct SubmittedJob {
  std::string application_id;
  std::string staging;  // where its files went
  std::optional<ShippedEnvironment> environment;
  // The job's MLflow run, when it is recorded there (a sweep's: the parent of its trials' runs).
  std::optional<TrackingRunEntry> mlflow;
};

// Validates the job against the cluster, stages its files under
// .spindle/<application id>/ on the default file system, and submits it with
// a fresh secret. A submit that fails part-way removes what it staged and
// kills what it started. On success the job's record (with its secret) is
// saved on this machine.
Result<SubmittedJob, SubmitError> submit_job(const JobSpec& spec, const yarn::HadoopConfiguration& configuration,
                                             const SubmitOptions& options);

// Removes a job's staging directory, `location` as its record keeps it, if it
// is still there once the job has ended. The application master removes it
// as it stops, but a job killed before its master ran leaves it behind. True
// when this call removed it, false when it was gone already.
Result<bool> remove_staging_left_behind(const yarn::HadoopConfiguration& configuration,
                                        const std::string& application_id, const std::string& location);

// The configuration with the spec's Kerberos login (keytab and principal)
// in place of the ticket cache, for submitting and following the job.
yarn::HadoopConfiguration with_login(const yarn::HadoopConfiguration& configuration, const JobSpec& spec);

}  // namespace spindle::client

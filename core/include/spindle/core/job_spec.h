#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spindle {

enum class Framework { tensorflow, pytorch, generic };

// How a task type's end affects the job (see docs/job-specs.md, Task roles and the life cycle).
enum class TaskRole {
  tracked,  // the job waits for it; its success counts towards the job's success
  service,  // runs while the job runs; stopped when the job ends
};

std::string_view to_string(Framework framework);
std::string_view to_string(TaskRole role);

// A file or archive shipped to every container. `name` is the name it has in
// the container's working directory; `source` is a local path (resolved against
// the spec's directory) or a URI such as hdfs:///user/me/venv.tar.gz.
struct ShippedFile {
  std::string name;
  std::string source;
  friend bool operator==(const ShippedFile&, const ShippedFile&) = default;
};

struct TaskSpec {
  std::string type;  // chief, worker, ps, evaluator, tensorboard, or a custom name
  int instances = 1;
  std::uint64_t memory_mib = 1024;
  int vcores = 1;
  int gpus = 0;
  // Copies of the command each container runs, as torchrun's --nproc-per-node
  // (chief and worker only); each is a rank of PyTorch's group of its own.
  int processes = 1;
  std::string node_label;
  std::string command;  // runs in a shell; empty for tensorboard means "run TensorBoard"
  std::map<std::string, std::string> env;
  int max_restarts = 0;
  TaskRole role = TaskRole::tracked;
  bool fails_job = true;  // whether its final failure fails the whole job

  friend bool operator==(const TaskSpec&, const TaskSpec&) = default;
};

struct ApplicationMasterSpec {
  std::uint64_t memory_mib = 256;
  int vcores = 1;
  friend bool operator==(const ApplicationMasterSpec&, const ApplicationMasterSpec&) = default;
};

struct KerberosLogin {
  std::string principal;  // alice@EXAMPLE.COM
  std::string keytab;

  friend bool operator==(const KerberosLogin&, const KerberosLogin&) = default;
};

// Where the job is recorded as an MLflow run. Empty fields fall back to
// MLFLOW_TRACKING_URI and MLFLOW_EXPERIMENT_NAME of the submitting shell,
// then to MLflow's "Default" experiment and the job's name.
struct MlflowTracking {
  std::string tracking_uri;  // http(s)://host:port of an MLflow tracking server
  std::string experiment;
  std::string run_name;
  bool required = false;  // an unreachable server fails the submit instead of warning
  bool nested = false;    // a child run per task, under the job's run
  // Filled in by submit when nested: each task's run ("worker:1" -> run id),
  // which the task gets as MLFLOW_RUN_ID.
  std::map<std::string, std::string> task_runs;

  friend bool operator==(const MlflowTracking&, const MlflowTracking&) = default;
};

struct JobSpec {
  std::string name;
  std::string queue = "default";
  int priority = 0;
  std::vector<std::string> tags;
  int max_attempts = 1;
  std::chrono::seconds timeout{0};  // zero: no limit
  // A running task whose executor sends no heartbeat for this long is lost;
  // zero: never. Executors beat every 5 s.
  std::chrono::seconds heartbeat_timeout{60};
  // A task whose node was lost waits this long for a new container before
  // the job fails saying why; zero: as long as it takes.
  std::chrono::seconds replacement_timeout{600};
  // The training tasks (those the cluster spec names) must all have their
  // containers within this long of asking; otherwise the job gives back
  // every container it holds, so that a gang that cannot be completed never
  // blocks its queue, and then fails or, with `retry`, waits holding
  // nothing until the queue has room for the whole gang. Zero: wait for ever.
  std::chrono::seconds allocation_timeout{600};
  enum class OnAllocationTimeout { fail, retry } on_allocation_timeout = OnAllocationTimeout::fail;
  // A running tracked task that in this long writes nothing (to its stdout,
  // its stderr or the job's output directory: event files hold its scalars)
  // and uses under 5 % of a core is stalled: reported, and with `restart` or
  // `fail` stopped and handled as a lost task. Zero: never.
  std::chrono::seconds stall_timeout{0};
  enum class OnStall { report, restart, fail } on_stall = OnStall::report;
  Framework framework = Framework::tensorflow;
  std::vector<ShippedFile> files;
  std::vector<ShippedFile> archives;
  std::string script;  // name of the shipped file exposed as DTF_TASK_SCRIPT, if any
  std::map<std::string, std::string> env;
  std::string input;
  std::string output;
  std::string docker_image;
  // The Python environment every task runs with: "current", or the absolute
  // path of a venv or conda directory or of a prepared archive. Empty: the
  // nodes' own Python.
  std::string python_env;
  // NameNodes besides the default file system's that the job reads or
  // writes (hdfs://host:port or webhdfs://host:port); on a Kerberos cluster
  // the job gets delegation tokens for each.
  std::vector<std::string> file_systems;
  // Who submits on a Kerberos cluster when not the ticket in the credentials
  // cache: a principal and its keytab (an absolute path on the submitting
  // machine). The keytab goes to the job's application master alone, which
  // gets new delegation tokens from it; the shipped spec never names it.
  std::optional<KerberosLogin> kerberos;
  std::optional<MlflowTracking> mlflow;
  ApplicationMasterSpec application_master;
  std::vector<TaskSpec> tasks;  // chief, worker, ps, evaluator, tensorboard first, then custom

  const TaskSpec* find_task(std::string_view type) const;
  int total_instances() const;

  friend bool operator==(const JobSpec&, const JobSpec&) = default;
};

std::string_view to_string(JobSpec::OnAllocationTimeout action);
std::string_view to_string(JobSpec::OnStall action);

// The well-known task types and their defaults (docs/job-specs.md).
namespace task_types {
inline constexpr std::string_view chief = "chief";
inline constexpr std::string_view worker = "worker";
inline constexpr std::string_view ps = "ps";
inline constexpr std::string_view evaluator = "evaluator";
inline constexpr std::string_view tensorboard = "tensorboard";
}  // namespace task_types

// The task as it is before the spec says anything about it.
TaskSpec default_task(std::string_view type);

// Position of a type in the canonical order (known types first, custom after).
int canonical_rank(std::string_view type);

}  // namespace spindle

#pragma once

#include <string_view>

// What the submitting side (spindle, spindle-gui) and spindle-container
// agree on: names one side writes and the other reads. Changing one changes
// both programs, and a container binary staged by another release would no
// longer understand its launch; the client refuses such a binary by its
// version banner.
namespace spindle::container_contract {

// The program's file name, beside spindle where it is installed and in
// every container's working directory, where YARN localizes it.
inline constexpr const char* binary_name = "spindle-container";
// What `spindle-container --version` prints before the version. The client
// compares the whole line with its own version before staging a binary.
inline constexpr const char* version_banner_prefix = "spindle-container ";

// The application master's mode and the command the client gives YARN to
// start it (the log redirections follow).
inline constexpr const char* master_mode = "master";
inline constexpr const char* master_command = "./spindle-container master";
// A task executor's mode and the start of the command the master gives the
// NodeManagers for every task container (--task, --api and the rest follow).
inline constexpr const char* task_mode = "task";
inline constexpr const char* task_command = "./spindle-container task";
// `spindle doctor`'s probe: a tiny application master that registers, says
// where it ran (its diagnostics start with the greeting) and unregisters.
inline constexpr const char* probe_mode = "probe";
inline constexpr const char* probe_command = "./spindle-container probe";
inline constexpr const char* probe_greeting = "spindle probe ran on ";
// A sweep's controller (docs/sweeps.md): the application master of the
// sweep's own application, which submits its trials as applications.
inline constexpr const char* sweep_mode = "sweep";
inline constexpr const char* sweep_command = "./spindle-container sweep";
static_assert(std::string_view(master_command).ends_with(master_mode));
static_assert(std::string_view(sweep_command).ends_with(sweep_mode));
static_assert(std::string_view(task_command).ends_with(task_mode));
static_assert(std::string_view(probe_command).ends_with(probe_mode));

// The application master's environment: every staged file, encoded as
// yarn::encode_local_files, which the master gives every task container...
inline constexpr const char* resources_variable = "SPINDLE_RESOURCES";
// ...and the staging directory, which the master removes once the job is over.
inline constexpr const char* staging_variable = "SPINDLE_STAGING";

// A sweep's controller: the files its trials' application masters localize
// (encoded as SPINDLE_RESOURCES), and the HDFS path of the sweep's record.
inline constexpr const char* master_files_variable = "SPINDLE_MASTER_FILES";
inline constexpr const char* sweep_record_variable = "SPINDLE_SWEEP_RECORD";

// A job recorded in MLflow whose output is in HDFS: the run its application
// master sends the training scalars to while the job runs.
inline constexpr const char* mlflow_run_variable = "SPINDLE_MLFLOW_RUN";

// Credentials aliases. The job's secret, in the credentials of every
// container the client and the application master launch.
inline constexpr const char* secret_alias = "spindle.job.secret";
// On an encrypted cluster: the job API's certificate and key (the
// application master's credentials only), and the certificate's SHA-256,
// which every task's credentials carry to pin it.
inline constexpr const char* api_certificate_alias = "spindle.job.api.certificate";
inline constexpr const char* api_key_alias = "spindle.job.api.key";
inline constexpr const char* api_pin_alias = "spindle.job.api.sha256";
// The job's normalized spec (JSON), which the client hands the application
// master and the master every task, in their credentials: YARN delivers it
// with the launch, so a submit writes no file for it.
inline constexpr const char* job_spec_alias = "spindle.job.spec";
// A sweep's search (search_to_json), in its controller's credentials.
inline constexpr const char* sweep_search_alias = "spindle.sweep.search";
// A job or sweep recorded in MLflow: the submitting shell's MLflow
// credentials (a JSON object of MLFLOW_TRACKING_TOKEN,
// MLFLOW_TRACKING_USERNAME, MLFLOW_TRACKING_PASSWORD, and the CA bundle
// MLFLOW_TRACKING_SERVER_CERT_PATH names, as its PEM text), in the
// application master's credentials only: a job's master sends the training
// scalars to its run, a sweep's controller makes and ends the trials' runs.
inline constexpr const char* mlflow_credentials_alias = "spindle.mlflow";

// A job submitted with a keytab (docs/architecture.md, "Jobs that outlive
// their tokens"): the keytab, staged readable by the job's user alone and
// localized for the application master only, under this name; the
// principal it logs in as; the realm and its KDCs (host:port, comma-
// separated) from the submitting machine's krb5.conf.
inline constexpr const char* keytab_link_name = "spindle.keytab";
inline constexpr const char* kerberos_principal_variable = "SPINDLE_KERBEROS_PRINCIPAL";
inline constexpr const char* kerberos_realm_variable = "SPINDLE_KERBEROS_REALM";
inline constexpr const char* kerberos_kdcs_variable = "SPINDLE_KERBEROS_KDCS";
// Set in the task containers of such a job: their executors wait for new
// tokens from the job API and put them in the container's token file.
inline constexpr const char* token_refresh_variable = "SPINDLE_TOKEN_REFRESH";

// The names under which the shipped Python environment appears in a task's
// working directory: a directory YARN unpacked, or a PEX file as it is.
inline constexpr const char* python_env_link_name = "python_env";
inline constexpr const char* python_env_pex_link_name = "python_env.pex";

}  // namespace spindle::container_contract

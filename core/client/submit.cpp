#include "spindle/client/submit.h"

#include "spindle/core/text_encodings.h"

#include "spindle/client/job_api_transport.h"
#include "spindle/core/job_certificate.h"

#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <future>
#include <nlohmann/json.hpp>
#include <set>

#include "client/container_binary.h"
#include "client/output_check.h"
#include "client/staging.h"
#include "spindle/client/cluster_cache.h"
#include "spindle/client/history_store.h"
#include "spindle/client/job_records.h"
#include "spindle/client/mlflow_tracking.h"
#include "spindle/client/python_env.h"
#include "spindle/client/security_tokens.h"
#include "spindle/client/will_it_fit.h"
#include "spindle/core/clock.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/environment.h"
#include "spindle/core/python_env_path.h"
#include "spindle/core/spec_writer.h"
#include "spindle/core/sweep_state.h"
#include "spindle/core/token_expiry.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/cluster_identity.h"
#include "spindle/yarn/credentials.h"
#include "spindle/yarn/kerberos_config.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/token_lifetime.h"
#include "spindle/yarn/web_tls.h"

namespace spindle::client {
namespace {

using Kind = SubmitError::Kind;

// Uploads of the spec's local files in flight at once.
constexpr std::size_t files_staged_at_once = 4;

SubmitError bad_input(std::string message) {
  return SubmitError{Kind::bad_input, std::move(message)};
}
SubmitError cluster_error(std::string message) {
  return SubmitError{Kind::cluster, std::move(message)};
}

Result<std::string> fresh_secret() {
  unsigned char bytes[32];
  if (::getrandom(bytes, sizeof(bytes), 0) != static_cast<ssize_t>(sizeof(bytes))) {
    return make_error("the system gave no random bytes for the job's secret");
  }
  return hex_encode(std::string_view(reinterpret_cast<const char*>(bytes), sizeof(bytes)));
}

std::filesystem::path container_binary(const SubmitOptions& options) {
  return options.container_binary.empty() ? default_container_binary() : options.container_binary;
}

// What the cluster can refuse only after the job started (a label no node
// has, a container larger than any node) is checked before anything is made,
// unless `check_fit` is off: the tasks are then checked only for their queue.
Result<void, SubmitError> check_against_cluster(const JobSpec& spec, yarn::ApplicationClient& client,
                                                const yarn::HadoopConfiguration& configuration,
                                                const yarn::Resources& maximum, bool check_fit,
                                                const std::function<void(const std::string&)>& progress) {
  auto too_large = [&](const std::string& field, std::uint64_t memory, int vcores) -> std::optional<SubmitError> {
    if (static_cast<std::int64_t>(memory) > maximum.memory_mib) {
      return bad_input(field + ".memory is " + std::to_string(memory) +
                       " MiB, more than the largest container this cluster grants (" +
                       std::to_string(maximum.memory_mib) + " MiB); ask for at most that");
    }
    if (vcores > maximum.vcores) {
      return bad_input(field + ".vcores is " + std::to_string(vcores) +
                       ", more than the largest container this cluster grants (" + std::to_string(maximum.vcores) +
                       " vcores); ask for at most that");
    }
    return std::nullopt;
  };
  // The ResourceManager refuses the submission itself when the master's container is too large.
  if (auto problem =
          too_large("application_master", spec.application_master.memory_mib, spec.application_master.vcores)) {
    return *problem;
  }
  // The largest container the cluster grants is capped by its largest node, so it grows when a
  // larger node joins: like the labels and the placement below, a verdict on today's nodes.
  std::set<std::string> wanted_labels;
  if (check_fit) {
    for (const auto& task : spec.tasks) {
      if (auto problem = too_large("tasks." + task.type, task.memory_mib, task.vcores)) return *problem;
      if (!task.node_label.empty()) wanted_labels.insert(task.node_label);
    }
  }
  auto queue = client.queue(spec.queue, false);
  if (!queue) {
    // Not being let in is the cluster's answer, not the spec's fault.
    if (queue.error().kind == Error::Kind::authentication) return cluster_error(queue.error().message);
    return bad_input(queue.error().message);
  }
  if (!check_fit) {
    progress(
        "whether the job fits this cluster's nodes was not checked (--no-fit-check): a container the "
        "ResourceManager never grants fails the job once it is asked for");
    return {};
  }
  auto rest = yarn::ResourceManagerRest::from_configuration(configuration);
  auto state = read_cluster_state(client, &rest);
  if (!state) {
    // Not knowing where the job would go is no reason to refuse it: the scheduler decides.
    progress("warning: whether the job could ever be placed was not checked: " + state.error().message);
    return {};
  }
  if (!wanted_labels.empty()) {
    std::set<std::string> labels_on_nodes;
    for (const auto& node : state->nodes) labels_on_nodes.insert(node.labels.begin(), node.labels.end());
    for (const auto& task : spec.tasks) {
      if (task.node_label.empty() || labels_on_nodes.count(task.node_label)) continue;
      std::string known;
      for (const auto& label : labels_on_nodes) known += (known.empty() ? "" : ", ") + label;
      return bad_input("tasks." + task.type + ".node_label is \"" + task.node_label +
                       "\", a label no node of this cluster has (" +
                       (known.empty() ? std::string("it has no labelled nodes") : "labels in use: " + known) +
                       "); fix the label or leave it out");
    }
  }
  // The same verdict as `spindle validate --cluster`: what can never be placed is refused
  // before anything is staged, rather than waiting in the queue for ever.
  if (!state->limits_unknown.empty()) {
    progress("warning: the queue's limits were not read (" + state->limits_unknown +
             "), so the whole job was checked against the queue's maximum capacity only");
  }
  const auto fit = will_it_fit(spec, *state);
  if (const auto never = first_never_sentence(fit); !never.empty()) {
    return bad_input("the job can never run on this cluster as it stands: " + never +
                     " (spindle validate --cluster shows where each task would go)");
  }
  return {};
}

}  // namespace

yarn::HadoopConfiguration with_login(const yarn::HadoopConfiguration& configuration, const JobSpec& spec) {
  if (!spec.kerberos) return configuration;
  auto logged_in = configuration;
  yarn::set_keytab_login(logged_in, {spec.kerberos->principal, spec.kerberos->keytab});
  return logged_in;
}

namespace {

// The job goes into the history as soon as YARN has it. A history that
// cannot be written is worth a warning, not the job.
void record_submission(const JobSpec& spec, const std::string& name, const yarn::HadoopConfiguration& configuration,
                       const std::string& application_id, std::int64_t submitted_ms,
                       const std::function<void(const std::string&)>& progress) {
  auto history = HistoryStore::open();
  JobHistoryEntry entry;
  entry.application_id = application_id;
  entry.name = name;
  auto user = yarn::cluster_user(configuration);
  entry.user = user ? *user : yarn::hadoop_user_name();
  entry.queue = spec.queue;
  entry.spec_yaml = to_yaml(spec);
  entry.submitted_ms = submitted_ms;
  auto recorded = history ? history->record_job(entry) : Result<void>(history.error());
  if (!recorded) progress("warning: the job runs but is not in the history: " + recorded.error().message);
}

// The job's MLflow run, when the spec or MLFLOW_TRACKING_URI asks for one.
// A server that cannot be reached costs a warning, unless the spec says
// the run is required.
Result<std::optional<TrackingRunEntry>, SubmitError> open_tracking_run(
    const JobSpec& spec, const yarn::HadoopConfiguration& configuration, const std::string& application_id,
    const std::string& configured_uri, const std::function<void(const std::string&)>& progress) {
  const auto target = mlflow_target(spec, configured_uri);
  if (!target) return std::optional<TrackingRunEntry>();
  TrackedSubmission job;
  job.application_id = application_id;
  auto user = yarn::cluster_user(configuration);
  job.user = user ? *user : yarn::hadoop_user_name();
  job.queue = spec.queue;
  const auto web = configuration.resource_manager_addresses(yarn::https_only(configuration, yarn::WebService::yarn)
                                                                ? yarn::RmService::webapp_https
                                                                : yarn::RmService::webapp);
  if (!web.empty()) {
    job.yarn_tracking_url = yarn::web_scheme(configuration, yarn::WebService::yarn) + "://" + web.front() + "/proxy/" +
                            application_id + "/";
  }
  job.spec_yaml = to_yaml(spec);
  job.submitted_ms = wall_clock_ms();
  auto run = start_tracking_run(spec, *target, job, progress);
  if (run) return std::optional<TrackingRunEntry>(std::move(*run));
  if (target->required) {
    return cluster_error(run.error().message + "; the job was not submitted, since its spec says mlflow.required");
  }
  progress("warning: the job runs without an MLflow run: " + run.error().message);
  return std::optional<TrackingRunEntry>();
}

}  // namespace

Result<SubmittedJob, SubmitError> submit_job(const JobSpec& spec, const yarn::HadoopConfiguration& cluster,
                                             const SubmitOptions& options) {
  const auto configuration = with_login(cluster, spec);
  auto progress = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  const auto binary = container_binary(options);
  if (::access(binary.c_str(), X_OK) != 0) {
    return bad_input("the container binary " + binary.string() +
                     " is missing or not executable; it is built with spindle (target spindle-container), or "
                     "set SPINDLE_CONTAINER_BINARY to its path");
  }
  if (auto checked = check_container_binary(binary); !checked) return bad_input(checked.error().message);
  // Packed before the cluster is asked for anything: a refusal leaves nothing behind.
  std::optional<PackedEnvironment> packed_environment;
  if (python_env_on_nodes(spec.python_env)) {
    progress("python_env: " + spec.python_env + ", installed on every node; nothing to ship");
  } else if (!spec.python_env.empty()) {
    auto located = locate_python_env(spec.python_env);
    if (!located) return bad_input(located.error().message);
    progress("python_env: " + located->path.string());
    PackOptions packing;
    packing.progress = options.packed_bytes;
    auto packed = pack_python_env(*located, packing);
    if (!packed) return bad_input(packed.error().message);
    progress(std::string("python_env: ") + (packed->packed_now ? "packed " : "already packed as ") +
             packed->archive.string() + " (" + std::to_string(packed->bytes) + " bytes)");
    packed_environment = std::move(*packed);
  }
  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(configuration));
  auto created = client.new_application();
  if (!created) return cluster_error(created.error().message);
  if (auto checked = check_against_cluster(spec, client, configuration, created->maximum, options.check_fit, progress);
      !checked) {
    return checked.error();
  }
  const auto application_id = created->id.to_string();

  auto secret = fresh_secret();
  if (!secret) return cluster_error(secret.error().message);
  // On a Kerberos cluster the job's containers hold no ticket: they get
  // delegation tokens for the file systems and the ResourceManager. Asked
  // for before anything is staged, so a refusal leaves nothing behind.
  JobTokenOptions token_options;
  token_options.resource_manager_token = [&client](const std::string& renewer) {
    return client.delegation_token(renewer);
  };
  auto tokens = obtain_job_tokens(spec, configuration, token_options);
  if (!tokens) return cluster_error(tokens.error().message);
  // With a keytab on a Kerberos cluster the application master logs in on
  // its node and renews the job's tokens (docs/architecture.md, "Jobs that
  // outlive their tokens"): it needs the realm's KDCs as this machine knows them.
  const bool renews_tokens = spec.kerberos && yarn::uses_kerberos(configuration);
  std::optional<yarn::KerberosRealm> realm;
  if (renews_tokens) {
    const auto at = spec.kerberos->principal.rfind('@');
    auto found =
        yarn::realm_from_local_krb5_conf(at == std::string::npos ? "" : spec.kerberos->principal.substr(at + 1));
    if (!found) return bad_input("the job's keytab cannot be used on the cluster: " + found.error().message);
    realm = std::move(*found);
  }
  if (const auto first = yarn::first_to_end(tokens->tokens)) {
    const auto ends_ms = std::chrono::duration_cast<std::chrono::milliseconds>(first->ends.time_since_epoch()).count();
    if (renews_tokens) {
      progress("the job's delegation tokens end at " + utc_minute(ends_ms) +
               "; its application master gets new ones from the keytab before then");
    } else {
      const auto told = tokens_at_submit(ends_ms, first->kind, spec.timeout, wall_clock_ms());
      progress((told.warning ? "warning: " : "") + told.sentence);
    }
  }
  if (auto writable = check_output_writable(spec.output, configuration); !writable) {
    return bad_input(writable.error().message);
  }
  // Opened before anything is staged: a required run that cannot be made leaves nothing behind.
  JobSpec shipped = spec;
  // A sweep's run is the parent of its trials' runs, which its controller makes: no run per task.
  JobSpec tracked = spec;
  if (!options.sweep_search_json.empty() && tracked.mlflow) tracked.mlflow->nested = false;
  auto tracking = open_tracking_run(tracked, configuration, application_id, options.mlflow_tracking_uri, progress);
  if (!tracking) return tracking.error();
  if (*tracking) {
    shipped.env["MLFLOW_TRACKING_URI"] = (*tracking)->tracking_uri;
    shipped.env["MLFLOW_EXPERIMENT_ID"] = (*tracking)->experiment_id;
    shipped.env["MLFLOW_RUN_ID"] = (*tracking)->run_id;
    if (!(*tracking)->task_runs.empty()) {
      if (!shipped.mlflow) shipped.mlflow.emplace();
      shipped.mlflow->task_runs = (*tracking)->task_runs;
    }
  }
  auto staging = StagingArea::open(configuration, application_id);
  if (!staging) {
    if (*tracking) abandon_tracking_run(**tracking, staging.error().message);
    return cluster_error(staging.error().message);
  }
  auto& area = **staging;

  // From here on, a failure removes what was staged.
  auto fail = [&](SubmitError error) -> Result<SubmittedJob, SubmitError> {
    if (auto removed = area.remove(); !removed) error.message += " (and " + removed.error().message + ")";
    if (*tracking) abandon_tracking_run(**tracking, error.message);
    return error;
  };
  progress("staging the job's files in " + area.location());
  if (auto made = area.create(); !made) return fail(cluster_error(made.error().message));
  std::vector<yarn::LocalFile> staged;
  // Bytes staged, for a progress bar: local files only (remote ones are not copied).
  std::uint64_t bytes_total = 0;
  std::uint64_t bytes_staged = 0;
  auto size_of = [](const std::filesystem::path& path) {
    std::error_code size_error;
    const auto size = std::filesystem::file_size(path, size_error);
    return size_error ? std::uint64_t{0} : static_cast<std::uint64_t>(size);
  };
  for (const auto* list : {&spec.files, &spec.archives}) {
    for (const auto& file : *list) {
      if (file.source.find("://") == std::string::npos) bytes_total += size_of(file.source);
    }
  }
  auto counted = [&](Result<yarn::LocalFile> file) {
    if (file && options.staged_bytes) {
      bytes_staged += static_cast<std::uint64_t>(file->size);
      options.staged_bytes(bytes_staged, std::max(bytes_total, bytes_staged));
    }
    return file;
  };
  std::optional<ShippedEnvironment> shipped_environment;
  if (packed_environment) {
    auto cache = ClusterCache::open(configuration, CacheArea::python_environments);
    if (!cache) return fail(cluster_error(cache.error().message));
    auto found = (*cache)->find(packed_environment->name);
    if (!found) return fail(cluster_error(found.error().message));
    ShippedEnvironment shipment{packed_environment->name, "", packed_environment->bytes, 0,
                                packed_environment->packed_now};
    if (!*found) {
      progress("python_env: uploading " + packed_environment->name + " to " + (*cache)->location());
      auto uploaded = (*cache)->upload(
          packed_environment->archive, packed_environment->name, [&options](std::int64_t done, std::int64_t total) {
            if (options.environment_uploaded) {
              options.environment_uploaded(static_cast<std::uint64_t>(done), static_cast<std::uint64_t>(total));
            }
          });
      if (!uploaded) return fail(cluster_error(uploaded.error().message));
      shipment.uploaded_bytes = static_cast<std::uint64_t>(uploaded->size);
      *found = std::move(*uploaded);
    } else {
      progress("python_env: the cluster holds " + packed_environment->name + " already; 0 bytes uploaded");
    }
    shipment.location = (*found)->url;
    staged.push_back(**found);
    shipped_environment = std::move(shipment);
  }
  // Staged once per build, outside the job's directory, and kept by the
  // nodes; looked up while the job's own files go up.
  auto binary_lookup = std::async(std::launch::async,
                                  [&configuration, &binary] { return cached_container_binary(configuration, binary); });
  std::vector<StagingItem> items;
  for (const auto* list : {&spec.files, &spec.archives}) {
    for (const auto& file : *list) items.push_back({file.source, file.name, list == &spec.archives});
  }
  auto files = stage_all(area, items, files_staged_at_once);
  auto cached_binary = binary_lookup.get();
  if (!cached_binary) return fail(cluster_error(cached_binary.error().message));
  progress(std::string("container binary: ") + (cached_binary->uploaded_now ? "uploaded " : "the cluster holds ") +
           cached_binary->resource.url + (cached_binary->uploaded_now ? "" : " already"));
  if (cached_binary->uploaded_now) {
    // Known only now: part of this submit's bytes.
    bytes_total += static_cast<std::uint64_t>(cached_binary->resource.size);
    (void)counted(cached_binary->resource);
  }
  staged.push_back(cached_binary->resource);
  if (files.first_failure) {
    const auto& failure = files.files[*files.first_failure].error().message;
    return fail(items[*files.first_failure].remote() ? bad_input(failure) : cluster_error(failure));
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    staged.push_back(items[i].remote() ? std::move(*files.files[i]) : *counted(std::move(files.files[i])));
  }
  // An input in HDFS is localized by YARN into every task's container, kept
  // by each node for this user's later jobs: one download per node, not per
  // task, and none while it stays unchanged (docs/outputs-on-hdfs.md).
  if (is_hdfs_location(spec.input)) {
    auto input = area.describe(spec.input, std::string(input_link_name), false);
    if (!input) {
      return fail(bad_input("the job's input " + spec.input + " cannot be read: " + input.error().message +
                            "; check the path, or that you may read it"));
    }
    input->kept_for_user = true;
    staged.push_back(std::move(*input));
  }

  // The keytab goes to the application master alone: it is not among the
  // files every task gets, and the staging directory it is in goes at the end.
  std::optional<yarn::LocalFile> keytab;
  if (renews_tokens) {
    auto put = area.put_private(spec.kerberos->keytab, container_contract::keytab_link_name);
    if (!put)
      return fail(bad_input("the keytab " + spec.kerberos->keytab + " cannot be staged: " + put.error().message));
    keytab = std::move(*put);
  }

  const bool sweep = !options.sweep_search_json.empty();
  yarn::SubmissionRequest request;
  request.id = created->id;
  request.name = sweep ? spec.name + " (sweep)" : spec.name;
  request.queue = spec.queue;
  request.priority = spec.priority;
  request.tags = spec.tags;
  if (sweep) request.tags.push_back(std::string(sweep_tag));
  // A sweep's controller that dies goes on in a new attempt from its record;
  // its trials run as applications of their own meanwhile.
  request.max_attempts = sweep ? std::max(spec.max_attempts, 3) : spec.max_attempts;
  // A later attempt of the application master adopts the running tasks
  // instead of starting the job over.
  request.keep_containers_across_attempts = !sweep && spec.max_attempts > 1;
  request.am_resources = yarn::Resources{
      static_cast<std::int64_t>(spec.application_master.memory_mib), spec.application_master.vcores, {}};
  // The master runs no Python: only the tasks' containers localize the environment.
  for (const auto& file : staged) {
    if (shipped_environment && file.url == shipped_environment->location) continue;
    if (file.name == input_link_name) continue;
    request.am.files.push_back(file);
  }
  request.am.environment[container_contract::resources_variable] = yarn::encode_local_files(staged);
  request.am.environment[container_contract::staging_variable] = area.removal_location();
  if (keytab) {
    request.am.files.push_back(*keytab);
    request.am.environment[container_contract::kerberos_principal_variable] = spec.kerberos->principal;
    request.am.environment[container_contract::kerberos_realm_variable] = realm->name;
    std::string kdcs;
    for (const auto& kdc : realm->kdcs) kdcs += (kdcs.empty() ? "" : ",") + kdc;
    request.am.environment[container_contract::kerberos_kdcs_variable] = kdcs;
  }
  if (sweep) {
    // Each trial's master localizes what the controller does, the keytab too:
    // a trial renews its own tokens as a job does (docs/sweeps.md).
    request.am.environment[container_contract::master_files_variable] = yarn::encode_local_files(request.am.files);
    auto user = yarn::cluster_user(configuration);
    request.am.environment[container_contract::sweep_record_variable] =
        sweep_record_path(user ? *user : yarn::hadoop_user_name(), application_id);
  }
  request.am.commands = {std::string(sweep ? container_contract::sweep_command : container_contract::master_command) +
                         " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"};
  yarn::Credentials credentials = std::move(*tokens);
  credentials.secrets[container_contract::secret_alias] = *secret;
  // What the containers read, everything but how the client logged in, goes
  // with the launch rather than as a file: nothing waits for HDFS to close it.
  shipped.kerberos.reset();
  credentials.secrets[container_contract::job_spec_alias] = to_json(shipped).dump();
  if (sweep) credentials.secrets[container_contract::sweep_search_alias] = options.sweep_search_json;
  // A sweep's controller makes and ends the trials' runs, long after this shell
  // is gone; a job's master sends its scalars to its run as it trains.
  const bool master_tracks = *tracking && (sweep || is_hdfs_location(spec.output));
  if (master_tracks) {
    auto carried = carried_mlflow_credentials();
    if (!carried) return fail(bad_input(carried.error().message));
    if (!carried->empty()) credentials.secrets[container_contract::mlflow_credentials_alias] = *carried;
    if (!sweep) request.am.environment[container_contract::mlflow_run_variable] = (*tracking)->run_id;
  }
  // On an encrypted cluster the job's API speaks TLS with a certificate made
  // here for this job; its key goes only to the master, its pin to the record.
  std::string api_pin;
  if (job_api_transport(configuration).tls) {
    auto certificate = make_job_certificate(application_id);
    if (!certificate) return fail(cluster_error(certificate.error().message));
    credentials.secrets[container_contract::api_certificate_alias] = certificate->certificate_pem;
    credentials.secrets[container_contract::api_key_alias] = certificate->key_pem;
    api_pin = certificate->sha256;
  }
  request.am.credentials = credentials.serialize();

  progress("submitting " + application_id + " to queue " + spec.queue);
  if (auto submitted = client.submit(request); !submitted) {
    // The ResourceManager may have taken it before refusing: make sure nothing runs.
    (void)client.kill(created->id, "its submission failed");
    return fail(cluster_error(submitted.error().message));
  }
  JobRecord record;
  record.application_id = application_id;
  record.name = request.name;
  record.secret = *secret;
  record.api_certificate_sha256 = api_pin;
  record.staging = area.location();
  record.submitted_ms = wall_clock_ms();
  if (auto saved = JobRecords().save(record); !saved) {
    (void)client.kill(created->id, "its secret could not be kept on the submitting machine");
    return fail(cluster_error(saved.error().message + "; the job was killed, since nobody could follow it"));
  }
  record_submission(spec, request.name, configuration, application_id, record.submitted_ms, progress);
  // A sweep's run is ended by its controller, not by the clients that see the controller end.
  if (*tracking && !sweep) {
    auto history = HistoryStore::open();
    auto kept = history ? history->record_tracking_run(application_id, **tracking) : Result<void>(history.error());
    if (!kept) {
      progress("warning: the job is recorded in MLflow as run " + (*tracking)->run_id +
               ", but the history could not keep it, so its end will not be sent there: " + kept.error().message);
    } else {
      progress("MLflow run: " + (*tracking)->url());
    }
  }
  if (*tracking && sweep) progress("MLflow run: " + (*tracking)->url());
  return SubmittedJob{application_id, area.location(), std::move(shipped_environment), std::move(*tracking)};
}

}  // namespace spindle::client

#include "spindle/client/cluster_checks.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <thread>

#include "client/container_binary.h"
#include "client/staging.h"
#include "spindle/client/job_api_transport.h"
#include "spindle/client/security_tokens.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/job_spec.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/token_lifetime.h"
#include "spindle/yarn/web_tls.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::client {
namespace {

using namespace std::chrono_literals;

// Tells each check, and remembers whether one failed.
class Checklist {
 public:
  explicit Checklist(const std::function<void(const ClusterCheck&)>& tell) : tell_(tell) {}

  void ok(std::string step, std::string detail) { tell_({std::move(step), true, std::move(detail), false}); }
  void fail(std::string step, std::string what_to_do, bool bad_input = false) {
    failed_ = true;
    tell_({std::move(step), false, std::move(what_to_do), bad_input});
  }
  bool all_passed() const { return !failed_; }

 private:
  const std::function<void(const ClusterCheck&)>& tell_;
  bool failed_ = false;
};

void append(std::string& list, const std::string& item) {
  list += (list.empty() ? "" : ", ") + item;
}

// Which ResourceManager is active, and that the others answer, so that a
// failover has somewhere to go.
void check_resource_manager_ha(Checklist& checks, const yarn::HadoopConfiguration& configuration) {
  const auto ids = configuration.resource_manager_ids();
  if (ids.size() < 2) return;
  auto rest = yarn::ResourceManagerRest::from_configuration(configuration);
  const auto service =
      yarn::https_only(configuration, yarn::WebService::yarn) ? yarn::RmService::webapp_https : yarn::RmService::webapp;
  std::string active;
  std::string standbys;
  std::string silent;
  for (const auto& id : ids) {
    const auto address = configuration.resource_manager_address(service, id);
    auto info = rest.cluster_info_at(address);
    const std::string state =
        info && info->contains("clusterInfo") ? (*info)["clusterInfo"].value("haState", std::string()) : "";
    if (!info) {
      append(silent, id + " at " + address + " (" + info.error().message + ")");
    } else if (state == "ACTIVE") {
      append(active, id + " at " + address);
    } else {
      append(standbys, id + " at " + address + " (" + (state.empty() ? std::string("no HA state") : state) + ")");
    }
  }
  if (active.empty()) {
    checks.fail("ResourceManager HA", "no ResourceManager says it is active; make one active (yarn rmadmin -failover)");
  } else if (!silent.empty()) {
    checks.fail("ResourceManager HA",
                active + " is active, but " + silent + " does not answer; start it, or a failover has nowhere to go");
  } else {
    checks.ok("ResourceManager HA", active + " is active; standby " + standbys + " answers");
  }
}

void check_namenode_ha(Checklist& checks, yarn::WebHdfs& hdfs) {
  std::string active;
  std::string standbys;
  std::string silent;
  for (const auto& namenode : hdfs.options().namenodes) {
    auto state = hdfs.namenode_state(namenode);
    if (!state) {
      append(silent, namenode + " (" + state.error().message + ")");
    } else if (*state == "active") {
      append(active, namenode);
    } else {
      append(standbys, namenode + " (" + *state + ")");
    }
  }
  const std::string nameservice = "nameservice " + hdfs.options().nameservice + ": ";
  if (active.empty()) {
    checks.fail("NameNode HA", nameservice + "no NameNode says it is active; make one active (hdfs haadmin -failover)");
  } else if (!silent.empty()) {
    checks.fail("NameNode HA", nameservice + active + " is active, but " + silent +
                                   " does not answer; start it, or a failover has nowhere to go");
  } else {
    checks.ok("NameNode HA", nameservice + active + " is active; standby " + standbys + " answers");
  }
}

// How the job's traffic would travel: RPC as negotiated, the web servers as
// the policies say, the job API as the cluster allows. False when the web
// servers' trust cannot be set up, which every later check needs.
bool check_protections(Checklist& checks, const yarn::HadoopConfiguration& configuration,
                       yarn::ApplicationClient& client) {
  if (auto protection = client.protection()) {
    checks.ok("RPC protection",
              std::string(yarn::to_string(*protection)) +
                  (*protection == yarn::RpcProtection::privacy     ? " (every call encrypted)"
                   : *protection == yarn::RpcProtection::integrity ? " (every call signed, not encrypted)"
                                                                   : " (calls travel in clear)"));
  }
  const bool yarn_tls = yarn::https_only(configuration, yarn::WebService::yarn);
  const bool hdfs_tls = yarn::https_only(configuration, yarn::WebService::hdfs);
  if (yarn_tls || hdfs_tls) {
    auto trust = yarn::web_trust(configuration);
    if (!trust) {
      checks.fail("web TLS", trust.error().message, true);
      return false;
    }
    checks.ok("web TLS", std::string(yarn_tls ? "YARN" : "") + (yarn_tls && hdfs_tls ? " and " : "") +
                             (hdfs_tls ? "HDFS" : "") + " web servers over HTTPS, trusting " + (*trust)->source);
  } else {
    checks.ok("web TLS", "none: the web servers speak plain HTTP (yarn.http.policy and dfs.http.policy)");
  }
  const auto api_transport = job_api_transport(configuration);
  checks.ok("job API", std::string(api_transport.tls ? "TLS with a certificate made for each job, pinned by its "
                                                       "executors and this machine, and its TensorBoard behind TLS "
                                                       "with a certificate of its own: "
                                                     : "clear HTTP: ") +
                           api_transport.reason);
  return true;
}

// The NameNodes, when the cluster's file system is HDFS. False when the
// file system cannot be reached.
bool check_file_system(Checklist& checks, const yarn::HadoopConfiguration& configuration) {
  const std::string default_fs = configuration.get_or("fs.defaultFS", "file:///");
  if (!default_fs.starts_with("hdfs://")) {
    checks.ok("file system", default_fs + " (plain files; fine when every node shares them)");
    return true;
  }
  auto hdfs = yarn::WebHdfs::from_configuration(configuration);
  if (!hdfs) {
    checks.fail("file system", hdfs.error().message, true);
    return false;
  }
  auto root = hdfs->status("/");
  if (!root) {
    checks.fail("NameNode", root.error().message + "; check dfs.namenode.http-address and that WebHDFS is on");
    return false;
  }
  checks.ok("NameNode", "WebHDFS answers at " + hdfs->active_namenode());
  if (!hdfs->options().namenodes.empty()) check_namenode_ha(checks, *hdfs);
  return true;
}

// Starts the probe as an application master from `staging` and waits up to
// two minutes for its end.
void check_one_container(Checklist& checks, const yarn::HadoopConfiguration& configuration,
                         yarn::ApplicationClient& client, StagingArea& staging,
                         const std::filesystem::path& binary_path) {
  auto created = client.new_application();
  if (!created) {
    checks.fail("application", created.error().message);
    return;
  }
  auto binary = staging.put(binary_path, container_contract::binary_name, false);
  if (!binary) {
    checks.fail("staging", binary.error().message);
    return;
  }
  yarn::SubmissionRequest request;
  request.id = created->id;
  request.name = "spindle-doctor";
  request.type = "SPINDLE";
  request.am.files = {*binary};
  request.am.commands = {std::string(container_contract::probe_command) + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"};
  // On a Kerberos cluster the container fetches its file from HDFS with a delegation token.
  JobTokenOptions token_options;
  token_options.resource_manager_token = [&client](const std::string& renewer) {
    return client.delegation_token(renewer);
  };
  auto tokens = obtain_job_tokens(JobSpec{}, configuration, token_options);
  if (!tokens) {
    checks.fail("application", tokens.error().message);
    return;
  }
  if (!tokens->tokens.empty()) request.am.credentials = tokens->serialize();
  // How long a job may run on them: the cluster's maximum lifetime, read from the tokens themselves.
  if (const auto first = yarn::first_to_end(tokens->tokens)) {
    const auto days = std::chrono::duration<double, std::ratio<86400>>(first->ends - first->issued).count();
    char lifetime[32];
    if (days >= 1) {
      std::snprintf(lifetime, sizeof(lifetime), "%.1f days", days);
    } else if (days * 24 >= 1) {
      std::snprintf(lifetime, sizeof(lifetime), "%.1f hours", days * 24);
    } else {
      std::snprintf(lifetime, sizeof(lifetime), "%.1f minutes", days * 24 * 60);
    }
    checks.ok("token lifetime", std::string("the job's delegation tokens live at most ") + lifetime + " (" +
                                    first->kind +
                                    "); a job that runs longer needs --principal and --keytab, from which its "
                                    "application master gets new ones");
    // Which of the two ways past that lifetime the cluster grants (docs/architecture.md, "Jobs that outlive their
    // tokens"): the job's keytab always; the ResourceManager's proxy-user privileges only where it runs with them.
    auto served = yarn::ResourceManagerRest::from_configuration(configuration).server_configuration();
    if (!served) {
      checks.ok("token renewal",
                "jobs with --principal and --keytab renew their own tokens; whether the "
                "ResourceManager renews HDFS tokens as a proxy user is unknown: " +
                    served.error().message);
    } else if (served->get_bool("yarn.resourcemanager.proxy-user-privileges.enabled", false)) {
      checks.ok("token renewal",
                "jobs with --principal and --keytab renew their own tokens; the ResourceManager also "
                "gets new HDFS tokens as a proxy user "
                "(yarn.resourcemanager.proxy-user-privileges.enabled), which its NodeManagers use "
                "to localize containers and aggregate logs after the job's first tokens end");
    } else {
      checks.ok("token renewal",
                "jobs with --principal and --keytab renew their own tokens; the ResourceManager does "
                "not renew as a proxy user (yarn.resourcemanager.proxy-user-privileges.enabled is "
                "off), so after the job's first tokens end its NodeManagers cannot localize a new "
                "application master attempt's files on a node that lacks them, nor aggregate "
                "its logs");
    }
  }
  if (auto submitted = client.submit(request); !submitted) {
    checks.fail("application", submitted.error().message);
    return;
  }
  std::optional<yarn::ApplicationReport> last;
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (std::chrono::steady_clock::now() < deadline) {
    auto report = client.report(created->id);
    if (report) last = *report;
    if (report && report->finished()) break;
    std::this_thread::sleep_for(300ms);
  }
  const std::string app = created->id.to_string();
  if (!last || !last->finished()) {
    (void)client.kill(created->id, "spindle doctor gave up waiting");
    checks.fail("application", app + " did not finish within 2 minutes (last state " +
                                   (last ? last->state : std::string("unknown")) +
                                   "); check the queue's free capacity with `spindle cluster queues`");
    return;
  }
  const auto greeting = last->diagnostics.find(container_contract::probe_greeting);
  if (last->final_status != "SUCCEEDED" || greeting == std::string::npos) {
    checks.fail("application", app + " ended " + last->final_status + ": " + last->diagnostics);
    return;
  }
  checks.ok("application", app + " ran one container; it said: \"" + last->diagnostics.substr(greeting) + "\"");
}

}  // namespace

bool check_cluster(const yarn::HadoopConfiguration& configuration, const std::function<void(const ClusterCheck&)>& tell,
                   const std::filesystem::path& container_binary) {
  Checklist checks(tell);
  const auto binary = container_binary.empty() ? default_container_binary() : container_binary;
  if (auto checked = check_container_binary(binary); !checked) {
    checks.fail("container binary", checked.error().message + "; set SPINDLE_CONTAINER_BINARY to its path", true);
    return false;
  }
  std::string files;
  for (const auto& source : configuration.sources()) append(files, source);
  checks.ok("configuration", "read " + files);

  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(configuration));
  auto metrics = client.cluster_metrics();
  if (!metrics) {
    checks.fail("ResourceManager", metrics.error().message);
    return false;
  }
  if (metrics->active == 0) {
    checks.fail("ResourceManager",
                "it runs but no NodeManager is active, so no container can start; start the NodeManagers and check "
                "their logs");
    return false;
  }
  checks.ok("ResourceManager", std::to_string(metrics->active) + " active NodeManager(s)");
  check_resource_manager_ha(checks, configuration);
  if (!check_protections(checks, configuration, client)) return false;
  if (auto rest = yarn::ResourceManagerRest::from_configuration(configuration).cluster_info(); !rest) {
    checks.fail("ResourceManager web", rest.error().message);
    return false;
  }
  if (!check_file_system(checks, configuration)) return false;

  // The very place and code a submit stages with, under a name of its own.
  auto staging = StagingArea::open(configuration, "spindle-doctor-" + std::to_string(::getpid()));
  if (!staging) {
    checks.fail("staging", staging.error().message, true);
    return false;
  }
  const std::string marker = "spindle doctor " + std::to_string(::getpid());
  auto round_trip = (*staging)->create();
  if (round_trip) round_trip = (*staging)->write_and_read_back("hello.txt", marker);
  if (!round_trip) {
    checks.fail("staging", round_trip.error().message + "; check that " + yarn::hadoop_user_name() + " may write " +
                               (*staging)->location());
    (void)(*staging)->remove();
    return false;
  }
  checks.ok("staging", "wrote and read back a file in " + (*staging)->location());
  check_one_container(checks, configuration, client, **staging, binary);
  if (auto removed = (*staging)->remove(); !removed) {
    checks.fail("staging",
                "cannot remove " + (*staging)->location() + ": " + removed.error().message + "; remove it by hand");
  }
  return checks.all_passed();
}

}  // namespace spindle::client

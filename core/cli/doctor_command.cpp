#include "cli/doctor_command.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/exit_codes.h"
#include "spindle/client/job_api_transport.h"
#include "spindle/client/security_tokens.h"
#include "spindle/core/shell_quote.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/application_master_client.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/web_tls.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::cli {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr std::string_view probe_greeting = "spindle probe ran on ";

// Says how each step went; remembers the worst.
class Checklist {
 public:
  void ok(const std::string& step, const std::string& detail) {
    std::cout << "OK    " << step << ": " << detail << std::endl;
  }
  void fail(const std::string& step, const std::string& what_to_do, int code) {
    std::cout << "FAIL  " << step << ": " << what_to_do << std::endl;
    if (exit_code_ == exit_done) exit_code_ = code;
  }
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_ = exit_done;
};

// Where the probe's files go and how YARN names them: HDFS, or plain files.
struct Staging {
  std::optional<yarn::WebHdfs> hdfs;
  std::string directory;

  Result<yarn::LocalFile> put(const fs::path& local, const std::string& name) {
    const std::string target = directory + "/" + name;
    if (!hdfs) {
      std::error_code ec;
      fs::create_directories(directory, ec);
      fs::copy_file(local, target, fs::copy_options::overwrite_existing, ec);
      if (ec) return make_error("cannot copy " + local.string() + " to " + target + ": " + ec.message());
      const auto time = fs::last_write_time(target);
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::file_clock::to_sys(time).time_since_epoch());
      return yarn::LocalFile{name, "file://" + target, static_cast<std::int64_t>(fs::file_size(target)),
                             ms.count() / 1000 * 1000, false};
    }
    if (auto made = hdfs->mkdirs(directory); !made) return made.error();
    if (auto sent = hdfs->upload(local, target, true); !sent) return sent.error();
    auto status = hdfs->status(target);
    if (!status) return status.error();
    return yarn::LocalFile{name, hdfs->uri(target), status->length, status->modification_time, false};
  }

  void clean() {
    if (hdfs) {
      (void)hdfs->remove(directory, true);
    } else {
      std::error_code ec;
      fs::remove_all(directory, ec);
    }
  }
};

// HA ResourceManagers: which one is active, and that the others answer, so
// that a failover has somewhere to go.
void check_resource_manager_ha(Checklist& checks, const yarn::HadoopConfiguration& configuration) {
  const auto ids = configuration.resource_manager_ids();
  if (ids.size() < 2) return;
  auto rest = yarn::ResourceManagerRest::from_configuration(configuration);
  std::string active;
  std::string standbys;
  std::string silent;
  for (const auto& id : ids) {
    const auto address = configuration.resource_manager_address(yarn::https_only(configuration, yarn::WebService::yarn)
                                                                    ? yarn::RmService::webapp_https
                                                                    : yarn::RmService::webapp,
                                                                id);
    auto info = rest.cluster_info_at(address);
    const std::string state =
        info && info->contains("clusterInfo") ? (*info)["clusterInfo"].value("haState", std::string()) : "";
    if (!info) {
      silent += (silent.empty() ? "" : ", ") + id + " at " + address + " (" + info.error().message + ")";
    } else if (state == "ACTIVE") {
      active += (active.empty() ? "" : ", ") + id + " at " + address;
    } else {
      standbys += (standbys.empty() ? "" : ", ") + id + " at " + address + " (" +
                  (state.empty() ? std::string("no HA state") : state) + ")";
    }
  }
  if (active.empty()) {
    checks.fail("ResourceManager HA", "no ResourceManager says it is active; make one active (yarn rmadmin -failover)",
                exit_cluster_unreachable);
  } else if (!silent.empty()) {
    checks.fail("ResourceManager HA",
                active + " is active, but " + silent + " does not answer; start it, or a failover has nowhere to go",
                exit_cluster_unreachable);
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
      silent += (silent.empty() ? "" : ", ") + namenode + " (" + state.error().message + ")";
    } else if (*state == "active") {
      active += (active.empty() ? "" : ", ") + namenode;
    } else {
      standbys += (standbys.empty() ? "" : ", ") + namenode + " (" + *state + ")";
    }
  }
  const std::string nameservice = "nameservice " + hdfs.options().nameservice + ": ";
  if (active.empty()) {
    checks.fail("NameNode HA", nameservice + "no NameNode says it is active; make one active (hdfs haadmin -failover)",
                exit_cluster_unreachable);
  } else if (!silent.empty()) {
    checks.fail("NameNode HA",
                nameservice + active + " is active, but " + silent +
                    " does not answer; start it, or a failover has nowhere to go",
                exit_cluster_unreachable);
  } else {
    checks.ok("NameNode HA", nameservice + active + " is active; standby " + standbys + " answers");
  }
}

int run_doctor() {
  Checklist checks;
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    checks.fail("configuration", configuration.error().message, exit_bad_input);
    return checks.exit_code();
  }
  std::string files;
  for (const auto& source : configuration->sources()) files += (files.empty() ? "" : ", ") + source;
  checks.ok("configuration", "read " + files);

  yarn::ApplicationClient client(yarn::ApplicationClient::options_for(*configuration));
  auto metrics = client.cluster_metrics();
  if (!metrics) {
    checks.fail("ResourceManager", metrics.error().message, exit_cluster_unreachable);
    return checks.exit_code();
  }
  if (metrics->active == 0) {
    checks.fail("ResourceManager",
                "it runs but no NodeManager is active, so no container can start; start the "
                "NodeManagers and check their logs",
                exit_cluster_unreachable);
    return checks.exit_code();
  }
  checks.ok("ResourceManager", std::to_string(metrics->active) + " active NodeManager(s)");
  check_resource_manager_ha(checks, *configuration);
  // How the job's traffic would travel: RPC as negotiated, the web servers as the policies say.
  if (auto protection = client.protection()) {
    checks.ok("RPC protection",
              std::string(yarn::to_string(*protection)) +
                  (*protection == yarn::RpcProtection::privacy     ? " (every call encrypted)"
                   : *protection == yarn::RpcProtection::integrity ? " (every call signed, not encrypted)"
                                                                   : " (calls travel in clear)"));
  }
  const bool yarn_tls = yarn::https_only(*configuration, yarn::WebService::yarn);
  const bool hdfs_tls = yarn::https_only(*configuration, yarn::WebService::hdfs);
  if (yarn_tls || hdfs_tls) {
    auto trust = yarn::web_trust(*configuration);
    if (!trust) {
      checks.fail("web TLS", trust.error().message, exit_bad_input);
      return checks.exit_code();
    }
    checks.ok("web TLS", std::string(yarn_tls ? "YARN" : "") + (yarn_tls && hdfs_tls ? " and " : "") +
                             (hdfs_tls ? "HDFS" : "") + " web servers over HTTPS, trusting " + (*trust)->source);
  } else {
    checks.ok("web TLS", "none: the web servers speak plain HTTP (yarn.http.policy and dfs.http.policy)");
  }
  const auto api_transport = client::job_api_transport(*configuration);
  checks.ok("job API", std::string(api_transport.tls ? "TLS with a certificate made for each job, pinned by its "
                                                       "executors and this machine, and its TensorBoard behind TLS "
                                                       "with a certificate of its own: "
                                                     : "clear HTTP: ") +
                           api_transport.reason);
  if (auto rest = yarn::ResourceManagerRest::from_configuration(*configuration).cluster_info(); !rest) {
    checks.fail("ResourceManager web", rest.error().message, exit_cluster_unreachable);
    return checks.exit_code();
  }

  Staging staging;
  const std::string default_fs = configuration->get_or("fs.defaultFS", "file:///");
  const std::string user = yarn::hadoop_user_name();
  if (default_fs.starts_with("hdfs://")) {
    auto hdfs = yarn::WebHdfs::from_configuration(*configuration);
    if (!hdfs) {
      checks.fail("file system", hdfs.error().message, exit_bad_input);
      return checks.exit_code();
    }
    staging.hdfs = *hdfs;
    auto root = staging.hdfs->status("/");
    if (!root) {
      checks.fail("NameNode", root.error().message + "; check dfs.namenode.http-address and that WebHDFS is on",
                  exit_cluster_unreachable);
      return checks.exit_code();
    }
    checks.ok("NameNode", "WebHDFS answers at " + staging.hdfs->active_namenode());
    if (!staging.hdfs->options().namenodes.empty()) check_namenode_ha(checks, *staging.hdfs);
    staging.directory = "/tmp/spindle-doctor-" + user + "-" + std::to_string(::getpid());
  } else {
    checks.ok("file system", default_fs + " (plain files; fine when every node shares them)");
    staging.directory = (fs::temp_directory_path() / ("spindle-doctor-" + std::to_string(::getpid()))).string();
  }

  // A file written and read back.
  const std::string marker = "spindle doctor " + std::to_string(::getpid());
  if (staging.hdfs) {
    const std::string path = staging.directory + "/hello.txt";
    auto written = staging.hdfs->write(path, marker, true);
    auto read = written ? staging.hdfs->read_all(path) : Result<std::string>(written.error());
    if (!read || *read != marker) {
      checks.fail("write and read",
                  (read ? std::string("the file came back changed") : read.error().message) + "; check that " + user +
                      " may write under /tmp in HDFS",
                  exit_cluster_unreachable);
      staging.clean();
      return checks.exit_code();
    }
    checks.ok("write and read", path + " in HDFS");
  }

  // One container: this very program, staged and started as a tiny
  // application master that registers, says where it ran, and unregisters.
  auto created = client.new_application();
  if (!created) {
    checks.fail("application", created.error().message, exit_cluster_unreachable);
    staging.clean();
    return checks.exit_code();
  }
  auto binary = staging.put(fs::read_symlink("/proc/self/exe"), "spindle");
  if (!binary) {
    checks.fail("staging", binary.error().message, exit_cluster_unreachable);
    staging.clean();
    return checks.exit_code();
  }
  yarn::SubmissionRequest request;
  request.id = created->id;
  request.name = "spindle-doctor";
  request.type = "SPINDLE";
  request.am.files = {*binary};
  request.am.commands = {"./spindle probe-master 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"};
  // On a Kerberos cluster the container fetches its file from HDFS with a delegation token.
  client::JobTokenOptions token_options;
  token_options.resource_manager_token = [&client](const std::string& renewer) {
    return client.delegation_token(renewer);
  };
  auto tokens = client::obtain_job_tokens(JobSpec{}, *configuration, token_options);
  if (!tokens) {
    checks.fail("application", tokens.error().message, exit_cluster_unreachable);
    staging.clean();
    return checks.exit_code();
  }
  if (!tokens->tokens.empty()) request.am.credentials = tokens->serialize();
  if (auto submitted = client.submit(request); !submitted) {
    checks.fail("application", submitted.error().message, exit_cluster_unreachable);
    staging.clean();
    return checks.exit_code();
  }
  std::optional<yarn::ApplicationReport> last;
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (std::chrono::steady_clock::now() < deadline) {
    auto report = client.report(created->id);
    if (report) last = *report;
    if (report && report->finished()) break;
    std::this_thread::sleep_for(300ms);
  }
  staging.clean();
  const std::string app = created->id.to_string();
  if (!last || !last->finished()) {
    (void)client.kill(created->id, "spindle doctor gave up waiting");
    checks.fail("application",
                app + " did not finish within 2 minutes (last state " + (last ? last->state : std::string("unknown")) +
                    "); check the queue's free capacity with `spindle cluster queues`",
                exit_cluster_unreachable);
    return checks.exit_code();
  }
  const auto greeting = last->diagnostics.find(probe_greeting);
  if (last->final_status != "SUCCEEDED" || greeting == std::string::npos) {
    checks.fail("application", app + " ended " + last->final_status + ": " + last->diagnostics,
                exit_cluster_unreachable);
    return checks.exit_code();
  }
  checks.ok("application", app + " ran one container; it said: \"" + last->diagnostics.substr(greeting) + "\"");
  return checks.exit_code();
}

// Runs in the doctor's container.
int run_probe_master() {
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    return 1;
  }
  auto master = yarn::ApplicationMasterClient::from_container(*configuration);
  if (!master) {
    std::cerr << master.error().message << '\n';
    return 1;
  }
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  if (auto registered = (*master)->register_master(host, 0, ""); !registered) {
    std::cerr << registered.error().message << '\n';
    return 1;
  }
  const std::string message = std::string(probe_greeting) + host + " as " + yarn::hadoop_user_name();
  std::cout << message << std::endl;
  if (auto finished = (*master)->finish(yarn::FinalStatus::succeeded, message, ""); !finished) {
    std::cerr << finished.error().message << '\n';
    return 1;
  }
  return 0;
}

}  // namespace

void add_doctor_command(CLI::App& app, int& exit_code) {
  CLI::App* doctor = app.add_subcommand("doctor", "Check the Hadoop set-up end to end and say what to fix");
  doctor->callback([&exit_code] { exit_code = run_doctor(); });
  CLI::App* probe = app.add_subcommand("probe-master", "The application master spindle doctor starts");
  probe->group("");  // not for people
  probe->callback([&exit_code] { exit_code = run_probe_master(); });
}

}  // namespace spindle::cli

#include "spindle/client/tensorboard_lookup.h"
#include "spindle/core/job_state.h"

#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "spindle/client/job_records.h"
#include "spindle/core/cluster_spec.h"
#include "spindle/core/text.h"

namespace spindle::client {
namespace {

using tbproxy::UpstreamLookup;
using tbproxy::UpstreamState;
using tbproxy::UpstreamUnavailable;

}  // namespace

UpstreamLookup find_tensorboard(JobConnection& job) {
  const auto& id = job.application_id();
  auto report = job.report();
  if (!report) {
    return UpstreamUnavailable{UpstreamState::unreachable,
                               "The ResourceManager did not say where " + id + " runs: " + report.error().message};
  }
  // A job record may have come from elsewhere with its secret; YARN's word
  // on whose job it is decides.
  if (!job.cluster_user().empty() && report->user != job.cluster_user()) {
    return UpstreamUnavailable{UpstreamState::forbidden, "The job " + id + " belongs to " + report->user + ", not to " +
                                                             job.cluster_user() +
                                                             "; the proxy shows only your own jobs' TensorBoards."};
  }
  if (report->finished()) {
    return UpstreamUnavailable{UpstreamState::ended, "The job " + id + " has ended (" + to_lower(report->final_status) +
                                                         "), and its TensorBoard with it."};
  }
  const auto status = job.live_status();
  if (!status) {
    return UpstreamUnavailable{UpstreamState::starting, "The job " + id + " is " + to_lower(report->state) +
                                                            " and its TensorBoard is not up yet."};
  }
  if (parse_job_state(status->state) != JobState::running) {
    return UpstreamUnavailable{UpstreamState::ended,
                               "The job " + id + " has " + status->state + ", and its TensorBoard with it."};
  }
  for (const auto& task : status->tasks) {
    if (task.task != "tensorboard:0") continue;
    if (task.phase == "failed" || task.phase == "stopped" || task.phase == "succeeded") {
      return UpstreamUnavailable{UpstreamState::unreachable, "TensorBoard of " + id + " has " + task.phase + "."};
    }
    if (task.address.empty()) {
      return UpstreamUnavailable{UpstreamState::starting, "TensorBoard of " + id + " is " + task.phase + "."};
    }
    auto address = parse_host_port(task.address);
    if (!address) return UpstreamUnavailable{UpstreamState::unreachable, address.error().message};
    // On an encrypted cluster our TensorBoard serves behind TLS, and its
    // executor sends the pin with its first heartbeat, as the command starts.
    // (A tensorboard task with a command of its own serves as it chooses.)
    const bool encrypted = job.record() && !job.record()->api_certificate_sha256.empty();
    if (encrypted && task.certificate_sha256.empty() && task.phase != "running") {
      return UpstreamUnavailable{UpstreamState::starting, "TensorBoard of " + id + " is " + task.phase + "."};
    }
    return tbproxy::UpstreamAddress{address->host, address->port, task.certificate_sha256};
  }
  return UpstreamUnavailable{UpstreamState::unknown,
                             "The job " + id + " has no TensorBoard; add a tensorboard task to its spec."};
}

tbproxy::UpstreamResolver submitted_jobs_tensorboards(
    std::function<Result<yarn::HadoopConfiguration>()> configuration) {
  struct Jobs {
    std::mutex mutex;
    std::function<Result<yarn::HadoopConfiguration>()> load;
    std::optional<yarn::HadoopConfiguration> configuration;
    std::map<std::string, JobConnection> connections;
  };
  auto jobs = std::make_shared<Jobs>();
  jobs->load = std::move(configuration);
  return [jobs](const std::string& application_id) -> UpstreamLookup {
    if (!JobRecords().load(application_id)) {
      return UpstreamUnavailable{UpstreamState::unknown,
                                 "No job " + application_id + " was submitted from this machine."};
    }
    std::lock_guard lock(jobs->mutex);
    if (!jobs->configuration) {
      auto loaded = jobs->load();
      if (!loaded) return UpstreamUnavailable{UpstreamState::unreachable, loaded.error().message};
      jobs->configuration = std::move(*loaded);
    }
    auto found = jobs->connections.find(application_id);
    if (found == jobs->connections.end()) {
      auto opened = JobConnection::open(*jobs->configuration, application_id);
      if (!opened) return UpstreamUnavailable{UpstreamState::unreachable, opened.error().message};
      found = jobs->connections.emplace(application_id, std::move(*opened)).first;
    }
    return find_tensorboard(found->second);
  };
}

}  // namespace spindle::client

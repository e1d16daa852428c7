#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spindle/client/history_store.h"
#include "spindle/client/job_records.h"
#include "spindle/core/event_log.h"
#include "spindle/core/job_api_client.h"
#include "spindle/core/job_status.h"
#include "spindle/yarn/application_client.h"

namespace spindle::client {

// A submitted job as its owner follows it: the ResourceManager's report,
// and while the application master runs, its status and events through the
// job API (with the secret kept on this machine). Everything it sees goes
// into the history store too.
class JobConnection {
 public:
  static Result<JobConnection> open(const yarn::HadoopConfiguration& configuration, const std::string& application_id);

  const std::string& application_id() const { return application_id_; }
  Result<yarn::ApplicationReport> report();
  // The application master's view, when it runs and this machine has the secret.
  std::optional<JobStatus> live_status();
  // The newest status known: live, else the one kept when the job ended.
  std::optional<JobStatus> last_status();
  // Events after `after`; empty when the application master is not reachable.
  std::vector<JobEvent> events_after(std::uint64_t after, std::chrono::milliseconds wait);
  // Keeps the last status seen with the job's record.
  void remember_final_status();
  yarn::ApplicationClient& client() { return client_; }
  // The history store, unless it could not be opened (history_problem() says why).
  HistoryStore* history() { return history_.get(); }
  const std::string& history_problem() const { return history_problem_; }
  const std::optional<JobRecord>& record() const { return record_; }
  // Who the cluster knows us as (see yarn::cluster_user); empty if unknown.
  const std::string& cluster_user() const { return cluster_user_; }

 private:
  JobConnection(yarn::ApplicationClient client, yarn::ApplicationId id, std::optional<JobRecord> record)
      : client_(std::move(client)), id_(id), application_id_(id.to_string()), record_(std::move(record)) {}
  JobApiClient* api();
  void record_report(const yarn::ApplicationReport& report);
  void record_master_attempts(bool finished);
  void record_status(const JobStatus& status);

  yarn::ApplicationClient client_;
  yarn::ApplicationId id_;
  std::string application_id_;
  std::optional<JobRecord> record_;
  std::optional<yarn::ApplicationReport> last_report_;
  std::unique_ptr<JobApiClient> api_;
  std::string api_address_;
  std::optional<JobStatus> last_status_;
  std::shared_ptr<HistoryStore> history_;
  std::chrono::steady_clock::time_point master_attempts_recorded_{};
  bool final_master_attempts_recorded_ = false;
  std::string history_problem_;
  std::string cluster_user_;
};

}  // namespace spindle::client

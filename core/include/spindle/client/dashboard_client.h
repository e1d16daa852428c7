#pragma once

// The cluster as `spindle serve` shows it, from another machine: what the
// desktop app uses when the cluster is out of its reach and a gateway node
// runs the server (usually through an SSH tunnel). Every call is one
// request of the server's API, version 1 (see docs/serve.md).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/client/history_store.h"
#include "spindle/client/submit.h"
#include "spindle/client/will_it_fit.h"
#include "spindle/core/job_status.h"
#include "spindle/core/result.h"

namespace spindle::client {

struct DashboardAddress {
  std::string url;              // scheme://host:port, without a path
  std::string token;            // empty: sign in with the Kerberos ticket (spindle serve --keytab)
  std::string certificate_pem;  // the one certificate trusted for https; empty: the system's CAs
};

// The address spindle serve printed ("http://127.0.0.1:PORT/?token=..."),
// or one without the token when `token` is given apart; without any, the
// client signs in with the Kerberos ticket of its user.
Result<DashboardAddress> parse_dashboard_address(std::string_view printed, std::string_view token = {});

// A job as the server sees it now.
struct RemoteJob {
  JobHistoryEntry entry;     // name, state, diagnostics, tracking URL, times
  std::string yarn_state;    // RUNNING, FINISHED, ...
  std::string final_status;  // UNDEFINED, SUCCEEDED, ...
  bool finished = false;
  std::optional<JobStatus> status;  // the application master's, or the last one kept
  std::string tensorboard_path;     // "/tb/APP/" when the job has a TensorBoard
  std::string mlflow_run;
  // When the job runs and its delegation tokens end within a day, or have
  // ended: the sentence that says so (token_expiry.h).
  std::string tokens_notice;
};

struct RemoteLog {
  std::string text;
  bool aggregated = false;  // read from YARN's aggregated logs: the whole file, final
};

// A local file of the spec, read on this machine and sent with the submit:
// the server's machine has not got it. `name` is its name in the spec.
struct FileToSend {
  std::string name;
  std::string bytes;
};

// The most a submit may carry of a spec's local files; larger files belong
// on HDFS, named by their hdfs:// address.
inline constexpr std::uint64_t max_submit_upload_bytes = 32 * 1024 * 1024;

// The spec's local files under files: and archives:, read on this machine
// to go with a submit through a server; a file that cannot be read, or
// more than max_submit_upload_bytes in all, is bad input with a sentence.
Result<std::vector<FileToSend>, SubmitError> read_files_to_send(const JobSpec& spec);

struct RemotePoints {
  std::vector<MetricPoint> points;
  std::uint64_t next = 0;  // ask again with after=next for the new ones
};

class DashboardClient {
 public:
  explicit DashboardClient(DashboardAddress address);

  const DashboardAddress& address() const { return address_; }
  // A page of the server for a browser: the token rides along once, as
  // ?token=, and the server trades it for a cookie (without a token, the
  // browser must sign in with Kerberos itself).
  std::string browser_url(std::string_view path) const;

  Result<std::string> user() const;
  Result<std::vector<JobHistoryEntry>> jobs() const;
  // The cluster's nodes and queues as the server reads them now.
  Result<ClusterState> cluster() const;
  Result<RemoteJob> job(const std::string& application_id) const;
  // The spec kept at submit; empty when the server's machine keeps none.
  Result<std::string> spec(const std::string& application_id) const;
  Result<RemotePoints> metrics(const std::string& application_id, std::uint64_t after) const;
  Result<RemoteLog> log(const std::string& application_id, const std::string& task, const std::string& file) const;
  Result<void> kill(const std::string& application_id) const;
  // The new job's application id; a spec or request the server refuses as
  // bad input (400) is a bad_input error with its sentences, one per line.
  // `files` go along for the spec's local files of those names.
  Result<std::string, SubmitError> submit(const std::string& spec_yaml,
                                          const std::vector<FileToSend>& files = {}) const;

  // The JSON answer of GET or POST /api/v1/<path>; a refusal is an error
  // with the server's sentence, and `status` (when given) gets the HTTP
  // status (0 when the server was not reached).
  Result<std::string> call(std::string_view method, std::string_view path, const std::string& body = {},
                           long* status = nullptr, std::string_view content_type = "text/plain; charset=utf-8") const;

 private:
  DashboardAddress address_;
  // The signed cookie a Kerberos login left, shared by copies of the client
  // so that one login serves them all.
  std::shared_ptr<void> login_cookies_;
};

}  // namespace spindle::client

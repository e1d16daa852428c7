#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/tbproxy/upstream.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::serve {

// An answer of the API: an HTTP status and its JSON body. Refusals carry
// {"error": "<one sentence>"} and, for specs, "problems".
struct ApiReply {
  int status = 200;
  nlohmann::ordered_json body = nlohmann::ordered_json::object();
};

ApiReply refusal(int status, std::string sentence);

// A local file the spec names under files: or archives:, sent along with
// the submit by a client on another machine, whose paths the server cannot
// read. `name` is the file's name in the spec.
struct UploadedFile {
  std::string name;
  std::string bytes;
};

// A keytab sent with a submit, for a job that outlives its delegation
// tokens (docs/serve.md, "Submitting"): the principal and the keytab's
// bytes, written where only this server's user can read them and removed
// once the job is staged.
struct UploadedKeytab {
  std::string principal;
  std::string bytes;
};

// What the dashboard asks of the cluster and of this user's history, one
// blocking call each, called from the server's worker threads. The server
// acts as the user who runs it, with that user's tokens: a job of somebody
// else is refused (403), never shown or killed with the server's powers.
class ClusterAccess {
 public:
  virtual ~ClusterAccess() = default;
  // Who the server acts as, and for which cluster.
  virtual ApiReply session() = 0;
  virtual ApiReply jobs(bool include_finished, const std::string& search) = 0;
  // The job, its tasks (live while it runs, else as last seen), its links.
  virtual ApiReply job(const std::string& application_id) = 0;
  virtual ApiReply spec(const std::string& application_id) = 0;
  // Training scalars and container use: {points, next}. Points are numbered
  // in the order this server first saw them, which never changes, so a
  // client that asks again with `after` = the last answer's `next` gets
  // exactly what it lacks, whatever times the points carry.
  virtual ApiReply metrics(const std::string& application_id, std::uint64_t after) = 0;
  // One log file of one task from byte `offset` on, with the file's size.
  virtual ApiReply logs(const std::string& application_id, const std::string& task, const std::string& file,
                        std::uint64_t offset) = 0;
  virtual ApiReply kill(const std::string& application_id) = 0;
  virtual ApiReply cluster() = 0;
  virtual ApiReply validate(const std::string& spec_text) = 0;
  // `uploads` stand in for the local files of those names in the spec;
  // `keytab`, when sent, is the job's Kerberos login (as --keytab).
  virtual ApiReply submit(const std::string& spec_text, const std::vector<UploadedFile>& uploads,
                          const std::optional<UploadedKeytab>& keytab) = 0;
  // This user's sweeps (docs/sweeps.md): the list, one with every trial's
  // metric by step ("series"), killing it, and stopping or killing a trial.
  virtual ApiReply sweeps() = 0;
  virtual ApiReply sweep(const std::string& sweep_id) = 0;
  virtual ApiReply sweep_kill(const std::string& sweep_id) = 0;
  virtual ApiReply trial_end(const std::string& sweep_id, int trial, bool stop) = 0;
  // The TensorBoards the dashboard embeds: those of this user's jobs.
  virtual tbproxy::UpstreamResolver tensorboards() = 0;
};

// The real thing: the cluster of the configuration (asked on first use),
// the history store and the job records of this machine.
std::shared_ptr<ClusterAccess> yarn_cluster_access(std::function<Result<yarn::HadoopConfiguration>()> configuration);

}  // namespace spindle::serve

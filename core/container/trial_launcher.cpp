#include "container/trial_launcher.h"

#include <sys/random.h>

#include <nlohmann/json.hpp>

#include "container/token_file.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/job_certificate.h"
#include "spindle/core/spec_writer.h"
#include "spindle/core/text_encodings.h"
#include "spindle/yarn/credentials.h"

namespace spindle::container {

Result<LaunchedTrial> launch_trial(yarn::ApplicationClient& client, const TrialTemplate& shape, const JobSpec& job,
                                   const yarn::ApplicationId& id) {
  unsigned char bytes[32];
  if (::getrandom(bytes, sizeof(bytes), 0) != static_cast<ssize_t>(sizeof(bytes))) {
    return make_error("the system gave no random bytes for the trial's secret");
  }
  LaunchedTrial launched;
  launched.secret = hex_encode(std::string_view(reinterpret_cast<const char*>(bytes), sizeof(bytes)));

  yarn::SubmissionRequest request;
  request.id = id;
  request.name = job.name;
  request.queue = job.queue;
  request.priority = job.priority;
  request.tags = job.tags;
  request.max_attempts = job.max_attempts;
  request.keep_containers_across_attempts = job.max_attempts > 1;
  request.cancel_tokens_when_complete = false;
  request.am_resources =
      yarn::Resources{static_cast<std::int64_t>(job.application_master.memory_mib), job.application_master.vcores, {}};
  request.am.files = shape.master_files;
  request.am.environment[container_contract::resources_variable] = shape.resources;
  for (const auto& [name, value] : shape.login_environment) request.am.environment[name] = value;
  request.am.commands = {std::string(container_contract::master_command) + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"};

  yarn::Credentials credentials;
  auto fresh = TokenFile(shape.token_file).delegation_tokens();
  credentials.tokens = fresh.empty() ? shape.tokens : std::move(fresh);
  credentials.secrets[container_contract::secret_alias] = launched.secret;
  credentials.secrets[container_contract::job_spec_alias] = to_json(job).dump();
  if (shape.tls) {
    auto certificate = make_job_certificate(id.to_string());
    if (!certificate) return certificate.error();
    credentials.secrets[container_contract::api_certificate_alias] = certificate->certificate_pem;
    credentials.secrets[container_contract::api_key_alias] = certificate->key_pem;
    launched.api_pin = certificate->sha256;
  }
  request.am.credentials = credentials.serialize();
  if (auto submitted = client.submit(request); !submitted) {
    // The ResourceManager may have taken it before refusing: make sure nothing runs.
    (void)client.kill(id, "its submission failed");
    return submitted.error();
  }
  return launched;
}

}  // namespace spindle::container

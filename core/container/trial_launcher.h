#pragma once

#include <map>
#include <string>
#include <vector>

#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"
#include "spindle/yarn/application_client.h"
#include "spindle/yarn/application_types.h"
#include "spindle/yarn/token.h"

namespace spindle::container {

// What every trial of a sweep is launched with, as the sweep's submit
// staged it once: the files its application master localizes (the keytab
// among them for a sweep submitted with one), the files every task gets,
// and the controller's delegation tokens.
struct TrialTemplate {
  std::vector<yarn::LocalFile> master_files;
  std::string resources;  // SPINDLE_RESOURCES, as the controller got it
  // The controller's token file: read at each launch, since the controller's
  // refresher replaces the tokens in it when the sweep has a keytab.
  std::string token_file;
  std::map<std::string, yarn::Token> tokens;  // as the controller started, should the file not be read
  // The keytab's principal, realm and KDCs, for each trial's master to log
  // in and renew its own tokens; empty without a keytab.
  std::map<std::string, std::string> login_environment;
  bool tls = false;  // an encrypted cluster: each trial's job API gets a certificate of its own
};

// The secret and certificate pin a trial was submitted with, for those who
// follow it later.
struct LaunchedTrial {
  std::string secret;
  std::string api_pin;
};

// Submits one trial as an application of its own under `id`, which the
// caller recorded first. Its master removes no staging directory (the
// sweep's files stay until the sweep ends), and the ResourceManager keeps
// the shared tokens when it ends.
Result<LaunchedTrial> launch_trial(yarn::ApplicationClient& client, const TrialTemplate& shape, const JobSpec& job,
                                   const yarn::ApplicationId& id);

}  // namespace spindle::container

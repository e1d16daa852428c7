#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "spindle/core/cluster_spec.h"
#include "spindle/yarn/application_client.h"

namespace spindle::container {

// Where the job's application master answers now. When an attempt dies,
// YARN starts another on some node and port; executors that outlived it ask
// the ResourceManager for the attempt that replaced it, with the job's RM
// delegation token when it has one (a Kerberos cluster): the one
// `resource_manager_token` gives at the time, which changes where the
// master renews the job's tokens.
class MasterLocator {
 public:
  using TokenSource = std::function<std::optional<yarn::Token>()>;
  MasterLocator(std::string application_id, std::string user, TokenSource resource_manager_token);
  ~MasterLocator();

  // The address the ResourceManager has for the application's running
  // master, once that master has registered; nothing while there is none
  // (between attempts) or the ResourceManager cannot be asked.
  std::optional<HostPort> locate();
  // Whether the application has ended, as last seen by locate().
  bool application_ended() const { return ended_; }

 private:
  std::string application_id_;
  std::string user_;
  TokenSource resource_manager_token_;
  std::optional<yarn::Token> client_token_;  // the one client_ was made with
  std::unique_ptr<yarn::ApplicationClient> client_;
  bool ended_ = false;
};

}  // namespace spindle::container

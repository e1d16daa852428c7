#pragma once

#include <memory>
#include <optional>
#include <string>

#include "spindle/core/cluster_spec.h"
#include "spindle/yarn/application_client.h"

namespace spindle::container {

// Where the job's application master answers now. When an attempt dies,
// YARN starts another on some node and port; executors that outlived it ask
// the ResourceManager for the attempt that replaced it, with the job's RM
// delegation token when it has one (a Kerberos cluster).
class MasterLocator {
 public:
  MasterLocator(std::string application_id, std::string user, std::optional<yarn::Token> resource_manager_token);
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
  std::optional<yarn::Token> resource_manager_token_;
  std::unique_ptr<yarn::ApplicationClient> client_;
  bool ended_ = false;
};

}  // namespace spindle::container

#include "container/probe_master.h"

#include <unistd.h>

#include <iostream>
#include <string>

#include "spindle/core/container_contract.h"
#include "spindle/yarn/application_master_client.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::container {

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
  const std::string message =
      std::string(container_contract::probe_greeting) + host + " as " + yarn::hadoop_user_name();
  std::cout << message << std::endl;
  if (auto finished = (*master)->finish(yarn::FinalStatus::succeeded, message, ""); !finished) {
    std::cerr << finished.error().message << '\n';
    return 1;
  }
  return 0;
}

}  // namespace spindle::container

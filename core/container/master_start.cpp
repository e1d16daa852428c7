#include "container/master_start.h"

namespace spindle::container {

Result<MasterStart> start_master() {
  auto context = read_container_context();
  if (!context) return context.error();
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) return configuration.error();
  auto scheduler = yarn::ApplicationMasterClient::from_container(*configuration);
  if (!scheduler) return scheduler.error();
  return MasterStart{std::move(*context), std::move(*configuration), std::move(*scheduler)};
}

void fail_registered(yarn::ApplicationMasterClient& scheduler, const std::string& host, const std::string& why) {
  if (scheduler.register_master(host, 0, "")) (void)scheduler.finish(yarn::FinalStatus::failed, why, "");
}

}  // namespace spindle::container

// Any bytes as a Hadoop site file: an error or a configuration, never a crash.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "spindle/yarn/hadoop_configuration.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  spindle::yarn::HadoopConfiguration configuration;
  const std::string_view xml(reinterpret_cast<const char*>(data), size);
  if (configuration.add_xml(xml, "fuzz.xml").ok()) {
    (void)configuration.get("fs.defaultFS");
    (void)configuration.get_list("yarn.resourcemanager.ha.rm-ids");
    for (const auto& id : configuration.resource_manager_ids()) {
      (void)configuration.resource_manager_address(spindle::yarn::RmService::client, id);
    }
  }
  return 0;
}

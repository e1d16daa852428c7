// Any bytes as a job spec: the parser must answer with a spec or diagnostics,
// never crash, and a spec it accepts must survive its own normalized form.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "spindle/core/spec_parser.h"
#include "spindle/core/spec_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  spindle::SpecParseOptions options;
  options.check_files = false;
  options.base_dir = "/fuzz";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto spec = spindle::parse_job_spec(text, options);
  if (!spec.ok()) {
    for (const auto& diagnostic : spec.error()) {
      if (diagnostic.message.empty()) std::abort();  // every problem says what is wrong
    }
    return 0;
  }
  auto again = spindle::parse_job_spec(spindle::to_yaml(*spec), options);
  if (!again.ok() || !(*again == *spec)) std::abort();
  auto from_json = spindle::parse_job_spec(spindle::to_json(*spec).dump(), options);
  if (!from_json.ok() || !(*from_json == *spec)) std::abort();
  return 0;
}

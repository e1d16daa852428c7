// Any bytes as a sweep: as a spec with a sweep section, and as the sweep's
// record the controller keeps in HDFS (where anyone with the user's rights
// may change it). Both must answer with a value or one clear sentence, never
// crash; an accepted search survives its own JSON form, and the trials it
// draws stay within what the search allows.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "spindle/core/sweep_spec.h"
#include "spindle/core/sweep_state.h"
#include "spindle/core/sweep_trials.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  spindle::SpecParseOptions options;
  options.check_files = false;
  options.base_dir = "/fuzz";
  auto sweep = spindle::parse_sweep_spec(text, options);
  if (!sweep.ok()) {
    for (const auto& diagnostic : sweep.error()) {
      if (diagnostic.message.empty()) std::abort();
    }
  } else {
    const auto& search = sweep->search;
    auto again = spindle::search_from_json(spindle::search_to_json(search), "fuzz");
    if (!again.ok() || !(*again == search)) std::abort();
    // Drawing is bounded by the parser's limits; keep each run short.
    if (search.trials <= 200) {
      const auto trials = spindle::draw_trials(search);
      if (static_cast<int>(trials.size()) != search.trials) std::abort();
      for (const auto& trial : trials) {
        if (trial.values.size() != search.parameters.size()) std::abort();
        (void)spindle::trial_job(sweep->job, search, trial, "application_1_0001");
      }
    }
  }
  auto record = spindle::sweep_record_from_json(text);
  if (!record.ok()) {
    if (record.error().message.empty()) std::abort();
  } else {
    auto back = spindle::sweep_record_from_json(spindle::to_json(*record));
    if (!back.ok() || back->trials.size() != record->trials.size()) std::abort();
  }
  return 0;
}

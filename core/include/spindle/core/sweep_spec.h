#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/diagnostic.h"
#include "spindle/core/job_spec.h"
#include "spindle/core/result.h"
#include "spindle/core/spec_parser.h"

namespace spindle {

// One hyper-parameter of a sweep (docs/sweeps.md). Its values reach each
// trial as the environment variable `variable` and as {{name}} in commands.
struct SweepParameter {
  enum class Kind { grid, choice, uniform, log_uniform, integer };
  std::string name;      // learning_rate
  std::string variable;  // LEARNING_RATE
  Kind kind = Kind::grid;
  std::vector<std::string> values;  // grid and choice, as written
  double low = 0;                   // uniform, log_uniform, integer
  double high = 0;

  friend bool operator==(const SweepParameter&, const SweepParameter&) = default;
};

struct SweepMetric {
  std::string tag;  // a scalar's tag, e.g. loss
  std::string run;  // the TensorBoard run that logs it (a subdirectory of the output); empty: any run
  bool maximize = false;

  friend bool operator==(const SweepMetric&, const SweepMetric&) = default;
};

struct EarlyStopping {
  enum class Rule { none, asha, median };
  Rule rule = Rule::none;
  std::vector<std::int64_t> steps;  // the rungs, ascending
  int reduction_factor = 3;         // ASHA: the best 1/reduction_factor of a rung go on
  int min_trials = 3;               // median: how many others must have reached a rung first

  friend bool operator==(const EarlyStopping&, const EarlyStopping&) = default;
};

struct SweepSearch {
  enum class Method { grid, random };
  Method method = Method::random;
  std::vector<SweepParameter> parameters;
  SweepMetric metric;
  int trials = 0;    // 0 with grid: every combination
  int parallel = 1;  // trials running at once, at most
  std::uint64_t seed = 1;
  EarlyStopping early_stopping;

  friend bool operator==(const SweepSearch&, const SweepSearch&) = default;
};

// A job spec and the search over it.
struct SweepSpec {
  JobSpec job;
  SweepSearch search;
};

std::string_view to_string(SweepParameter::Kind kind);
std::string_view to_string(SweepSearch::Method method);
std::string_view to_string(EarlyStopping::Rule rule);

// Reads a spec with a `sweep` section, or a job spec and, with `search_text`,
// a file beside it that holds the section's keys at its top level. Every
// problem of both comes back at once, with file, line and column.
Result<SweepSpec, Diagnostics> parse_sweep_spec(std::string_view spec_text, const SpecParseOptions& options,
                                                std::optional<std::string_view> search_text = std::nullopt,
                                                const std::string& search_source = "");

// The same from files: the spec, and the search file beside it when given.
Result<SweepSpec, Diagnostics> load_sweep_spec(const std::filesystem::path& spec_path, bool check_files,
                                               const std::filesystem::path& search_path = {});

// Whether a spec's text has a top-level `sweep` key (read loosely: a spec
// that is not valid YAML has none).
bool has_sweep_section(std::string_view spec_text);

// The search as a JSON object with the keys the spec uses, so it reads back.
std::string search_to_json(const SweepSearch& search);
Result<SweepSearch, Diagnostics> search_from_json(std::string_view json, const std::string& source_name);

}  // namespace spindle

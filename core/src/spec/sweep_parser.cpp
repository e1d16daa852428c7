// The `sweep` section of a spec (docs/sweeps.md): parameters, metric, method,
// trials, parallelism and early stopping, each problem with its place.

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "spec/suggest.h"
#include "spec/yaml_fields.h"
#include "spindle/core/sweep_spec.h"

namespace spindle {
namespace {

using detail::YamlFields;

constexpr std::array<std::string_view, 7> search_keys{"method",   "parameters", "metric",        "trials",
                                                      "parallel", "seed",       "early_stopping"};
constexpr std::array<std::string_view, 2> methods{"grid", "random"};
constexpr std::array<std::string_view, 3> metric_keys{"tag", "run", "goal"};
constexpr std::array<std::string_view, 2> goals{"minimize", "maximize"};
constexpr std::array<std::string_view, 6> parameter_keys{"grid",        "choice",  "uniform",
                                                         "log_uniform", "integer", "variable"};
constexpr std::array<std::string_view, 4> stopping_keys{"rule", "steps", "reduction_factor", "min_trials"};
constexpr std::array<std::string_view, 3> rules{"asha", "median", "none"};

// The most trials one sweep may have: each is a YARN application.
constexpr std::int64_t max_trials = 10'000;

// Variables every trial's containers get from Spindle, YARN or the job's
// framework: a parameter of that name would be overwritten or break the task.
bool is_reserved_variable(std::string_view name) {
  static constexpr std::array<std::string_view, 6> prefixes{"SPINDLE_", "DTF_", "HADOOP_", "YARN_", "JAVA_", "MLFLOW_"};
  static constexpr std::array<std::string_view, 11> names{"PATH",       "HOME",
                                                          "USER",       "PWD",
                                                          "SHELL",      "TF_CONFIG",
                                                          "PYTHONPATH", "LD_LIBRARY_PATH",
                                                          "LD_PRELOAD", "CUDA_VISIBLE_DEVICES",
                                                          "SWEEP_TRIAL"};
  for (auto prefix : prefixes) {
    if (name.starts_with(prefix)) return true;
  }
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_identifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::optional<double> as_number(const YAML::Node& node) {
  if (!node.IsScalar() || node.Tag() == "!") return std::nullopt;
  const auto& text = node.Scalar();
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

class SearchReader {
 public:
  explicit SearchReader(YamlFields& fields) : fields_(fields) {}

  SweepSearch read(const YAML::Node& node, const std::string& field) {
    fields_.remember(field, node);
    bool has_metric = false;
    bool has_parameters = false;
    YAML::Node trials_node;
    const bool mapping = fields_.for_each_key(
        node, field, search_keys,
        [&](const std::string& key, const YAML::Node&, const YAML::Node& value, const std::string& at) {
          fields_.remember(at, value);
          if (key == "method") {
            read_method(value, at);
          } else if (key == "parameters") {
            has_parameters = true;
            read_parameters(value, at);
          } else if (key == "metric") {
            has_metric = true;
            read_metric(value, at);
          } else if (key == "trials") {
            trials_node = value;
            if (auto trials = fields_.integer(value, at, 1, max_trials, "a whole number of trials")) {
              search_.trials = static_cast<int>(*trials);
            }
          } else if (key == "parallel") {
            if (auto parallel = fields_.integer(value, at, 1, 1000, "a whole number of trials")) {
              search_.parallel = static_cast<int>(*parallel);
            }
          } else if (key == "seed") {
            if (auto seed = fields_.integer(value, at, 0, std::numeric_limits<std::int64_t>::max(), "a whole number")) {
              search_.seed = static_cast<std::uint64_t>(*seed);
            }
          } else if (key == "early_stopping") {
            read_early_stopping(value, at);
          }
        });
    if (!mapping) {
      fields_.error(node, field,
                    "must be a mapping with parameters and a metric, e.g. `{parameters: {learning_rate: [0.1, "
                    "0.01]}, metric: loss}`, not " +
                        detail::describe(node));
      return search_;
    }
    if (!has_parameters) {
      fields_.error_at(fields_.place_of(field), field + ".parameters",
                       "is missing; name what the trials vary, e.g. `parameters: {learning_rate: {log_uniform: "
                       "[0.001, 0.3]}}`");
    }
    if (!has_metric) {
      fields_.error_at(fields_.place_of(field), field + ".metric",
                       "is missing; name the scalar the trials are judged by, e.g. `metric: {tag: loss, goal: "
                       "minimize}`");
    }
    check_method(field, trials_node);
    return search_;
  }

 private:
  void read_method(const YAML::Node& value, const std::string& at) {
    auto method = fields_.string(value, at);
    if (!method) return;
    if (*method == "grid") {
      search_.method = SweepSearch::Method::grid;
    } else if (*method == "random") {
      search_.method = SweepSearch::Method::random;
    } else {
      fields_.error(value, at,
                    "\"" + *method + "\" is not a search method" + detail::did_you_mean(*method, methods) +
                        "; use grid (every combination) or random");
    }
  }

  void read_parameters(const YAML::Node& value, const std::string& at) {
    const bool mapping = fields_.for_each_key(
        value, at, {},
        [&](const std::string& name, const YAML::Node& key_node, const YAML::Node& item, const std::string& where) {
          fields_.remember(where, item);
          if (!is_identifier(name) || name == "trial") {
            fields_.error(key_node, where,
                          name == "trial" ? std::string("\"trial\" is the trial's number ({{trial}}); give the "
                                                        "parameter another name")
                                          : "\"" + name +
                                                "\" is not a parameter name; use letters, digits and _, not "
                                                "starting with a digit, e.g. learning_rate");
            return;
          }
          if (auto parameter = read_parameter(name, item, where)) search_.parameters.push_back(std::move(*parameter));
        });
    if (!mapping) {
      fields_.error(value, at,
                    "must map each parameter's name to its values, e.g. `{learning_rate: {log_uniform: [0.001, "
                    "0.3]}, width: [16, 32, 64]}`, not " +
                        detail::describe(value));
    } else if (value.size() == 0) {
      fields_.error(value, at, "names no parameter; a sweep varies at least one");
    }
  }

  std::optional<SweepParameter> read_parameter(const std::string& name, const YAML::Node& item, const std::string& at) {
    SweepParameter parameter;
    parameter.name = name;
    parameter.variable = upper(name);
    // A bare list is a grid: `width: [16, 32, 64]`.
    if (item.IsSequence()) {
      if (!read_values(parameter, SweepParameter::Kind::grid, item, at)) return std::nullopt;
      return allowed_variable(parameter, item, at) ? std::optional(parameter) : std::nullopt;
    }
    int kinds = 0;
    bool good = true;
    const bool mapping = fields_.for_each_key(
        item, at, parameter_keys,
        [&](const std::string& key, const YAML::Node&, const YAML::Node& value, const std::string& where) {
          if (key == "variable") {
            auto variable = fields_.non_empty_string(value, where);
            if (!variable) {
              good = false;
            } else if (!is_identifier(*variable)) {
              fields_.error(value, where,
                            "\"" + *variable + "\" is not an environment variable's name; use letters, digits and _");
              good = false;
            } else {
              parameter.variable = *variable;
            }
            return;
          }
          ++kinds;
          if (key == "grid" || key == "choice") {
            good = read_values(parameter, key == "grid" ? SweepParameter::Kind::grid : SweepParameter::Kind::choice,
                               value, where) &&
                   good;
          } else {
            const auto kind = key == "uniform"       ? SweepParameter::Kind::uniform
                              : key == "log_uniform" ? SweepParameter::Kind::log_uniform
                                                     : SweepParameter::Kind::integer;
            good = read_range(parameter, kind, value, where) && good;
          }
        });
    if (!mapping) {
      fields_.error(item, at,
                    "must be a list of values or one of grid, choice, uniform, log_uniform, integer, e.g. "
                    "`{uniform: [0.0, 0.5]}`, not " +
                        detail::describe(item));
      return std::nullopt;
    }
    if (kinds != 1) {
      fields_.error(item, at,
                    kinds == 0 ? std::string("gives no values; use one of grid, choice, uniform, log_uniform, integer")
                               : std::string("gives its values more than one way; keep one of grid, choice, uniform, "
                                             "log_uniform, integer"));
      return std::nullopt;
    }
    if (!allowed_variable(parameter, item, at)) return std::nullopt;
    return good ? std::optional(parameter) : std::nullopt;
  }

  bool allowed_variable(const SweepParameter& parameter, const YAML::Node& item, const std::string& at) {
    if (!is_reserved_variable(parameter.variable)) return true;
    fields_.error(item, at,
                  "would set the environment variable " + parameter.variable +
                      ", which Spindle, YARN or the framework sets for every task; give it another name with "
                      "`variable:`");
    return false;
  }

  bool read_values(SweepParameter& parameter, SweepParameter::Kind kind, const YAML::Node& value,
                   const std::string& at) {
    parameter.kind = kind;
    if (!value.IsSequence() || value.size() == 0) {
      fields_.error(value, at,
                    "must be a list of one value or more, e.g. [16, 32, 64], not " + detail::describe(value));
      return false;
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const auto& one = value[i];
      const auto where = at + "[" + std::to_string(i) + "]";
      if (!one.IsScalar()) {
        fields_.error(one, where, "is " + detail::describe(one) + "; a value is a number or a word");
        return false;
      }
      if (!seen.insert(one.Scalar()).second) {
        fields_.error(one, where, "\"" + one.Scalar() + "\" is in the list twice; each value once");
        return false;
      }
      parameter.values.push_back(one.Scalar());
    }
    return true;
  }

  bool read_range(SweepParameter& parameter, SweepParameter::Kind kind, const YAML::Node& value,
                  const std::string& at) {
    parameter.kind = kind;
    const auto example = kind == SweepParameter::Kind::integer ? std::string("[1, 8]") : std::string("[0.001, 0.3]");
    if (!value.IsSequence() || value.size() != 2) {
      fields_.error(value, at, "must be a [low, high] pair, e.g. " + example + ", not " + detail::describe(value));
      return false;
    }
    const auto low = as_number(value[0]);
    const auto high = as_number(value[1]);
    if (!low || !high) {
      fields_.error(!low ? value[0] : value[1], at, "must hold two numbers, e.g. " + example);
      return false;
    }
    if (kind == SweepParameter::Kind::integer &&
        (std::floor(*low) != *low || std::floor(*high) != *high || std::fabs(*low) > 1e15 || std::fabs(*high) > 1e15)) {
      fields_.error(value, at, "must hold two whole numbers, e.g. " + example);
      return false;
    }
    if (!(*low < *high)) {
      fields_.error(value, at,
                    "runs from " + value[0].Scalar() + " to " + value[1].Scalar() + "; give the lower bound first");
      return false;
    }
    if (kind == SweepParameter::Kind::log_uniform && *low <= 0) {
      fields_.error(value[0], at, "is " + value[0].Scalar() + "; a log-uniform range lies above 0, e.g. " + example);
      return false;
    }
    parameter.low = *low;
    parameter.high = *high;
    return true;
  }

  void read_metric(const YAML::Node& value, const std::string& at) {
    // `metric: loss` is a tag to minimise.
    if (value.IsScalar()) {
      if (auto tag = fields_.non_empty_string(value, at)) search_.metric.tag = *tag;
      return;
    }
    bool has_tag = false;
    const bool mapping = fields_.for_each_key(
        value, at, metric_keys,
        [&](const std::string& key, const YAML::Node&, const YAML::Node& item, const std::string& where) {
          if (key == "goal") {
            auto goal = fields_.string(item, where);
            if (goal && (*goal == "minimize" || *goal == "maximize")) {
              search_.metric.maximize = *goal == "maximize";
            } else if (goal) {
              fields_.error(item, where,
                            "\"" + *goal + "\" is not a goal" + detail::did_you_mean(*goal, goals) +
                                "; use minimize (a loss) or maximize (an accuracy)");
            }
            return;
          }
          auto text = fields_.non_empty_string(item, where);
          if (!text) return;
          if (key == "tag") {
            has_tag = true;
            search_.metric.tag = *text;
          } else {
            search_.metric.run = *text;
          }
        });
    if (!mapping) {
      fields_.error(value, at, "must be a scalar's tag or `{tag, run, goal}`, not " + detail::describe(value));
    } else if (!has_tag) {
      fields_.error(value, at + ".tag", "is missing; name the scalar's tag, e.g. `tag: loss`");
    }
  }

  void read_early_stopping(const YAML::Node& value, const std::string& at) {
    auto& stopping = search_.early_stopping;
    bool has_rule = false;
    YAML::Node steps_node;
    const bool mapping = fields_.for_each_key(
        value, at, stopping_keys,
        [&](const std::string& key, const YAML::Node&, const YAML::Node& item, const std::string& where) {
          if (key == "rule") {
            auto rule = fields_.string(item, where);
            if (!rule) return;
            has_rule = true;
            if (*rule == "asha") {
              stopping.rule = EarlyStopping::Rule::asha;
            } else if (*rule == "median") {
              stopping.rule = EarlyStopping::Rule::median;
            } else if (*rule == "none") {
              stopping.rule = EarlyStopping::Rule::none;
            } else {
              fields_.error(item, where,
                            "\"" + *rule + "\" is not a stopping rule" + detail::did_you_mean(*rule, rules) +
                                "; use asha (successive halving), median or none");
            }
          } else if (key == "steps") {
            steps_node = item;
            read_steps(item, where);
          } else if (key == "reduction_factor") {
            if (auto factor = fields_.integer(item, where, 2, 100, "a whole number")) {
              stopping.reduction_factor = static_cast<int>(*factor);
            }
          } else if (auto minimum = fields_.integer(item, where, 1, 1000, "a whole number of trials")) {
            stopping.min_trials = static_cast<int>(*minimum);
          }
        });
    if (!mapping) {
      fields_.error(value, at,
                    "must be a mapping such as `{rule: asha, steps: [50, 150, 450]}`, not " + detail::describe(value));
      return;
    }
    if (!has_rule) {
      fields_.error(value, at + ".rule", "is missing; use asha (successive halving), median or none");
    } else if (stopping.rule != EarlyStopping::Rule::none && !steps_node.IsDefined()) {
      fields_.error(value, at + ".steps",
                    "is missing; give the training steps at which trials are compared, e.g. [50, 150, 450]");
    }
  }

  void read_steps(const YAML::Node& value, const std::string& at) {
    if (!value.IsSequence() || value.size() == 0) {
      fields_.error(value, at, "must be a list of training steps, e.g. [50, 150, 450], not " + detail::describe(value));
      return;
    }
    std::vector<std::int64_t> steps;
    for (std::size_t i = 0; i < value.size(); ++i) {
      auto step = fields_.integer(value[i], at + "[" + std::to_string(i) + "]", 1,
                                  std::numeric_limits<std::int64_t>::max() / 2, "a training step above 0");
      if (!step) return;
      if (!steps.empty() && *step <= steps.back()) {
        fields_.error(value[i], at + "[" + std::to_string(i) + "]",
                      "is " + std::to_string(*step) + ", not after the step before it (" +
                          std::to_string(steps.back()) + "); list the steps in ascending order");
        return;
      }
      steps.push_back(*step);
    }
    search_.early_stopping.steps = std::move(steps);
  }

  // The rules that tie the keys together.
  void check_method(const std::string& field, const YAML::Node& trials_node) {
    if (search_.method == SweepSearch::Method::random) {
      if (search_.trials == 0 && !trials_node.IsDefined()) {
        fields_.error_at(fields_.place_of(field), field + ".trials",
                         "is missing; a random search needs the number of trials to draw, e.g. `trials: 8`");
      }
      return;
    }
    std::uint64_t combinations = 1;
    for (const auto& parameter : search_.parameters) {
      std::uint64_t count = 0;
      if (parameter.kind == SweepParameter::Kind::grid || parameter.kind == SweepParameter::Kind::choice) {
        count = parameter.values.size();
      } else if (parameter.kind == SweepParameter::Kind::integer && parameter.high - parameter.low < 1000) {
        count = static_cast<std::uint64_t>(parameter.high - parameter.low) + 1;
      } else {
        fields_.error_at(fields_.place_of(field + ".parameters." + parameter.name),
                         field + ".parameters." + parameter.name,
                         "is a " + std::string(to_string(parameter.kind)) +
                             " range, which a grid search cannot list; give its values as a list, or use method: "
                             "random");
        return;
      }
      combinations = std::min<std::uint64_t>(combinations * count, static_cast<std::uint64_t>(max_trials) + 1);
    }
    if (combinations > static_cast<std::uint64_t>(max_trials)) {
      fields_.error_at(fields_.place_of(field + ".parameters"), field + ".parameters",
                       "make a grid of more than " + std::to_string(max_trials) +
                           " combinations; list fewer values, or use method: random with a number of trials");
      return;
    }
    if (search_.trials > 0 && static_cast<std::uint64_t>(search_.trials) != combinations) {
      fields_.error(trials_node, field + ".trials",
                    "is " + std::to_string(search_.trials) + ", but the grid has " + std::to_string(combinations) +
                        " combinations, and a grid search runs each once; leave trials out");
      return;
    }
    search_.trials = static_cast<int>(combinations);
  }

  YamlFields& fields_;
  SweepSearch search_;
};

// Where "{{" first occurs in the text with `name` after it, for a diagnostic.
YamlFields::Place place_in_text(std::string_view text, std::string_view needle) {
  const auto offset = text.find(needle);
  if (offset == std::string_view::npos) return {};
  const auto before = text.substr(0, offset);
  const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
  const auto start = before.rfind('\n');
  return {line, static_cast<int>(offset - (start == std::string_view::npos ? 0 : start + 1)) + 1};
}

// Every {{name}} in the tasks' commands names a parameter or the trial.
void check_placeholders(const SweepSpec& sweep, std::string_view text, const std::string& source_name,
                        Diagnostics& diagnostics) {
  std::set<std::string> known{"trial"};
  for (const auto& parameter : sweep.search.parameters) known.insert(parameter.name);
  for (const auto& task : sweep.job.tasks) {
    for (std::size_t at = task.command.find("{{"); at != std::string::npos; at = task.command.find("{{", at + 2)) {
      const auto end = task.command.find("}}", at + 2);
      std::string name = task.command.substr(at + 2, end == std::string::npos ? std::string::npos : end - at - 2);
      if (end != std::string::npos && known.count(name)) continue;
      const auto shown = end == std::string::npos ? task.command.substr(at) : "{{" + name + "}}";
      const auto place = place_in_text(text, shown);
      std::string names;
      for (const auto& one : known) names += (names.empty() ? "" : ", ") + one;
      diagnostics.push_back(
          {source_name, place.line, place.column, "tasks." + task.type + ".command",
           shown + " names no parameter of the sweep (it has " + names + "); write {{name}} with one of those"});
    }
  }
  for (const auto& parameter : sweep.search.parameters) {
    auto clash = [&](const std::map<std::string, std::string>& env, const std::string& field) {
      if (!env.count(parameter.variable)) return;
      const auto place = place_in_text(text, parameter.variable + ":");
      diagnostics.push_back({source_name, place.line, place.column, field + "." + parameter.variable,
                             "is set here and by the sweep's parameter " + parameter.name +
                                 ", which gives each trial its own value; remove it from env"});
    };
    clash(sweep.job.env, "env");
    for (const auto& task : sweep.job.tasks) clash(task.env, "tasks." + task.type + ".env");
  }
}

}  // namespace

std::string_view to_string(SweepParameter::Kind kind) {
  switch (kind) {
    case SweepParameter::Kind::grid: return "grid";
    case SweepParameter::Kind::choice: return "choice";
    case SweepParameter::Kind::uniform: return "uniform";
    case SweepParameter::Kind::log_uniform: return "log_uniform";
    case SweepParameter::Kind::integer: return "integer";
  }
  return "grid";
}

std::string_view to_string(SweepSearch::Method method) {
  return method == SweepSearch::Method::grid ? "grid" : "random";
}

std::string_view to_string(EarlyStopping::Rule rule) {
  switch (rule) {
    case EarlyStopping::Rule::asha: return "asha";
    case EarlyStopping::Rule::median: return "median";
    case EarlyStopping::Rule::none: return "none";
  }
  return "none";
}

bool has_sweep_section(std::string_view spec_text) {
  try {
    const YAML::Node root = YAML::Load(std::string(spec_text));
    return root.IsMap() && root["sweep"].IsDefined();
  } catch (const std::exception&) {
    return false;
  }
}

Result<SweepSpec, Diagnostics> parse_sweep_spec(std::string_view spec_text, const SpecParseOptions& options,
                                                std::optional<std::string_view> search_text,
                                                const std::string& search_source) {
  SpecParseOptions job_options = options;
  job_options.sweep_section = true;
  auto job = parse_job_spec(spec_text, job_options);
  Diagnostics diagnostics = job ? Diagnostics{} : job.error();

  SweepSpec sweep;
  const std::string source = search_text ? search_source : options.source_name;
  YamlFields fields(source);
  try {
    const YAML::Node root = YAML::Load(std::string(search_text ? *search_text : spec_text));
    const bool nested = root.IsMap() && root["sweep"].IsDefined();
    if (search_text && nested) {
      fields.error(root["sweep"], "sweep", "the search file holds the sweep's keys at its top level, without `sweep:`");
    }
    if (search_text && has_sweep_section(spec_text)) {
      diagnostics.push_back(
          {options.source_name, 0, 0, "sweep",
           "the spec has a sweep section and " + search_source + " gives another search; keep one of them"});
    } else if (search_text && root.IsMap() && !nested) {
      sweep.search = SearchReader(fields).read(root, "");
    } else if (!search_text && nested) {
      sweep.search = SearchReader(fields).read(root["sweep"], "sweep");
    } else if (!search_text && job) {
      fields.error_at(YamlFields::Place{1, 1}, "sweep",
                      "is missing; a sweep's spec has a `sweep` section (parameters, metric, trials), or give it "
                      "in a file of its own with --search");
    } else if (search_text && !root.IsMap()) {
      fields.error(root, "",
                   "the search must be a mapping with parameters and a metric, not " + detail::describe(root));
    }
  } catch (const YAML::Exception& e) {
    // The spec's own reading already reported a spec that is no YAML.
    if (search_text) fields.error_at(e.mark, "", "is not valid YAML or JSON: " + e.msg);
  } catch (const std::exception& e) {
    fields.error_at(YamlFields::Place{}, "", std::string("could not be read: ") + e.what());
  }
  for (auto& diagnostic : fields.diagnostics()) diagnostics.push_back(std::move(diagnostic));
  if (job) {
    sweep.job = std::move(*job);
    check_placeholders(sweep, spec_text, options.source_name, diagnostics);
    if (!sweep.job.output.starts_with("hdfs://")) {
      const auto place = place_in_text(spec_text, "output:");
      diagnostics.push_back({options.source_name, place.line, place.column, "output",
                             (sweep.job.output.empty() ? std::string("is missing") : "is " + sweep.job.output) +
                                 "; a sweep's controller reads each trial's scalars from <output>/trial-<n> on a node "
                                 "of the cluster, so give it in HDFS, e.g. hdfs:///user/me/sweeps/wine"});
    }
  }
  if (!diagnostics.empty()) return diagnostics;
  if (sweep.search.parallel > sweep.search.trials) sweep.search.parallel = sweep.search.trials;
  return sweep;
}

Result<SweepSpec, Diagnostics> load_sweep_spec(const std::filesystem::path& spec_path, bool check_files,
                                               const std::filesystem::path& search_path) {
  auto text = read_spec_file(spec_path);
  if (!text) return text.error();
  std::optional<std::string> search;
  if (!search_path.empty()) {
    auto read = read_spec_file(search_path);
    if (!read) return read.error();
    search = std::move(*read);
  }
  std::error_code ec;
  SpecParseOptions options;
  options.source_name = spec_path.string();
  options.base_dir = std::filesystem::absolute(spec_path, ec).parent_path();
  options.check_files = check_files;
  return parse_sweep_spec(*text, options, search ? std::optional<std::string_view>(*search) : std::nullopt,
                          search_path.string());
}

std::string search_to_json(const SweepSearch& search) {
  nlohmann::ordered_json out;
  out["method"] = to_string(search.method);
  auto& parameters = out["parameters"] = nlohmann::ordered_json::object();
  for (const auto& parameter : search.parameters) {
    nlohmann::ordered_json one;
    if (parameter.kind == SweepParameter::Kind::grid || parameter.kind == SweepParameter::Kind::choice) {
      one[std::string(to_string(parameter.kind))] = parameter.values;
    } else {
      one[std::string(to_string(parameter.kind))] = {parameter.low, parameter.high};
    }
    one["variable"] = parameter.variable;
    parameters[parameter.name] = std::move(one);
  }
  out["metric"] = {{"tag", search.metric.tag}, {"goal", search.metric.maximize ? "maximize" : "minimize"}};
  if (!search.metric.run.empty()) out["metric"]["run"] = search.metric.run;
  out["trials"] = search.trials;
  out["parallel"] = search.parallel;
  out["seed"] = search.seed;
  if (search.early_stopping.rule != EarlyStopping::Rule::none) {
    out["early_stopping"] = {{"rule", to_string(search.early_stopping.rule)},
                             {"steps", search.early_stopping.steps},
                             {"reduction_factor", search.early_stopping.reduction_factor},
                             {"min_trials", search.early_stopping.min_trials}};
  }
  return out.dump();
}

Result<SweepSearch, Diagnostics> search_from_json(std::string_view json, const std::string& source_name) {
  YamlFields fields(source_name);
  SweepSearch search;
  try {
    // JSON is YAML: the same reader checks it.
    search = SearchReader(fields).read(YAML::Load(std::string(json)), "");
  } catch (const std::exception& e) {
    fields.error_at(YamlFields::Place{}, "", std::string("is not a sweep's search: ") + e.what());
  }
  if (!fields.diagnostics().empty()) return std::move(fields.diagnostics());
  return search;
}

}  // namespace spindle

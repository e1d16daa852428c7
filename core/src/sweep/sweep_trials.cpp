#include "spindle/core/sweep_trials.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "spindle/core/shell_quote.h"

namespace spindle {
namespace {

// A uniform number in [0, 1) from 53 bits of the generator: the same on
// every machine, unlike the standard library's distributions.
double unit(std::mt19937_64& generator) {
  return static_cast<double>(generator() >> 11) * 0x1.0p-53;
}

// Six significant digits: the value a user reads is the value the trial gets.
std::string six_digits(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", value);
  return text;
}

std::string draw(const SweepParameter& parameter, std::mt19937_64& generator) {
  const double u = unit(generator);
  switch (parameter.kind) {
    case SweepParameter::Kind::grid:
    case SweepParameter::Kind::choice: {
      const auto index = std::min(parameter.values.size() - 1, static_cast<std::size_t>(u * parameter.values.size()));
      return parameter.values[index];
    }
    case SweepParameter::Kind::uniform: return six_digits(parameter.low + u * (parameter.high - parameter.low));
    case SweepParameter::Kind::log_uniform: {
      const double low = std::log(parameter.low);
      return six_digits(std::exp(low + u * (std::log(parameter.high) - low)));
    }
    case SweepParameter::Kind::integer: {
      const double span = parameter.high - parameter.low + 1;
      return std::to_string(static_cast<std::int64_t>(parameter.low + std::min(span - 1, std::floor(u * span))));
    }
  }
  return {};
}

std::vector<std::string> listed_values(const SweepParameter& parameter) {
  if (parameter.kind != SweepParameter::Kind::integer) return parameter.values;
  std::vector<std::string> values;
  for (auto value = static_cast<std::int64_t>(parameter.low); value <= static_cast<std::int64_t>(parameter.high);
       ++value) {
    values.push_back(std::to_string(value));
  }
  return values;
}

std::string substituted(std::string command, const TrialParameters& trial) {
  auto replace_all = [&](const std::string& placeholder, const std::string& value) {
    for (auto at = command.find(placeholder); at != std::string::npos;
         at = command.find(placeholder, at + value.size())) {
      command.replace(at, placeholder.size(), value);
    }
  };
  for (const auto& [name, value] : trial.values) replace_all("{{" + name + "}}", shell_quote(value));
  replace_all("{{trial}}", std::to_string(trial.index));
  return command;
}

}  // namespace

std::vector<TrialParameters> draw_trials(const SweepSearch& search) {
  std::vector<TrialParameters> trials;
  if (search.method == SweepSearch::Method::grid) {
    std::vector<std::vector<std::string>> lists;
    std::size_t combinations = 1;
    for (const auto& parameter : search.parameters) {
      lists.push_back(listed_values(parameter));
      combinations *= lists.back().size();
    }
    // The combinations run in an order shuffled by the seed: a sweep that stops trials early must
    // not meet the space from one corner to the other, where each trial beats all before it.
    std::vector<std::size_t> order(combinations);
    for (std::size_t i = 0; i < combinations; ++i) order[i] = i;
    std::mt19937_64 shuffler(search.seed);
    for (std::size_t i = combinations; i > 1; --i) {
      std::swap(order[i - 1], order[static_cast<std::size_t>(unit(shuffler) * static_cast<double>(i))]);
    }
    for (std::size_t index = 0; index < combinations; ++index) {
      TrialParameters trial;
      trial.index = static_cast<int>(index);
      std::size_t rest = order[index];
      std::vector<std::string> picked(lists.size());
      for (std::size_t p = lists.size(); p-- > 0;) {
        picked[p] = lists[p][rest % lists[p].size()];
        rest /= lists[p].size();
      }
      for (std::size_t p = 0; p < lists.size(); ++p) trial.values.emplace_back(search.parameters[p].name, picked[p]);
      trials.push_back(std::move(trial));
    }
    return trials;
  }
  std::mt19937_64 generator(search.seed);
  for (int index = 0; index < search.trials; ++index) {
    TrialParameters trial;
    trial.index = index;
    for (const auto& parameter : search.parameters)
      trial.values.emplace_back(parameter.name, draw(parameter, generator));
    trials.push_back(std::move(trial));
  }
  return trials;
}

JobSpec trial_job(const JobSpec& base, const SweepSearch& search, const TrialParameters& trial,
                  const std::string& sweep_id) {
  JobSpec job = base;
  job.name = base.name + "-trial-" + std::to_string(trial.index);
  job.tags.push_back("spindle-sweep:" + sweep_id);
  job.tags.push_back("spindle-trial:" + std::to_string(trial.index));
  if (!job.output.empty()) {
    while (job.output.size() > 1 && job.output.back() == '/') job.output.pop_back();
    job.output += "/trial-" + std::to_string(trial.index);
  }
  for (std::size_t p = 0; p < trial.values.size() && p < search.parameters.size(); ++p) {
    job.env[search.parameters[p].variable] = trial.values[p].second;
  }
  job.env["SWEEP_TRIAL"] = std::to_string(trial.index);
  for (auto& task : job.tasks) task.command = substituted(task.command, trial);
  return job;
}

std::optional<MetricSample> best_sample(const std::vector<MetricSample>& samples, bool maximize) {
  std::optional<MetricSample> best;
  for (const auto& sample : samples) {
    if (!std::isfinite(sample.value)) continue;
    if (!best || (maximize ? sample.value > best->value : sample.value < best->value)) best = sample;
  }
  return best;
}

}  // namespace spindle

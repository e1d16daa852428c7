#include <algorithm>
#include <cmath>
#include <cstdio>

#include "spindle/core/sweep_trials.h"

namespace spindle {
namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", value);
  return text;
}

}  // namespace

RungBoard::RungBoard(EarlyStopping rule, bool maximize, std::string metric)
    : rule_(std::move(rule)), maximize_(maximize), metric_(std::move(metric)), rungs_(rule_.steps.size()) {}

void RungBoard::restore(int trial, std::size_t rung, double value) {
  if (rung >= rungs_.size() || judged_.count({trial, rung})) return;
  judged_.insert({trial, rung});
  rungs_[rung].emplace_back(trial, value);
}

std::vector<RungVerdict> RungBoard::judge(int trial, const std::vector<MetricSample>& samples) {
  std::vector<RungVerdict> verdicts;
  if (rule_.rule == EarlyStopping::Rule::none || samples.empty()) return verdicts;
  const auto last_step = samples.back().step;
  for (std::size_t rung = 0; rung < rungs_.size(); ++rung) {
    const auto step = rule_.steps[rung];
    if (last_step < step) break;
    if (judged_.count({trial, rung})) continue;
    judged_.insert({trial, rung});
    // The value logged at the rung's step, or the last one before it: never
    // one from after, which the others had no chance to reach.
    const MetricSample* at = nullptr;
    for (const auto& sample : samples) {
      if (sample.step > step) break;
      if (std::isfinite(sample.value)) at = &sample;
    }
    if (!at) continue;  // nothing logged up to the rung: no fair value to judge
    auto verdict = decide(trial, rung, at->value);
    rungs_[rung].emplace_back(trial, at->value);
    verdicts.push_back(verdict);
    if (verdict.stop) break;
  }
  return verdicts;
}

RungVerdict RungBoard::decide(int trial, std::size_t rung, double value) const {
  RungVerdict verdict;
  verdict.rung = rung;
  verdict.step = rule_.steps[rung];
  verdict.value = value;
  const std::string at = "at step " + std::to_string(verdict.step) + " its " + metric_ + " was " + number(value);
  std::vector<double> others;
  for (const auto& [other, logged] : rungs_[rung]) {
    if (other != trial) others.push_back(logged);
  }
  if (rule_.rule == EarlyStopping::Rule::median) {
    if (static_cast<int>(others.size()) < rule_.min_trials) {
      verdict.reason = at + "; " + std::to_string(others.size()) + " other trials had reached that step, fewer than " +
                       std::to_string(rule_.min_trials) + " (min_trials), so it goes on";
      return verdict;
    }
    std::sort(others.begin(), others.end());
    const auto middle = others.size() / 2;
    const double median = others.size() % 2 ? others[middle] : (others[middle - 1] + others[middle]) / 2;
    verdict.stop = better(median, value);
    verdict.cut = median;
    verdict.reason = at + (verdict.stop ? ", worse than " : ", no worse than ") + "the median " + number(median) +
                     " of the " + std::to_string(others.size()) + " other trials there";
    return verdict;
  }
  // ASHA: among everyone recorded at the rung, this trial included, the best
  // 1/reduction_factor go on; until a rung has that many, everyone does.
  others.push_back(value);
  const auto count = others.size();
  const auto factor = static_cast<std::size_t>(rule_.reduction_factor);
  if (count < factor) {
    verdict.reason = at + "; " + std::to_string(count) + " trials had reached that step, fewer than the reduction " +
                     "factor " + std::to_string(factor) + ", so it goes on";
    return verdict;
  }
  const auto keep = std::max<std::size_t>(1, count / factor);
  std::sort(others.begin(), others.end(), [this](double a, double b) { return better(a, b); });
  const double cut = others[keep - 1];
  verdict.stop = better(cut, value);
  verdict.cut = cut;
  verdict.reason = at + (verdict.stop ? ", outside " : ", within ") + "the best " + std::to_string(keep) + " of the " +
                   std::to_string(count) + " trials that reached that step (the cut: " + number(cut) + ")";
  return verdict;
}

}  // namespace spindle

#include <gtest/gtest.h>

#include <set>

#include "spindle/core/sweep_spec.h"
#include "spindle/core/sweep_state.h"
#include "spindle/core/sweep_trials.h"

namespace spindle {
namespace {

constexpr const char* job = "name: wine\noutput: hdfs:///runs/wine\ntasks:\n  chief: {command: python train.py}\n";

Result<SweepSpec, Diagnostics> parse(const std::string& sweep, const std::string& tasks = job) {
  SpecParseOptions options;
  options.source_name = "sweep.yaml";
  options.check_files = false;
  return parse_sweep_spec(tasks + sweep, options);
}

std::string messages(const Diagnostics& diagnostics) {
  return format_diagnostics(diagnostics);
}

TEST(SweepSpec, ReadsEveryKindOfParameterTheMetricAndAsha) {
  auto parsed = parse(
      "sweep:\n"
      "  method: random\n"
      "  trials: 8\n"
      "  parallel: 3\n"
      "  seed: 7\n"
      "  metric: {tag: loss, run: train, goal: minimize}\n"
      "  parameters:\n"
      "    learning_rate: {log_uniform: [0.001, 0.3]}\n"
      "    width: [16, 32, 64]\n"
      "    optimizer: {choice: [sgd, adam], variable: OPT}\n"
      "    dropout: {uniform: [0.0, 0.5]}\n"
      "    layers: {integer: [1, 4]}\n"
      "  early_stopping: {rule: asha, steps: [50, 150, 450], reduction_factor: 3}\n");
  ASSERT_TRUE(parsed.ok()) << messages(parsed.error());
  const auto& search = parsed->search;
  EXPECT_EQ(search.method, SweepSearch::Method::random);
  EXPECT_EQ(search.trials, 8);
  EXPECT_EQ(search.parallel, 3);
  EXPECT_EQ(search.metric.tag, "loss");
  EXPECT_EQ(search.metric.run, "train");
  EXPECT_FALSE(search.metric.maximize);
  ASSERT_EQ(search.parameters.size(), 5u);
  EXPECT_EQ(search.parameters[0].variable, "LEARNING_RATE");
  EXPECT_EQ(search.parameters[0].kind, SweepParameter::Kind::log_uniform);
  EXPECT_EQ(search.parameters[1].kind, SweepParameter::Kind::grid);
  EXPECT_EQ(search.parameters[2].variable, "OPT");
  EXPECT_EQ(search.early_stopping.rule, EarlyStopping::Rule::asha);
  EXPECT_EQ(search.early_stopping.steps, (std::vector<std::int64_t>{50, 150, 450}));
  EXPECT_EQ(parsed->job.name, "wine");

  auto again = search_from_json(search_to_json(search), "search.json");
  ASSERT_TRUE(again.ok()) << messages(again.error());
  EXPECT_EQ(*again, search);
}

TEST(SweepSpec, EachMistakeIsOneSentenceWithItsPlace) {
  auto parsed = parse(
      "sweep:\n"
      "  method: randm\n"
      "  parameters:\n"
      "    learning_rate: {log_uniform: [0, 0.3]}\n"
      "    path: [a, b]\n"
      "    width: {uniform: [64, 16]}\n"
      "  metric: {goal: biggest}\n"
      "  early_stopping: {rule: asha, steps: [100, 50]}\n");
  ASSERT_FALSE(parsed.ok());
  const auto text = messages(parsed.error());
  EXPECT_NE(text.find("sweep.yaml:6:11: sweep.method: \"randm\" is not a search method, did you mean \"random\"?"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("sweep.yaml:8:"), std::string::npos) << text;
  EXPECT_NE(text.find("a log-uniform range lies above 0"), std::string::npos) << text;
  EXPECT_NE(text.find("would set the environment variable PATH"), std::string::npos) << text;
  EXPECT_NE(text.find("give the lower bound first"), std::string::npos) << text;
  EXPECT_NE(text.find("\"biggest\" is not a goal"), std::string::npos) << text;
  EXPECT_NE(text.find("sweep.metric.tag: is missing"), std::string::npos) << text;
  EXPECT_NE(text.find("list the steps in ascending order"), std::string::npos) << text;
}

TEST(SweepSpec, AGridListsItsCombinationsAndRefusesRanges) {
  auto grid = parse("sweep:\n  method: grid\n  metric: loss\n  parameters: {a: [1, 2, 3], b: [x, y]}\n");
  ASSERT_TRUE(grid.ok()) << messages(grid.error());
  EXPECT_EQ(grid->search.trials, 6);
  EXPECT_EQ(grid->search.parallel, 1);

  auto ranged = parse("sweep:\n  method: grid\n  metric: loss\n  parameters: {a: {uniform: [0, 1]}}\n");
  ASSERT_FALSE(ranged.ok());
  EXPECT_NE(messages(ranged.error()).find("a grid search cannot list"), std::string::npos);

  auto counted = parse("sweep:\n  method: grid\n  trials: 4\n  metric: loss\n  parameters: {a: [1, 2, 3]}\n");
  ASSERT_FALSE(counted.ok());
  EXPECT_NE(messages(counted.error()).find("the grid has 3 combinations"), std::string::npos);
}

TEST(SweepSpec, PlaceholdersMustNameParametersAndEnvMayNotClash) {
  auto parsed = parse("sweep: {trials: 2, metric: loss, parameters: {lr: [0.1, 0.2]}}\n",
                      "env: {LR: '1'}\ntasks:\n  chief:\n    command: python train.py --lr {{lr}} --w {{width}}\n");
  ASSERT_FALSE(parsed.ok());
  const auto text = messages(parsed.error());
  EXPECT_NE(text.find("sweep.yaml:4:46: tasks.chief.command"), std::string::npos) << text;
  EXPECT_NE(text.find("{{width}} names no parameter of the sweep (it has lr, trial)"), std::string::npos) << text;
  EXPECT_NE(text.find("env.LR: is set here and by the sweep's parameter lr"), std::string::npos) << text;
}

TEST(SweepSpec, AJobSpecRefusesASweepSectionAndASweepNeedsOne) {
  SpecParseOptions options;
  options.check_files = false;
  auto job_only = parse_job_spec(std::string(job) + "sweep: {}\n", options);
  ASSERT_FALSE(job_only.ok());
  EXPECT_NE(messages(job_only.error()).find("run it with `spindle sweep submit`"), std::string::npos);

  auto missing = parse("");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(messages(missing.error()).find("sweep: is missing"), std::string::npos);

  auto beside = parse_sweep_spec(job, options, std::string_view("trials: 3\nmetric: loss\nparameters: {a: [1, 2]}\n"),
                                 "search.yaml");
  ASSERT_TRUE(beside.ok()) << messages(beside.error());
  EXPECT_EQ(beside->search.trials, 3);
}

TEST(SweepTrials, DrawsAreRepeatableInRangeAndTheGridIsComplete) {
  auto parsed = parse(
      "sweep:\n  trials: 50\n  seed: 11\n  metric: loss\n  parameters:\n    lr: {log_uniform: [0.001, 0.1]}\n"
      "    layers: {integer: [1, 3]}\n    act: {choice: [relu, tanh]}\n");
  ASSERT_TRUE(parsed.ok()) << messages(parsed.error());
  const auto trials = draw_trials(parsed->search);
  ASSERT_EQ(trials.size(), 50u);
  EXPECT_EQ(trials, draw_trials(parsed->search));
  std::set<std::string> layers;
  for (const auto& trial : trials) {
    const double lr = std::stod(trial.values[0].second);
    EXPECT_GE(lr, 0.001 * 0.99999);
    EXPECT_LE(lr, 0.1 * 1.00001);
    layers.insert(trial.values[1].second);
  }
  EXPECT_EQ(layers, (std::set<std::string>{"1", "2", "3"}));

  auto grid = parse("sweep: {method: grid, metric: loss, parameters: {a: [1, 2], b: [x, y, z]}}\n");
  ASSERT_TRUE(grid.ok());
  const auto combinations = draw_trials(grid->search);
  ASSERT_EQ(combinations.size(), 6u);
  std::set<std::vector<std::pair<std::string, std::string>>> each;
  for (const auto& trial : combinations) each.insert(trial.values);
  EXPECT_EQ(each.size(), 6u);
  EXPECT_TRUE(each.count({{"a", "2"}, {"b", "z"}}));
  EXPECT_EQ(combinations, draw_trials(grid->search));
  // Shuffled: not from one corner of the space to the other.
  auto reseeded = grid->search;
  bool some_order_differs = false;
  for (std::uint64_t seed = 2; seed < 6 && !some_order_differs; ++seed) {
    reseeded.seed = seed;
    some_order_differs = draw_trials(reseeded) != combinations;
  }
  EXPECT_TRUE(some_order_differs);
}

TEST(SweepTrials, ATrialsJobCarriesItsValuesOutputAndTags) {
  auto parsed = parse("sweep: {trials: 1, metric: loss, parameters: {lr: {choice: [0.05]}}}\n",
                      "name: wine\noutput: hdfs:///runs/wine/\ntasks:\n  chief:\n    command: python t.py --lr {{lr}} "
                      "--trial {{trial}}\n");
  ASSERT_TRUE(parsed.ok()) << messages(parsed.error());
  const auto trials = draw_trials(parsed->search);
  const auto trial = trial_job(parsed->job, parsed->search, trials[0], "application_1_0001");
  EXPECT_EQ(trial.name, "wine-trial-0");
  EXPECT_EQ(trial.output, "hdfs:///runs/wine/trial-0");
  EXPECT_EQ(trial.env.at("LR"), "0.05");
  EXPECT_EQ(trial.env.at("SWEEP_TRIAL"), "0");
  EXPECT_EQ(trial.tasks[0].command, "python t.py --lr 0.05 --trial 0");
  EXPECT_NE(std::find(trial.tags.begin(), trial.tags.end(), "spindle-sweep:application_1_0001"), trial.tags.end());
}

std::vector<MetricSample> ramp(std::int64_t to, double value) {
  std::vector<MetricSample> samples;
  for (std::int64_t step = 10; step <= to; step += 10) samples.push_back({step, value});
  return samples;
}

TEST(RungBoard, AshaStopsOnlyTrialsBelowTheCutOfTheRungTheyReached) {
  EarlyStopping rule{EarlyStopping::Rule::asha, {50, 150}, 3, 3};
  RungBoard board(rule, false, "loss");
  // The first two to reach a rung go on: fewer than the reduction factor are there.
  EXPECT_FALSE(board.judge(0, ramp(60, 0.5)).back().stop);
  EXPECT_FALSE(board.judge(1, ramp(60, 0.9)).back().stop);
  // The third is judged among three: only the best one goes on.
  auto third = board.judge(2, ramp(60, 0.7));
  ASSERT_EQ(third.size(), 1u);
  EXPECT_TRUE(third[0].stop);
  EXPECT_EQ(third[0].step, 50);
  EXPECT_NE(third[0].reason.find("at step 50 its loss was 0.7, outside the best 1 of the 3 trials"), std::string::npos)
      << third[0].reason;
  // A better one goes on; a rung is judged once.
  EXPECT_FALSE(board.judge(3, ramp(60, 0.1)).back().stop);
  EXPECT_TRUE(board.judge(3, ramp(60, 0.1)).empty());
  // The value at a rung is the one logged at its step, not a later, better one.
  auto late = ramp(50, 0.95);
  late.push_back({200, 0.01});
  auto verdicts = board.judge(4, late);
  ASSERT_FALSE(verdicts.empty());
  EXPECT_EQ(verdicts[0].value, 0.95);
  EXPECT_TRUE(verdicts[0].stop);
}

TEST(RungBoard, TheMedianRuleWaitsForEnoughOthersAndMaximisesWhenAsked) {
  EarlyStopping rule{EarlyStopping::Rule::median, {100}, 3, 2};
  RungBoard board(rule, true, "accuracy");
  EXPECT_FALSE(board.judge(0, ramp(100, 0.8)).back().stop);
  EXPECT_FALSE(board.judge(1, ramp(100, 0.6)).back().stop);
  auto low = board.judge(2, ramp(100, 0.5));
  ASSERT_EQ(low.size(), 1u);
  EXPECT_TRUE(low[0].stop) << low[0].reason;
  EXPECT_NE(low[0].reason.find("worse than the median 0.7"), std::string::npos) << low[0].reason;
  EXPECT_FALSE(board.judge(3, ramp(100, 0.75)).back().stop);
}

TEST(SweepRecord, RoundTripsAndRefusesWhatIsNoRecord) {
  SweepRecord record;
  record.sweep_id = "application_1_0002";
  record.name = "wine";
  record.search_json = "{\"method\":\"random\"}";
  TrialRecord trial;
  trial.parameters = {3, {{"lr", "0.01"}, {"width", "32"}}};
  trial.state = TrialState::stopped;
  trial.why = "at step 50 ...";
  trial.best = MetricSample{40, 0.25};
  trial.rungs.push_back({0, 50, 0.3, true, "cut", 0.2});
  trial.mlflow_run_id = "child3";
  trial.mlflow_closed = true;
  record.trials.push_back(trial);
  auto back = sweep_record_from_json(to_json(record));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_FALSE(back->mlflow.has_value());
  record.mlflow = SweepTrackingRun{"http://mlflow:5000", "4", "parent", false};
  back = sweep_record_from_json(to_json(record));
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->trials.size(), 1u);
  EXPECT_EQ(back->trials[0].state, TrialState::stopped);
  EXPECT_EQ(back->trials[0].parameters, trial.parameters);
  EXPECT_EQ(back->trials[0].best->value, 0.25);
  EXPECT_EQ(back->trials[0].rungs[0].reason, "cut");
  EXPECT_EQ(back->trials[0].rungs[0].cut, 0.2);
  EXPECT_EQ(to_string(TrialState::stopped), "stopped by the sweep");
  EXPECT_EQ(back->best_trial(false), &back->trials[0]);
  EXPECT_EQ(back->mlflow, record.mlflow);
  EXPECT_EQ(back->trials[0].mlflow_run_id, "child3");
  EXPECT_TRUE(back->trials[0].mlflow_closed);

  EXPECT_FALSE(sweep_record_from_json("[1]").ok());
  EXPECT_FALSE(sweep_record_from_json("{\"sweep_id\": \"a\", \"trials\": [{\"state\": \"exploded\"}]}").ok());
  EXPECT_FALSE(sweep_record_from_json("{\"sweep_id\": \"a\", \"trials\": [{\"trial\": \"x\"}]}").ok());
}

}  // namespace
}  // namespace spindle

#include "container/sweep_controller.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "container/container_context.h"
#include "container/hdfs_access.h"
#include "container/job_file.h"
#include "container/kerberos_login.h"
#include "container/master_start.h"
#include "container/mlflow_credentials.h"
#include "container/staging_cleanup.h"
#include "container/sweep_tracking.h"
#include "container/token_file.h"
#include "container/token_refresher.h"
#include "container/trial_launcher.h"
#include "container/trial_scalars.h"
#include "spindle/client/will_it_fit.h"
#include "spindle/core/clock.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/sweep_state.h"
#include "spindle/core/token_expiry.h"
#include "spindle/yarn/application_master_client.h"
#include "spindle/yarn/credentials.h"
#include "spindle/yarn/resource_manager_rest.h"
#include "spindle/yarn/token_lifetime.h"

namespace spindle::container {
namespace {

std::atomic<int> stop_signal = 0;

extern "C" void remember_sweep_stop(int signal) {
  stop_signal = signal;
}

void log(const std::string& line) {
  std::cerr << "spindle sweep: " << line << std::endl;
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// How often the controller looks at its trials: a freed slot waits at most this long.
constexpr auto tick = std::chrono::seconds(2);
// How long the ResourceManager may stay unreachable before the controller
// gives up this attempt (the next one goes on from the record).
constexpr auto resource_manager_patience = std::chrono::minutes(5);

class SweepController {
 public:
  SweepController(ContainerContext context, yarn::HadoopConfiguration configuration, JobSpec base, SweepSearch search,
                  TrialTemplate shape, yarn::WebHdfs hdfs, std::string record_path, bool renews_tokens)
      : context_(std::move(context)),
        configuration_(std::move(configuration)),
        base_(std::move(base)),
        search_(std::move(search)),
        shape_(std::move(shape)),
        hdfs_(std::move(hdfs)),
        record_path_(std::move(record_path)),
        token_file_(std::make_unique<TokenFile>(context_.token_file)),
        renews_tokens_(renews_tokens),
        board_(search_.early_stopping, search_.metric.maximize, search_.metric.tag) {}

  // The record as an earlier attempt left it, or a new one.
  Result<void> load_record(const std::string& search_json) {
    auto text = hdfs_.read_all(record_path_);
    if (text) {
      auto earlier = sweep_record_from_json(*text);
      if (!earlier) return make_error(record_path_ + " " + earlier.error().message);
      if (earlier->sweep_id != context_.application_id) {
        return make_error(record_path_ + " is the record of " + earlier->sweep_id + ", not of this sweep");
      }
      record_ = std::move(*earlier);
      log("attempt " + std::to_string(context_.attempt) +
          " goes on from the record: " + std::to_string(record_.trials.size()) + " trials");
      for (const auto& trial : record_.trials) {
        for (const auto& rung : trial.rungs) board_.restore(trial.parameters.index, rung.rung, rung.value);
      }
      start_tracking();
      return {};
    }
    if (text.error().remote_exception != "FileNotFoundException") return text.error();
    record_.sweep_id = context_.application_id;
    record_.name = base_.name;
    record_.user = context_.user;
    record_.queue = base_.queue;
    record_.output = base_.output;
    record_.search_json = search_json;
    record_.submitted_ms = wall_clock_ms();
    for (auto& parameters : draw_trials(search_)) {
      TrialRecord trial;
      trial.parameters = std::move(parameters);
      record_.trials.push_back(std::move(trial));
    }
    // The run submit opened for the sweep, which the shipped spec names.
    const auto uri = base_.env.find("MLFLOW_TRACKING_URI");
    const auto experiment = base_.env.find("MLFLOW_EXPERIMENT_ID");
    const auto run = base_.env.find("MLFLOW_RUN_ID");
    if (uri != base_.env.end() && experiment != base_.env.end() && run != base_.env.end()) {
      record_.mlflow = SweepTrackingRun{uri->second, experiment->second, run->second};
    }
    start_tracking();
    const auto parent = record_path_.substr(0, record_path_.rfind('/'));
    if (auto made = hdfs_.mkdirs(parent, "700"); !made) return made.error();
    return save();
  }

  // Until every trial has ended, or the sweep is killed.
  void run(yarn::ApplicationMasterClient& scheduler) {
    auto last_heard = std::chrono::steady_clock::now();
    while (true) {
      if (stop_signal) {
        kill_running("the sweep was killed");
        record_.state = SweepState::killed;
        record_.diagnostics = "killed while " + std::to_string(running_count()) + " trials ran";
        record_.ended_ms = wall_clock_ms();
        (void)save();
        // YARN stops a killed container soon after: the record first, MLflow after (spindle sweep kill ends the runs
        // too).
        close_tracked(true);
        (void)save();
        return;
      }
      auto heard = scheduler.allocate({}, {}, progress());
      if (heard) {
        last_heard = std::chrono::steady_clock::now();
        if (heard->must_shut_down) {
          log("the ResourceManager no longer knows this attempt; the next one goes on from the record");
          return;
        }
      } else if (std::chrono::steady_clock::now() - last_heard > resource_manager_patience) {
        log("the ResourceManager did not answer for 5 minutes: " + heard.error().message);
        return;
      }
      if (tokens_died()) return;
      bool changed = follow_trials();
      changed = launch_trials() || changed;
      const int running = running_count();
      if (running > record_.most_running) {
        record_.most_running = running;
        changed = true;
      }
      if (all_ended()) {
        conclude();
        (void)save();
        close_tracked(true);
        (void)save();
        return;
      }
      changed = close_tracked(false) || changed;
      if (changed) (void)save();
      std::this_thread::sleep_for(tick);
    }
  }

  const SweepRecord& record() const { return record_; }

 private:
  float progress() const {
    int ended = 0;
    for (const auto& trial : record_.trials) ended += is_final(trial.state);
    return record_.trials.empty() ? 1.0F : static_cast<float>(ended) / static_cast<float>(record_.trials.size());
  }

  // Trials that hold a slot: a stopped one until YARN reports it ended.
  int running_count() const {
    return record_.count(TrialState::submitted) + record_.count(TrialState::running) +
           static_cast<int>(settling_.size());
  }

  bool all_ended() const {
    for (const auto& trial : record_.trials) {
      if (!is_final(trial.state)) return false;
    }
    return settling_.empty();
  }

  Result<void> save() {
    auto written = hdfs_.write_whole(record_path_, to_json(record_));
    if (!written) log("the sweep's record could not be written to " + record_path_ + ": " + written.error().message);
    return written;
  }

  JobSpec job_of(const TrialRecord& trial) const {
    auto job = trial_job(base_, search_, trial.parameters, context_.application_id);
    // The sweep's own MLflow run is not a trial's: each trial logs into its child run.
    for (auto it = job.env.begin(); it != job.env.end();) {
      it = it->first.starts_with("MLFLOW_") ? job.env.erase(it) : std::next(it);
    }
    job.mlflow.reset();
    if (tracking_) tracking_->export_to(trial, job);
    return job;
  }

  // Reads each live trial's state and metric; true when the record changed.
  bool follow_trials() {
    bool changed = false;
    for (auto& trial : record_.trials) {
      const bool settling = settling_.count(trial.parameters.index) > 0;
      if (trial.state != TrialState::submitted && trial.state != TrialState::running && !settling) continue;
      auto id = yarn::ApplicationId::parse(trial.application_id);
      if (!id) continue;
      auto report = resource_manager().report(*id);
      if (!report) {
        if (report.error().kind == Error::Kind::not_found && trial.state == TrialState::submitted) {
          // Recorded by an attempt that died before the ResourceManager took it.
          log("trial " + std::to_string(trial.parameters.index) + " never reached the ResourceManager; submitting it");
          trial.state = TrialState::waiting;
          trial.application_id.clear();
          changed = true;
        }
        continue;
      }
      changed = read_metric(trial) || changed;
      if (report->state == "RUNNING" && trial.state == TrialState::submitted) {
        trial.state = TrialState::running;
        changed = true;
      }
      if (trial.state == TrialState::running && report->state == "RUNNING") changed = judge(trial, *id) || changed;
      if (!report->finished()) continue;
      read_metric(trial);
      trial.ended_ms = report->finish_time ? report->finish_time : wall_clock_ms();
      if (settling) {
        // Stopped by the sweep: what it logged until its containers stopped is read, its end stays the sweep's.
        settling_.erase(trial.parameters.index);
        changed = true;
        continue;
      }
      if (report->final_status == "SUCCEEDED") {
        trial.state = TrialState::succeeded;
        trial.why = "succeeded";
      } else if (report->diagnostics.find(std::string(trial_stopped_by_owner)) != std::string::npos) {
        // Its owner stopped it from the sweep's view: ended like a trial the rule stopped.
        trial.state = TrialState::stopped;
        trial.why = std::string(trial_stopped_by_owner);
      } else if (report->state == "KILLED" || report->final_status == "KILLED") {
        trial.state = TrialState::killed;
        trial.why = report->diagnostics.empty() ? "killed" : report->diagnostics;
      } else {
        trial.state = TrialState::failed;
        trial.why = report->diagnostics.empty() ? "failed, saying nothing" : report->diagnostics;
      }
      while (!trial.why.empty() && (trial.why.back() == '\n' || trial.why.back() == ' ')) trial.why.pop_back();
      log("trial " + std::to_string(trial.parameters.index) + " (" + trial.application_id + ") " +
          std::string(to_string(trial.state)) + ": " + trial.why);
      changed = true;
    }
    return changed;
  }

  bool read_metric(TrialRecord& trial) {
    auto found = watches_.find(trial.parameters.index);
    if (found == watches_.end()) {
      const auto job = job_of(trial);
      found =
          watches_.emplace(trial.parameters.index, std::make_unique<TrialScalars>(hdfs_, job.output, search_.metric))
              .first;
    }
    auto& scalars = *found->second;
    for (const auto& problem : scalars.poll()) log("trial " + std::to_string(trial.parameters.index) + ": " + problem);
    // Its MLflow run charts the trial as it trains, not only once it ended.
    if (tracking_) tracking_->send_scalars(trial, scalars.all_points());
    const auto& samples = scalars.samples();
    if (samples.empty()) return false;
    const auto best = best_sample(samples, search_.metric.maximize);
    const bool changed = !trial.last || trial.last->step != samples.back().step;
    trial.best = best;
    trial.last = samples.back();
    return changed;
  }

  // Applies the early-stopping rule to the rungs the trial has passed.
  bool judge(TrialRecord& trial, const yarn::ApplicationId& id) {
    const auto found = watches_.find(trial.parameters.index);
    if (found == watches_.end()) return false;
    auto verdicts = board_.judge(trial.parameters.index, found->second->samples());
    if (verdicts.empty()) return false;
    for (const auto& verdict : verdicts) trial.rungs.push_back(verdict);
    const auto& last = verdicts.back();
    trial.why = last.reason;
    if (!last.stop) return true;
    trial.state = TrialState::stopped;
    trial.ended_ms = wall_clock_ms();
    log("trial " + std::to_string(trial.parameters.index) + " stopped by the sweep: " + last.reason);
    if (auto killed =
            resource_manager().kill(id, "stopped by the sweep " + context_.application_id + ": " + last.reason);
        !killed) {
      log("trial " + std::to_string(trial.parameters.index) + " could not be stopped: " + killed.error().message);
    }
    settling_.insert(trial.parameters.index);
    return true;
  }

  // Submits waiting trials while slots are free and the queue has room for
  // one now; one at a time until the last one submitted has its master, so
  // the free room read next counts what it took.
  bool launch_trials() {
    bool changed = false;
    while (running_count() < search_.parallel && record_.count(TrialState::submitted) == 0) {
      auto next = std::find_if(record_.trials.begin(), record_.trials.end(),
                               [](const TrialRecord& trial) { return trial.state == TrialState::waiting; });
      if (next == record_.trials.end()) break;
      const auto job = job_of(*next);
      if (!fits_now(*next, job)) break;
      auto created = resource_manager().new_application();
      if (!created) {
        log("no application id for trial " + std::to_string(next->parameters.index) + ": " + created.error().message);
        break;
      }
      // Recorded before the submission: a later attempt finds the trial, whatever happens next.
      next->application_id = created->id.to_string();
      next->state = TrialState::submitted;
      next->submitted_ms = wall_clock_ms();
      if (tracking_) tracking_->open_trial(record_, *next);
      (void)save();
      auto launched = launch_trial(resource_manager(), shape_, job_of(*next), created->id);
      if (!launched) {
        next->state = TrialState::failed;
        next->why = "its submission failed: " + launched.error().message;
        next->ended_ms = wall_clock_ms();
        log("trial " + std::to_string(next->parameters.index) + ": " + next->why);
      } else {
        next->secret = launched->secret;
        next->api_pin = launched->api_pin;
        log("trial " + std::to_string(next->parameters.index) + " submitted as " + next->application_id);
      }
      changed = true;
    }
    return changed;
  }

  bool fits_now(TrialRecord& trial, const JobSpec& job) {
    auto rest = yarn::ResourceManagerRest::from_configuration(configuration_);
    auto state = client::read_cluster_state(resource_manager(), &rest);
    // Not knowing the queue's room is no reason to hold the sweep: YARN queues the trial.
    if (!state) return true;
    const auto fit = client::will_it_fit(job, *state);
    if (const auto never = client::first_never_sentence(fit); !never.empty()) {
      trial.state = TrialState::failed;
      trial.why = "it can never run on this cluster as it stands: " + never;
      trial.ended_ms = wall_clock_ms();
      return false;
    }
    if (fit.fits_now()) return true;
    if (waiting_note_ != trial.parameters.index) {
      log("trial " + std::to_string(trial.parameters.index) + " waits for room in queue " + job.queue);
      waiting_note_ = trial.parameters.index;
    }
    return false;
  }

  void kill_running(const std::string& why) {
    for (auto& trial : record_.trials) {
      if (is_final(trial.state)) continue;
      if (!trial.application_id.empty()) {
        if (auto id = yarn::ApplicationId::parse(trial.application_id)) (void)resource_manager().kill(*id, why);
      }
      trial.state = TrialState::killed;
      trial.why = why;
      trial.ended_ms = wall_clock_ms();
    }
  }

  // Without a keytab, past the end of the submit's tokens the controller can
  // no longer reach the ResourceManager or HDFS (nor can its trials): the
  // sweep fails, said as what it is, rather than waiting on refusals.
  bool tokens_died() {
    if (renews_tokens_) return false;
    const auto first = yarn::first_to_end(context_.delegation_tokens);
    if (!first || std::chrono::system_clock::now() < first->ends) return false;
    const auto ends_ms = std::chrono::duration_cast<std::chrono::milliseconds>(first->ends.time_since_epoch()).count();
    record_.state = SweepState::failed;
    record_.ended_ms = wall_clock_ms();
    record_.diagnostics = "the sweep's delegation tokens expired at " + utc_minute(ends_ms) + " (" + first->kind +
                          ", at the cluster's maximum lifetime): its controller can no longer submit trials, read "
                          "their scalars or keep its record, and its trials lose HDFS too; submit the sweep with "
                          "--principal and --keytab so that it gets new tokens in time";
    for (auto& trial : record_.trials) {
      if (trial.state != TrialState::waiting) continue;
      trial.state = TrialState::failed;
      trial.why = "never submitted: the sweep's delegation tokens had expired";
      trial.ended_ms = record_.ended_ms;
    }
    log(record_.diagnostics);
    (void)save();  // refused, most likely: YARN's diagnostics say it then
    return true;
  }

  // The ResourceManager as the controller reaches it: with its RM
  // delegation token on a Kerberos cluster (a container holds no ticket),
  // the newest one in its token file, else from the keytab's login.
  yarn::ApplicationClient& resource_manager() {
    auto token = resource_manager_token(*token_file_, context_.delegation_tokens);
    if (client_ && token != client_token_) client_.reset();
    if (!client_) {
      auto options = yarn::ApplicationClient::options_for(configuration_).with_user(context_.user);
      options.token = token;
      client_token_ = std::move(token);
      client_ = std::make_unique<yarn::ApplicationClient>(std::move(options));
    }
    return *client_;
  }

  void start_tracking() {
    if (!record_.mlflow || record_.mlflow->closed) return;
    tracking_.emplace(*record_.mlflow, [](const std::string& line) { log(line); });
    tracking_->describe_search(search_, record_.search_json);
  }

  // Sends each ended trial's scalars and end to its MLflow run, and with
  // `sweep_over` the sweep's own; true when a run was closed.
  bool close_tracked(bool sweep_over) {
    // An ended trial's scalars are kept until its run has them.
    for (const auto& trial : record_.trials) {
      const bool done = is_final(trial.state) && settling_.count(trial.parameters.index) == 0 &&
                        (!tracking_ || trial.mlflow_run_id.empty() || trial.mlflow_closed);
      if (done) watches_.erase(trial.parameters.index);
    }
    if (!tracking_) return false;
    bool closed = false;
    for (auto& trial : record_.trials) {
      if (!is_final(trial.state) || trial.mlflow_run_id.empty() || trial.mlflow_closed) continue;
      if (settling_.count(trial.parameters.index) > 0) continue;  // what it logs until it stops is its own
      // A trial that ended while no controller ran is read from its start.
      if (watches_.find(trial.parameters.index) == watches_.end()) read_metric(trial);
      tracking_->close_trial(trial, watches_.at(trial.parameters.index)->all_points());
      closed = closed || trial.mlflow_closed;
    }
    if (sweep_over) tracking_->close_sweep(record_);
    return closed;
  }

  void conclude() {
    record_.ended_ms = wall_clock_ms();
    const bool any = record_.count(TrialState::succeeded) + record_.count(TrialState::stopped) > 0;
    record_.state = any ? SweepState::succeeded : SweepState::failed;
    const auto* best = record_.best_trial(search_.metric.maximize);
    if (best) {
      char value[32];
      std::snprintf(value, sizeof(value), "%.6g", best->best->value);
      record_.diagnostics = "best: trial " + std::to_string(best->parameters.index) + " (" + best->application_id +
                            "), " + search_.metric.tag + " " + value + " at step " + std::to_string(best->best->step);
    } else {
      record_.diagnostics = "no trial logged " + search_.metric.tag;
    }
    if (!any) record_.diagnostics = "every trial failed or was killed; " + record_.diagnostics;
  }

  ContainerContext context_;
  yarn::HadoopConfiguration configuration_;
  JobSpec base_;
  SweepSearch search_;
  TrialTemplate shape_;
  yarn::WebHdfs hdfs_;
  std::string record_path_;
  std::unique_ptr<TokenFile> token_file_;
  bool renews_tokens_;
  std::unique_ptr<yarn::ApplicationClient> client_;
  std::optional<yarn::Token> client_token_;
  RungBoard board_;
  SweepRecord record_;
  std::map<int, std::unique_ptr<TrialScalars>> watches_;
  std::set<int> settling_;  // stopped by the sweep, until the ResourceManager reports them ended
  int waiting_note_ = -1;
  std::optional<SweepTracking> tracking_;
};

}  // namespace

int run_sweep_controller() {
  std::signal(SIGTERM, remember_sweep_stop);
  std::signal(SIGINT, remember_sweep_stop);
  std::signal(SIGPIPE, SIG_IGN);
  auto started = start_master();
  if (!started) {
    log(started.error().message);
    return 2;
  }
  auto* context = &started->context;
  auto* configuration = &started->configuration;
  auto* scheduler = &started->scheduler;
  auto fail = [&](const std::string& why) {
    log(why);
    fail_registered(**scheduler, context->host, why);
    return 1;
  };
  auto spec = read_job_spec(*context);
  if (!spec) return fail(spec.error().message);
  auto credentials = yarn::Credentials::read_file(context->token_file);
  if (!credentials) return fail("the controller's credentials cannot be read: " + credentials.error().message);
  const auto search_json = credentials->secrets.find(container_contract::sweep_search_alias);
  if (search_json == credentials->secrets.end()) {
    return fail(std::string("the controller's credentials hold no search (") + container_contract::sweep_search_alias +
                "); a sweep is submitted with `spindle sweep submit`");
  }
  use_mlflow_credentials(*credentials, [](const std::string& line) { log(line); });
  auto search = search_from_json(search_json->second, "the sweep's search");
  if (!search) return fail("the sweep's search is not valid: " + format_diagnostics(search.error()));
  TrialTemplate shape;
  auto master_files = yarn::decode_local_files(environment(container_contract::master_files_variable));
  if (!master_files) {
    return fail(std::string(container_contract::master_files_variable) + ": " + master_files.error().message);
  }
  shape.master_files = std::move(*master_files);
  shape.resources = environment(container_contract::resources_variable);
  shape.token_file = context->token_file;
  shape.tokens = context->delegation_tokens;
  // With a keytab the controller logs in and renews its own tokens, and each
  // trial's master, which localizes the keytab too, renews the trial's.
  auto job_login = set_up_job_login(*configuration);
  if (!job_login) return fail("cannot log in from the sweep's keytab: " + job_login.error().message);
  if (*job_login) {
    for (const char* name : {container_contract::kerberos_principal_variable,
                             container_contract::kerberos_realm_variable, container_contract::kerberos_kdcs_variable}) {
      shape.login_environment[name] = environment(name);
    }
  }
  shape.tls = !context->api_pin.empty();
  const auto record_path = environment(container_contract::sweep_record_variable);
  if (record_path.empty()) return fail(std::string(container_contract::sweep_record_variable) + " is not set");
  auto hdfs = container_hdfs(*context);
  if (!hdfs) return fail("HDFS cannot be reached from the controller: " + hdfs.error().message);

  std::unique_ptr<TokenRefresher> refresher;
  if (*job_login) {
    auto deliver = [token_file = context->token_file](const std::map<std::string, yarn::Token>& tokens,
                                                      std::chrono::system_clock::time_point) {
      // The controller's HDFS and ResourceManager clients, and the trials it submits from now on, read them there.
      if (auto replaced = TokenFile::replace_tokens(token_file, tokens); !replaced) {
        log("the new tokens are not in the controller's token file: " + replaced.error().message);
      } else {
        log("new delegation tokens from the keytab");
      }
    };
    refresher = std::make_unique<TokenRefresher>(*configuration, *spec, context->delegation_tokens, std::move(deliver),
                                                 [](const std::string& line) { log(line); });
    refresher->start();
  }
  SweepController controller(*context, *configuration, std::move(*spec), std::move(*search), std::move(shape),
                             std::move(*hdfs), record_path, *job_login);
  if (auto registered = (*scheduler)->register_master(context->host, 0, ""); !registered) {
    log("cannot register with the ResourceManager: " + registered.error().message);
    return 1;
  }
  if (auto loaded = controller.load_record(search_json->second); !loaded) {
    log(loaded.error().message);
    (void)(*scheduler)->finish(yarn::FinalStatus::failed, "the sweep's record: " + loaded.error().message, "");
    return 1;
  }
  controller.run(**scheduler);
  const auto& record = controller.record();
  if (record.state == SweepState::running) return 1;  // this attempt gave up; the next goes on
  if (record.state != SweepState::killed) {
    const auto status =
        record.state == SweepState::succeeded ? yarn::FinalStatus::succeeded : yarn::FinalStatus::failed;
    if (auto finished = (*scheduler)->finish(status, record.diagnostics, ""); !finished) {
      log(finished.error().message);
    }
  }
  // The trials' files go with the sweep; its record stays.
  if (auto removed = remove_staging(environment(container_contract::staging_variable), *context); !removed) {
    log(removed.error().message);
  }
  return record.state == SweepState::killed ? 143 : 0;
}

}  // namespace spindle::container

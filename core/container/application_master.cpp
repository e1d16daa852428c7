#include "container/application_master.h"

#include <csignal>

#include <atomic>
#include <condition_variable>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "container/container_context.h"
#include "container/job_file.h"
#include "container/job_scalars_feed.h"
#include "container/kerberos_login.h"
#include "container/master_start.h"
#include "container/output_cleanup.h"
#include "container/staging_cleanup.h"
#include "container/token_file.h"
#include "container/token_refresher.h"
#include "spindle/core/clock.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/job_api_server.h"
#include "spindle/core/job_lifecycle.h"
#include "spindle/core/job_status.h"
#include "spindle/core/shell_quote.h"
#include "spindle/core/token_expiry.h"
#include "spindle/core/token_shelf.h"
#include "spindle/yarn/application_master_client.h"
#include "spindle/yarn/credentials.h"
#include "spindle/yarn/node_manager_client.h"
#include "spindle/yarn/token_lifetime.h"
#include "spindle/yarn/web_tls.h"

namespace spindle::container {
namespace {

using Clock = std::chrono::steady_clock;

std::atomic<int> stop_signal = 0;

// How long a running task has, once the job's end is decided, to stop its
// command, copy its output and report, before its NodeManager stops it
// (SIGTERM, then SIGKILL 250 ms later, which would cut a copy short).
constexpr auto self_stop_grace = std::chrono::seconds(20);

extern "C" void remember_stop_signal(int signal) {
  stop_signal = signal;
}

void log(const std::string& line) {
  std::cerr << "spindle master: " << line << std::endl;
}

// The job API's view of the application master: every call takes the lock
// the main loop holds while it changes the life cycle.
class MasterBackend final : public JobApiBackend {
 public:
  MasterBackend(JobLifecycle& lifecycle, EventLog& events, Rendezvous& rendezvous, std::string application_id,
                std::optional<yarn::TokenLifetime> tokens_end)
      : lifecycle_(lifecycle),
        events_(events),
        rendezvous_(rendezvous),
        application_id_(std::move(application_id)),
        tokens_end_(std::move(tokens_end)) {}

  std::mutex& mutex() { return mutex_; }
  // Wakes the main loop early, e.g. when a task reports its end.
  void wait(std::unique_lock<std::mutex>& lock, std::chrono::milliseconds most) {
    wake_.wait_for(lock, most, [this] { return woken_; });
    woken_ = false;
  }

  Result<void> register_task(const TaskId& task, const HostPort& address, const std::string& container,
                             const Reattachment& reattachment) override {
    std::lock_guard lock(mutex_);
    return lifecycle_.register_task(task, address, container, reattachment);
  }
  Result<void> heartbeat(const TaskId& task, const TaskHeartbeat& heartbeat) override {
    std::lock_guard lock(mutex_);
    return lifecycle_.heartbeat(task, heartbeat);
  }
  Result<void> result(const TaskId& task, const TaskResult& result) override {
    std::lock_guard lock(mutex_);
    auto taken = lifecycle_.result(task, result);
    woken_ = true;
    wake_.notify_all();
    return taken;
  }
  JobStatus status(const TaskSelection& selection) override {
    std::lock_guard lock(mutex_);
    const auto current = rendezvous_.current();
    auto status = job_status(lifecycle_, application_id_, current ? current->version : 0, started_ms_, selection);
    // A job whose master renews its tokens announces their end only once a
    // new set is overdue (at nine tenths of the held set's life, where three
    // quarters was due): a notice of every set's end would cry wolf.
    const auto overdue = [this] {
      const auto life = tokens_end_->ends - tokens_end_->issued;
      return std::chrono::system_clock::now() > tokens_end_->issued + life * 9 / 10;
    };
    if (tokens_end_ && (!refreshing_ || overdue())) {
      status.tokens_end_ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(tokens_end_->ends.time_since_epoch()).count();
      status.tokens_end_kind = tokens_end_->kind;
    }
    return status;
  }
  // The first of the job's delegation tokens to reach its maximum lifetime; nullopt without any.
  std::optional<yarn::TokenLifetime> tokens_end() {
    std::lock_guard lock(mutex_);
    return tokens_end_;
  }
  EventLog& events() override { return events_; }
  TokenShelf* tokens() override { return refreshing_ ? &shelf_ : nullptr; }

  // The same, for callers that hold mutex().
  const std::optional<yarn::TokenLifetime>& tokens_end_held() const { return tokens_end_; }

  // A new set of the job's tokens: its executors are handed them, and the
  // job's end of tokens is theirs from now on: their maximum date, or when
  // they expire unrenewed if that comes first.
  void new_tokens(const std::map<std::string, yarn::Token>& tokens, std::chrono::system_clock::time_point expires) {
    yarn::Credentials credentials;
    credentials.tokens = tokens;
    {
      std::lock_guard lock(mutex_);
      refreshing_ = true;
      tokens_end_ = yarn::first_to_end(tokens);
      if (tokens_end_) tokens_end_->ends = std::min(tokens_end_->ends, expires);
    }
    shelf_.put(credentials.serialize());
  }
  void will_refresh() {
    std::lock_guard lock(mutex_);
    refreshing_ = true;
  }

 private:
  JobLifecycle& lifecycle_;
  EventLog& events_;
  Rendezvous& rendezvous_;
  const std::string application_id_;
  const std::int64_t started_ms_ = wall_clock_ms();
  std::optional<yarn::TokenLifetime> tokens_end_;
  TokenShelf shelf_;
  std::atomic<bool> refreshing_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool woken_ = false;
};

yarn::FinalStatus final_status(JobOutcome outcome) {
  switch (outcome) {
    case JobOutcome::succeeded: return yarn::FinalStatus::succeeded;
    case JobOutcome::killed: return yarn::FinalStatus::killed;
    default: return yarn::FinalStatus::failed;
  }
}

class ApplicationMaster {
 public:
  ApplicationMaster(ContainerContext context, JobSpec spec, std::vector<yarn::LocalFile> staged_files,
                    std::string node_web_scheme)
      : context_(std::move(context)),
        staged_files_(std::move(staged_files)),
        events_(10'000, events_numbered_after(context_.attempt)),
        rendezvous_(spec),
        lifecycle_(spec, rendezvous_, events_),
        backend_(lifecycle_, events_, rendezvous_, context_.application_id,
                 yarn::first_to_end(context_.delegation_tokens)),
        node_web_scheme_(std::move(node_web_scheme)),
        token_file_(context_.token_file) {}

  // For a job submitted with a keytab: obtains new tokens before the held
  // ones die, puts them in this container's token file (for the master's
  // own HDFS clients and the containers it launches from now on) and hands
  // them to the running executors.
  void refresh_tokens(const yarn::HadoopConfiguration& configuration, const JobSpec& spec) {
    backend_.will_refresh();
    auto deliver = [this](const std::map<std::string, yarn::Token>& tokens,
                          std::chrono::system_clock::time_point expires) {
      if (auto replaced = TokenFile::replace_tokens(context_.token_file, tokens); !replaced) {
        log("the new tokens are not in this container's token file: " + replaced.error().message);
      }
      backend_.new_tokens(tokens, expires);
      events_.append("tokens", "", "new delegation tokens handed to every task");
    };
    refresher_ = std::make_unique<TokenRefresher>(configuration, spec, context_.delegation_tokens, std::move(deliver),
                                                  [](const std::string& line) { log(line); });
    refresher_->start();
  }

  Result<void> start(yarn::ApplicationMasterClient& scheduler) {
    scheduler_ = &scheduler;
    JobApiOptions api;
    api.secret = context_.secret;
    api.threads = 2;
    // On an encrypted cluster the client made the job a certificate: the API speaks only TLS.
    api.tls_certificate_pem = context_.api_certificate_pem;
    api.tls_key_pem = context_.api_key_pem;
    auto server = JobApiServer::start(rendezvous_, api, &backend_);
    if (!server) return server.error();
    server_ = std::move(*server);
    api_address_ = context_.host + ":" + std::to_string(server_->port());
    tracking_url_ = (context_.api_pin.empty() ? "http://" : "https://") + api_address_ + "/";
    auto registration = scheduler.register_master(context_.host, server_->port(), tracking_url_);
    if (!registration) return registration.error();
    maximum_ = registration->maximum;
    events_.append(
        "job", "",
        "application master attempt " + std::to_string(context_.attempt) + " registered; job API at " + api_address_);
    log("registered in queue " + registration->queue + "; job API at " + api_address_);
    if (!registration->previous_containers.empty()) adopt_later(registration->previous_containers);
    return {};
  }

  // Follows the job until its end is decided and its containers are gone.
  Result<void> run() {
    std::optional<Clock::time_point> stop_deadline;
    std::optional<Clock::time_point> self_stops_end;
    while (true) {
      std::vector<yarn::ContainerAsk> asks;
      std::vector<std::string> silent;
      bool outstanding = false;
      {
        std::unique_lock lock(backend_.mutex());
        if (stop_signal && !lifecycle_.ending()) {
          lifecycle_.kill("the application master was stopped by signal " + std::to_string(stop_signal.load()));
        }
        lifecycle_.tick(Clock::now());
        end_when_tokens_died();
        silent = lifecycle_.take_containers_to_stop();
        for (auto& unclaimed : lifecycle_.take_containers_to_release()) release_.push_back(std::move(unclaimed));
        asks = changed_asks(outstanding);
      }
      // A silent executor's container is given back through the ResourceManager, not stopped
      // at its NodeManager: when the node is cut off, a call to it would hang this loop, while
      // the ResourceManager answers the release at once and has the node stop the container
      // as soon as it is heard from again.
      for (auto& container : silent) release_.push_back(std::move(container));
      auto allocation = scheduler_->allocate(asks, release_, progress());
      if (!allocation || allocation->must_resync) {
        // A restarted ResourceManager (work-preserving) has forgotten the
        // registration but not the containers: register again and repeat
        // every ask. While it is away, keep trying for a while.
        if (allocation || is_not_registered(allocation.error())) {
          if (auto again = register_again(); !again) return again.error();
          unreachable_since_.reset();
          continue;
        }
        if (allocation.error().kind == Error::Kind::refused) {
          // Asking again would be refused again: the job can never run as it stands.
          std::lock_guard lock(backend_.mutex());
          lifecycle_.fail(
              "the ResourceManager refused the containers this job asks for, so it can never run as "
              "it stands: " +
              allocation.error().message + ".");
          sent_.clear();
          continue;
        }
        if (!unreachable_since_) unreachable_since_ = Clock::now();
        if (Clock::now() - *unreachable_since_ > resource_manager_patience) return allocation.error();
        sent_.clear();
        log(allocation.error().message + "; trying again");
        std::this_thread::sleep_for(std::chrono::seconds(1));
        continue;
      }
      unreachable_since_.reset();
      release_.clear();
      if (allocation->must_shut_down) {
        std::lock_guard lock(backend_.mutex());
        lifecycle_.kill("the ResourceManager no longer knows this attempt");
        return {};
      }
      for (const auto& container : allocation->allocated) launch(container);
      {
        std::lock_guard lock(backend_.mutex());
        if (allocation->headroom) {
          const auto& room = *allocation->headroom;
          const auto gpus = room.others.find("yarn.io/gpu");
          lifecycle_.headroom(
              Room{room.memory_mib, room.vcores, gpus == room.others.end() ? std::int64_t{0} : gpus->second});
        }
        for (const auto& completed : allocation->completed) {
          lifecycle_.container_completed(completed.id, completed.exit_status, completed.diagnostics);
          stopping_.erase(completed.id);
        }
        if (const auto current = rendezvous_.current(); current && current->version > published_) {
          published_ = current->version;
          lifecycle_.cluster_published(published_);
        }
      }
      if (lifecycle_.ending()) {
        const auto now = Clock::now();
        if (!stop_deadline) {
          self_stops_end = now + self_stop_grace;
          stop_deadline = *self_stops_end + std::chrono::seconds(20);
        }
        std::vector<std::string> live;
        std::vector<std::string> to_stop;
        {
          std::lock_guard lock(backend_.mutex());
          live = lifecycle_.live_containers();
          for (const auto& container : live) {
            if (now >= *self_stops_end || !lifecycle_.stops_itself(container)) to_stop.push_back(container);
          }
        }
        if (live.empty() || now > *stop_deadline || stop_signal) return {};
        for (const auto& container : to_stop) stop(container);
      }
      std::unique_lock lock(backend_.mutex());
      // Fast while containers are outstanding or being stopped, slow afterwards.
      const bool busy = outstanding || lifecycle_.ending() || launching();
      backend_.wait(lock, busy ? std::chrono::milliseconds(100) : std::chrono::milliseconds(1000));
    }
  }

  // Past the end of the job's newest tokens every task's HDFS access is
  // refused: without a keytab that is the maximum lifetime of those of the
  // submit; with one, new tokens did not come in time. The job ends, said as
  // what it is, rather than hanging on refusals. Called with the backend's
  // lock held.
  void end_when_tokens_died() {
    const auto& tokens = backend_.tokens_end_held();
    if (lifecycle_.ending() || !tokens) return;
    const auto ends_ms = std::chrono::duration_cast<std::chrono::milliseconds>(tokens->ends.time_since_epoch()).count();
    const auto ended = tokens_ended_diagnosis(ends_ms, tokens->kind, wall_clock_ms());
    if (ended.empty()) return;
    if (!refresher_) return lifecycle_.fail(ended + ".");
    // A later master attempt starts with the tokens of the submit, maybe long
    // dead: its refresher gets new ones at once, and is given the time to.
    if (Clock::now() - started_ < refresher_grace || wall_clock_ms() - ends_ms < refresher_grace_ms) return;
    lifecycle_.fail(
        "the application master could not get new delegation tokens from the job's keytab before the "
        "old ones expired at " +
        utc_minute(ends_ms) + " (" + tokens->kind +
        "), after which HDFS and the ResourceManager refuse its tasks; the master's log says why "
        "(spindle logs APP master)");
  }

  Result<void> finish() {
    std::string diagnostics;
    yarn::FinalStatus status;
    {
      std::lock_guard lock(backend_.mutex());
      diagnostics = lifecycle_.diagnostics();
      status = final_status(lifecycle_.outcome());
      if (!lifecycle_.ending()) {
        status = yarn::FinalStatus::failed;
        diagnostics = "the application master ended before the job did";
      }
    }
    // A failure after the tokens ended is told as what it most likely is.
    if (const auto& tokens = backend_.tokens_end(); tokens && status == yarn::FinalStatus::failed && !refresher_) {
      const auto ended = tokens_ended_diagnosis(
          std::chrono::duration_cast<std::chrono::milliseconds>(tokens->ends.time_since_epoch()).count(), tokens->kind,
          wall_clock_ms());
      if (!ended.empty() && diagnostics.find(ended) == std::string::npos) diagnostics = ended + "; " + diagnostics;
    }
    log("finishing: " + diagnostics);
    auto finished = scheduler_->finish(status, diagnostics, tracking_url_);
    if (!finished && is_not_registered(finished.error())) {
      if (auto again = register_again(); !again) return again;
      finished = scheduler_->finish(status, diagnostics, tracking_url_);
    }
    events_.append("unregistered", "", diagnostics);
    return finished;
  }

  void fail(const std::string& why) {
    std::lock_guard lock(backend_.mutex());
    if (!lifecycle_.ending()) lifecycle_.kill(why);
  }

  bool succeeded() {
    std::lock_guard lock(backend_.mutex());
    return lifecycle_.outcome() == JobOutcome::succeeded;
  }

  void stop_api() {
    if (server_) server_->stop();
  }

 private:
  // Asks whose count changed since they were last sent: the ResourceManager
  // takes each as the new total, so repeating an unchanged one would re-ask
  // for containers already granted but not yet received.
  static bool is_not_registered(const Error& error) { return error.kind == Error::Kind::not_registered; }

  // Sequence numbers of attempt N's events start above a million per
  // earlier attempt, past anything one attempt numbers.
  static std::uint64_t events_numbered_after(int attempt) {
    return static_cast<std::uint64_t>(std::max(attempt - 1, 0)) * 1'000'000;
  }

  // The task type a container was granted for: our asks number task types
  // by allocation request id and priority alike (a ResourceManager that
  // kept a container across attempts may report only its priority).
  std::optional<std::string> task_type_of(const yarn::AllocatedContainer& container) const {
    const auto& tasks = lifecycle_.spec().tasks;
    const auto request =
        container.allocation_request_id >= 0 ? container.allocation_request_id : container.priority - 1;
    if (request < 0 || static_cast<std::size_t>(request) >= tasks.size()) return std::nullopt;
    return tasks[static_cast<std::size_t>(request)].type;
  }

  std::string log_url_of(const yarn::AllocatedContainer& container) const {
    return node_web_scheme_ + "://" + container.node_http_address + "/node/containerlogs/" + container.id + "/" +
           context_.user;
  }

  // YARN kept the earlier attempt's containers for this one: their tasks
  // are adopted as their executors find this attempt and register again.
  void adopt_later(const std::vector<yarn::AllocatedContainer>& containers) {
    std::vector<AdoptableContainer> adoptable;
    for (const auto& container : containers) {
      const auto type = task_type_of(container);
      if (!type) {
        // Not a task's: the earlier attempt's own container, or one we cannot place.
        release_.push_back(container.id);
        continue;
      }
      adoptable.push_back(
          AdoptableContainer{container.id, *type, container.node, container.node_http_address, log_url_of(container)});
    }
    log(std::to_string(adoptable.size()) + " container(s) of earlier attempts still run; waiting for them to reattach");
    std::lock_guard lock(backend_.mutex());
    lifecycle_.expect_reattachment(std::move(adoptable), Clock::now() + reattach_patience);
  }

  Result<void> register_again() {
    auto registration = scheduler_->register_master(context_.host, server_->port(), tracking_url_);
    if (!registration) return registration.error();
    std::lock_guard lock(backend_.mutex());
    sent_.clear();
    events_.append("job", "", "registered again with the restarted ResourceManager");
    log("registered again with the restarted ResourceManager");
    return {};
  }

  std::vector<yarn::ContainerAsk> changed_asks(bool& outstanding) {
    std::vector<yarn::ContainerAsk> asks;
    const auto wanted = lifecycle_.containers_wanted();
    const auto& tasks = lifecycle_.spec().tasks;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      const auto& task = tasks[i];
      const int count = wanted.count(task.type) ? wanted.at(task.type) : 0;
      outstanding = outstanding || count > 0;
      if (sent_[task.type] == count) continue;
      sent_[task.type] = count;
      yarn::ContainerAsk ask;
      ask.allocation_request_id = static_cast<std::int64_t>(i);
      ask.priority = static_cast<int>(i) + 1;
      ask.resources.memory_mib = static_cast<std::int64_t>(task.memory_mib);
      ask.resources.vcores = task.vcores;
      if (task.gpus > 0) ask.resources.others["yarn.io/gpu"] = task.gpus;
      ask.node_label = task.node_label;
      ask.count = count;
      asks.push_back(std::move(ask));
    }
    return asks;
  }

  bool launching() const {
    for (const auto& task : lifecycle_.tasks()) {
      if (task.phase == TaskPhase::launching || task.phase == TaskPhase::registered) return true;
    }
    return false;
  }

  float progress() {
    std::lock_guard lock(backend_.mutex());
    const auto& tasks = lifecycle_.tasks();
    if (tasks.empty()) return 0;
    int done = 0;
    for (const auto& task : tasks) done += task.phase == TaskPhase::succeeded ? 1 : 0;
    return static_cast<float>(done) / static_cast<float>(tasks.size());
  }

  yarn::NodeManagerClient* node_manager(const std::string& node) {
    auto found = node_managers_.find(node);
    if (found != node_managers_.end()) return found->second.get();
    const auto token = scheduler_->node_manager_token(node);
    if (!token) return nullptr;
    yarn::RpcOptions base;
    base.connect_timeout = std::chrono::seconds(20);
    base.call_timeout = std::chrono::seconds(60);
    base.protection = scheduler_->protection();
    auto client = std::make_unique<yarn::NodeManagerClient>(node, *token, base);
    auto* raw = client.get();
    node_managers_[node] = std::move(client);
    return raw;
  }

  void launch(const yarn::AllocatedContainer& container) {
    std::optional<TaskId> task;
    int attempt = 0;
    int restarts = 0;
    {
      std::lock_guard lock(backend_.mutex());
      if (const auto type = task_type_of(container)) {
        // The ResourceManager counts its outstanding ask down with each container it grants; so
        // does sent_, or a task of this type restarted in the meantime would ask for no container.
        if (sent_[*type] > 0) --sent_[*type];
        task = lifecycle_.assign_container(*type, container.id, container.node, container.node_http_address,
                                           log_url_of(container));
        if (task) {
          const auto* record = lifecycle_.find(*task);
          attempt = record->restarts + record->lost;
          restarts = record->restarts;
        }
      }
    }
    if (!task) {
      release_.push_back(container.id);
      return;
    }
    yarn::LaunchContext launch;
    launch.files = staged_files_;
    yarn::Credentials credentials;
    credentials.secrets[container_contract::secret_alias] = context_.secret;
    // Tasks pin the API's certificate; its key stays here.
    if (!context_.api_pin.empty()) credentials.secrets[container_contract::api_pin_alias] = context_.api_pin;
    credentials.secrets[container_contract::job_spec_alias] = context_.job_spec_json;
    // Tasks reach HDFS (TensorFlow, TensorBoard) and the ResourceManager with
    // the job's tokens: the newest, where the master renews them.
    credentials.tokens = token_file_.delegation_tokens();
    if (credentials.tokens.empty()) credentials.tokens = context_.delegation_tokens;
    launch.credentials = credentials.serialize();
    if (refresher_) launch.environment[container_contract::token_refresh_variable] = "1";
    launch.commands = {std::string(container_contract::task_command) + " --task " + shell_quote(task->to_string()) +
                       " --api " + shell_quote(api_address_) + " --attempt " + std::to_string(attempt) +
                       " --restarts " + std::to_string(restarts) + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"};
    auto* node = node_manager(container.node);
    Result<void> started = node ? node->start(container, launch)
                                : Result<void>(make_error("the ResourceManager gave no token for " + container.node));
    std::lock_guard lock(backend_.mutex());
    if (!started) {
      log("cannot start " + task->to_string() + " in " + container.id + ": " + started.error().message);
      lifecycle_.launch_failed(container.id, started.error().message);
      release_.push_back(container.id);
      return;
    }
    events_.append("launched", task->to_string(), container.id);
  }

  void stop(const std::string& container) {
    if (!stopping_.insert(container).second) return;
    std::string node;
    {
      std::lock_guard lock(backend_.mutex());
      for (const auto& task : lifecycle_.tasks()) {
        if (task.container == container) node = task.node;
      }
    }
    auto* client = node.empty() ? nullptr : node_manager(node);
    if (!client) return;
    if (auto stopped = client->stop(container); !stopped)
      log("cannot stop " + container + ": " + stopped.error().message);
  }

  ContainerContext context_;
  std::vector<yarn::LocalFile> staged_files_;
  EventLog events_;
  Rendezvous rendezvous_;
  JobLifecycle lifecycle_;
  MasterBackend backend_;
  std::string node_web_scheme_;
  std::unique_ptr<JobApiServer> server_;
  yarn::ApplicationMasterClient* scheduler_ = nullptr;
  yarn::Resources maximum_;
  std::string api_address_;
  std::string tracking_url_;
  std::map<std::string, int> sent_;
  std::optional<Clock::time_point> unreachable_since_;
  static constexpr std::chrono::minutes resource_manager_patience{5};
  // How long the job may go on past its tokens' end while the keytab's new
  // set is on its way: the refresher's retries are a minute apart.
  static constexpr std::chrono::minutes refresher_grace{2};
  static constexpr std::int64_t refresher_grace_ms = 2 * 60 * 1000;
  const Clock::time_point started_ = Clock::now();
  // Executors notice a dead master within seconds (they heartbeat every 5 s
  // and look for the next attempt after 8 s of silence).
  static constexpr std::chrono::seconds reattach_patience{60};
  std::vector<std::string> release_;
  std::set<std::string> stopping_;
  std::uint64_t published_ = 0;
  std::map<std::string, std::unique_ptr<yarn::NodeManagerClient>> node_managers_;
  TokenFile token_file_;
  std::unique_ptr<TokenRefresher> refresher_;
};

}  // namespace

int run_application_master(const MasterOptions& options) {
  std::signal(SIGTERM, remember_stop_signal);
  std::signal(SIGINT, remember_stop_signal);
  std::signal(SIGPIPE, SIG_IGN);
  auto started = start_master();
  if (!started) {
    log(started.error().message);
    return 2;
  }
  auto* context = &started->context;
  auto* configuration = &started->configuration;
  auto* scheduler = &started->scheduler;
  auto spec = read_job_spec(*context);
  auto staged = yarn::decode_local_files(options.staged_files_json);
  auto job_login = set_up_job_login(*configuration);
  if (!spec || !staged || !job_login) {
    // Register only to say why, so the user reads it in the application's diagnostics.
    const auto why = !spec     ? spec.error().message
                     : !staged ? std::string(container_contract::resources_variable) + ": " + staged.error().message
                               : "cannot log in from the job's keytab: " + job_login.error().message;
    log(why);
    fail_registered(**scheduler, context->host, why);
    (void)remove_staging(options.staging_location, *context);
    return 1;
  }
  const std::string output = spec->output;
  const JobSpec token_spec = *spec;
  // The NodeManagers' pages are https:// where yarn.http.policy says HTTPS_ONLY.
  ApplicationMaster master(*context, std::move(*spec), std::move(*staged),
                           yarn::web_scheme(*configuration, yarn::WebService::yarn));
  if (*job_login) master.refresh_tokens(*configuration, token_spec);
  if (auto registered = master.start(**scheduler); !registered) {
    log(registered.error().message);
    return 1;
  }
  auto scalars_feed = start_job_scalars_feed(*context, token_spec, [](const std::string& line) { log(line); });
  if (auto ran = master.run(); !ran) {
    log(ran.error().message);
    master.fail(ran.error().message);
  }
  // Before the end is reported: the client that closes the run then finds it whole.
  if (scalars_feed) scalars_feed->stop();
  const bool killed = stop_signal != 0;
  if (!killed) {
    if (auto finished = master.finish(); !finished) log(finished.error().message);
  }
  if (auto removed = remove_staging(options.staging_location, *context); !removed) {
    log(removed.error().message);
  }
  if (auto strays = remove_stray_copies(output, *context); !strays) {
    log(strays.error().message);
  } else if (*strays > 0) {
    log("removed " + std::to_string(*strays) + " copies cut short by killed tasks from the output " + output);
  }
  // Those following the job's events read its last status now.
  if (!killed) std::this_thread::sleep_for(std::chrono::seconds(1));
  master.stop_api();
  return killed ? 143 : 0;
}

}  // namespace spindle::container

#include "spindle/client/history_store.h"
#include "spindle/core/clock.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <system_error>
#include <utility>

#include "client/history/schema.h"
#include "client/history/sqlite_database.h"

namespace spindle::client {
namespace {

constexpr const char* final_states = "('succeeded', 'failed', 'killed')";

JobHistoryEntry read_job(const sqlite::Statement& row) {
  JobHistoryEntry job;
  job.application_id = row.text(0);
  job.name = row.text(1);
  job.user = row.text(2);
  job.queue = row.text(3);
  job.spec_yaml = row.text(4);
  job.state = row.text(5);
  job.diagnostics = row.text(6);
  job.tracking_url = row.text(7);
  job.submitted_ms = row.integer(8);
  job.started_ms = row.integer(9);
  job.finished_ms = row.integer(10);
  job.updated_ms = row.integer(11);
  return job;
}

constexpr const char* job_columns =
    "application_id, name, user, queue, spec_yaml, state, diagnostics, tracking_url, submitted_ms, started_ms, "
    "finished_ms, updated_ms";

}  // namespace

struct HistoryStore::State {
  sqlite::Database db;

  // A row for the job, so that what refers to it can be kept even when the
  // job was submitted elsewhere.
  Result<void> ensure_job(const std::string& application_id) {
    auto insert = db.prepare("INSERT OR IGNORE INTO jobs (application_id, updated_ms) VALUES (?1, ?2)");
    if (!insert) return insert.error();
    return insert->bind(1, application_id).bind(2, wall_clock_ms()).run();
  }
};

std::filesystem::path HistoryStore::default_path() {
  if (const char* dir = std::getenv("SPINDLE_DATA_DIR"); dir && *dir)
    return std::filesystem::path(dir) / "history.sqlite";
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "spindle" / "history.sqlite";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".local" / "share" / "spindle" / "history.sqlite";
}

Result<HistoryStore> HistoryStore::open(const std::filesystem::path& path) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    return make_error("cannot create " + path.parent_path().string() + " for the job history: " + ec.message() +
                      "; set SPINDLE_DATA_DIR to a writable directory");
  }
  auto db = sqlite::Database::open(path);
  if (!db) return db.error();
  if (auto migrated = history::migrate(*db, schema_version); !migrated) return migrated.error();
  return HistoryStore(std::make_unique<State>(State{std::move(*db)}));
}

HistoryStore::HistoryStore(std::unique_ptr<State> state) : state_(std::move(state)) {}
HistoryStore::HistoryStore(HistoryStore&&) noexcept = default;
HistoryStore& HistoryStore::operator=(HistoryStore&&) noexcept = default;
HistoryStore::~HistoryStore() = default;

const std::filesystem::path& HistoryStore::path() const {
  return state_->db.path();
}

Result<void> HistoryStore::record_job(const JobHistoryEntry& job) {
  auto upsert = state_->db.prepare(R"sql(
    INSERT INTO jobs (application_id, name, user, queue, spec_yaml, state, diagnostics, tracking_url, submitted_ms,
                      started_ms, finished_ms, updated_ms)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
    ON CONFLICT (application_id) DO UPDATE SET
      name = CASE WHEN excluded.name = '' THEN name ELSE excluded.name END,
      user = CASE WHEN excluded.user = '' THEN user ELSE excluded.user END,
      queue = CASE WHEN excluded.queue = '' THEN queue ELSE excluded.queue END,
      spec_yaml = CASE WHEN excluded.spec_yaml = '' THEN spec_yaml ELSE excluded.spec_yaml END,
      submitted_ms = CASE WHEN excluded.submitted_ms = 0 THEN submitted_ms ELSE excluded.submitted_ms END,
      updated_ms = excluded.updated_ms)sql");
  if (!upsert) return upsert.error();
  return upsert->bind(1, job.application_id)
      .bind(2, job.name)
      .bind(3, job.user)
      .bind(4, job.queue)
      .bind(5, job.spec_yaml)
      .bind(6, job.state.empty() ? std::string("submitted") : job.state)
      .bind(7, job.diagnostics)
      .bind(8, job.tracking_url)
      .bind(9, job.submitted_ms)
      .bind(10, job.started_ms)
      .bind(11, job.finished_ms)
      .bind(12, wall_clock_ms())
      .run();
}

Result<void> HistoryStore::record_state(const std::string& application_id, const std::string& state,
                                        const std::string& diagnostics, std::int64_t started_ms,
                                        std::int64_t finished_ms, const std::string& tracking_url) {
  auto transaction = sqlite::Transaction::begin(state_->db);
  if (!transaction) return transaction.error();
  if (auto ensured = state_->ensure_job(application_id); !ensured) return ensured;
  // Once final, the state and its diagnostics stay; times still fill in.
  auto update = state_->db.prepare(std::string(R"sql(
    UPDATE jobs SET
      state = CASE WHEN state IN )sql") +
                                   final_states + R"sql( THEN state ELSE ?2 END,
      diagnostics = CASE WHEN ?3 = '' OR (state IN )sql" +
                                   final_states + R"sql( AND diagnostics != '')
                         THEN diagnostics ELSE ?3 END,
      started_ms = CASE WHEN ?4 = 0 THEN started_ms ELSE ?4 END,
      finished_ms = CASE WHEN ?5 = 0 THEN finished_ms ELSE ?5 END,
      tracking_url = CASE WHEN ?6 = '' THEN tracking_url ELSE ?6 END,
      updated_ms = ?7
    WHERE application_id = ?1)sql");
  if (!update) return update.error();
  if (auto updated = update->bind(1, application_id)
                         .bind(2, state)
                         .bind(3, diagnostics)
                         .bind(4, started_ms)
                         .bind(5, finished_ms)
                         .bind(6, tracking_url)
                         .bind(7, wall_clock_ms())
                         .run();
      !updated) {
    return updated;
  }
  return transaction->commit();
}

Result<void> HistoryStore::record_status(const JobStatus& status) {
  auto transaction = sqlite::Transaction::begin(state_->db);
  if (!transaction) return transaction.error();
  if (auto ensured = state_->ensure_job(status.application_id); !ensured) return ensured;
  auto upsert = state_->db.prepare(R"sql(
    INSERT INTO task_attempts (application_id, task, attempt, container, node, address, phase, exit_code,
                               exit_description, log_url, started_ms, finished_ms)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
    ON CONFLICT (application_id, task, attempt) DO UPDATE SET
      container = CASE WHEN excluded.container = '' THEN container ELSE excluded.container END,
      node = CASE WHEN excluded.node = '' THEN node ELSE excluded.node END,
      address = CASE WHEN excluded.address = '' THEN address ELSE excluded.address END,
      phase = excluded.phase,
      exit_code = COALESCE(excluded.exit_code, exit_code),
      exit_description = CASE WHEN excluded.exit_description = '' THEN exit_description
                              ELSE excluded.exit_description END,
      log_url = CASE WHEN excluded.log_url = '' THEN log_url ELSE excluded.log_url END,
      started_ms = CASE WHEN excluded.started_ms = 0 THEN started_ms ELSE excluded.started_ms END,
      finished_ms = CASE WHEN excluded.finished_ms = 0 THEN finished_ms ELSE excluded.finished_ms END)sql");
  if (!upsert) return upsert.error();
  auto write = [&](const std::string& task, int attempt, const std::string& container, const std::string& node,
                   const std::string& address, const std::string& phase, const std::optional<int>& exit_code,
                   const std::string& description, const std::string& log_url, std::int64_t started,
                   std::int64_t finished) {
    return upsert->bind(1, status.application_id)
        .bind(2, task)
        .bind(3, attempt)
        .bind(4, container)
        .bind(5, node)
        .bind(6, address)
        .bind(7, phase)
        .bind(8, exit_code)
        .bind(9, description)
        .bind(10, log_url)
        .bind(11, started)
        .bind(12, finished)
        .run();
  };
  for (const auto& task : status.tasks) {
    int attempt = 0;
    for (const auto& earlier : task.earlier_attempts) {
      const std::string phase = earlier.exit_code && *earlier.exit_code == 0 ? "succeeded" : "failed";
      if (auto written =
              write(task.task, attempt++, earlier.container, earlier.node, earlier.address, phase, earlier.exit_code,
                    earlier.exit_description, earlier.log_url, earlier.started_ms, earlier.finished_ms);
          !written) {
        return written;
      }
    }
    if (task.earlier_attempts.empty()) attempt = task.restarts + task.lost;
    if (auto written = write(task.task, attempt, task.container, task.node, task.address, task.phase, task.exit_code,
                             task.exit_description, task.log_url, task.started_ms, task.finished_ms);
        !written) {
      return written;
    }
  }
  const bool ended = is_final_state(status.state);
  auto update = state_->db.prepare(std::string(R"sql(
    UPDATE jobs SET state = ?2,
      diagnostics = CASE WHEN ?3 = '' THEN diagnostics ELSE ?3 END,
      name = CASE WHEN name = '' THEN ?4 ELSE name END,
      started_ms = CASE WHEN started_ms = 0 THEN ?5 ELSE started_ms END,
      updated_ms = ?6
    WHERE application_id = ?1 AND state NOT IN )sql") +
                                   final_states);
  if (!update) return update.error();
  if (auto updated = update->bind(1, status.application_id)
                         .bind(2, ended ? status.state : std::string("running"))
                         .bind(3, status.diagnostics)
                         .bind(4, status.name)
                         .bind(5, status.started_ms)
                         .bind(6, wall_clock_ms())
                         .run();
      !updated) {
    return updated;
  }
  return transaction->commit();
}

Result<void> HistoryStore::record_events(const std::string& application_id, const std::vector<JobEvent>& events) {
  if (events.empty()) return {};
  auto transaction = sqlite::Transaction::begin(state_->db);
  if (!transaction) return transaction.error();
  if (auto ensured = state_->ensure_job(application_id); !ensured) return ensured;
  auto insert = state_->db.prepare(
      "INSERT OR IGNORE INTO events (application_id, sequence, time_ms, kind, task, message) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  if (!insert) return insert.error();
  for (const auto& event : events) {
    if (auto written = insert->bind(1, application_id)
                           .bind(2, static_cast<std::int64_t>(event.sequence))
                           .bind(3, event.time_ms)
                           .bind(4, event.kind)
                           .bind(5, event.task)
                           .bind(6, event.message)
                           .run();
        !written) {
      return written;
    }
  }
  return transaction->commit();
}

Result<void> HistoryStore::record_master_attempts(const std::string& application_id,
                                                  const std::vector<MasterAttemptEntry>& attempts) {
  if (attempts.empty()) return {};
  auto transaction = sqlite::Transaction::begin(state_->db);
  if (!transaction) return transaction.error();
  if (auto ensured = state_->ensure_job(application_id); !ensured) return ensured;
  auto upsert = state_->db.prepare(R"sql(
    INSERT INTO master_attempts (application_id, attempt, container, host, state, diagnostics, started_ms, finished_ms)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
    ON CONFLICT (application_id, attempt) DO UPDATE SET
      container = excluded.container, host = excluded.host, state = excluded.state,
      diagnostics = excluded.diagnostics, started_ms = excluded.started_ms, finished_ms = excluded.finished_ms)sql");
  if (!upsert) return upsert.error();
  for (const auto& attempt : attempts) {
    if (auto written = upsert->bind(1, application_id)
                           .bind(2, static_cast<std::int64_t>(attempt.attempt))
                           .bind(3, attempt.container)
                           .bind(4, attempt.host)
                           .bind(5, attempt.state)
                           .bind(6, attempt.diagnostics)
                           .bind(7, attempt.started_ms)
                           .bind(8, attempt.finished_ms)
                           .run();
        !written) {
      return written;
    }
  }
  return transaction->commit();
}

Result<std::vector<MasterAttemptEntry>> HistoryStore::master_attempts(const std::string& application_id) {
  auto query = state_->db.prepare(
      "SELECT attempt, container, host, state, diagnostics, started_ms, finished_ms FROM master_attempts "
      "WHERE application_id = ?1 ORDER BY attempt");
  if (!query) return query.error();
  query->bind(1, application_id);
  std::vector<MasterAttemptEntry> attempts;
  for (;;) {
    auto row = query->next();
    if (!row) return row.error();
    if (!*row) break;
    MasterAttemptEntry attempt;
    attempt.attempt = static_cast<int>(query->integer(0));
    attempt.container = query->text(1);
    attempt.host = query->text(2);
    attempt.state = query->text(3);
    attempt.diagnostics = query->text(4);
    attempt.started_ms = query->integer(5);
    attempt.finished_ms = query->integer(6);
    attempts.push_back(std::move(attempt));
  }
  return attempts;
}

Result<void> HistoryStore::record_metrics(const std::string& application_id, const std::vector<MetricPoint>& points) {
  if (points.empty()) return {};
  auto transaction = sqlite::Transaction::begin(state_->db);
  if (!transaction) return transaction.error();
  if (auto ensured = state_->ensure_job(application_id); !ensured) return ensured;
  auto insert = state_->db.prepare(
      "INSERT OR IGNORE INTO metric_points (application_id, source, run, tag, step, wall_time, value) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  if (!insert) return insert.error();
  for (const auto& point : points) {
    if (auto written = insert->bind(1, application_id)
                           .bind(2, point.source)
                           .bind(3, point.run)
                           .bind(4, point.tag)
                           .bind(5, point.step)
                           .bind(6, point.wall_time)
                           .bind(7, point.value)
                           .run();
        !written) {
      return written;
    }
  }
  return transaction->commit();
}

Result<std::vector<JobHistoryEntry>> HistoryStore::jobs(const JobFilter& filter) {
  std::string sql = std::string("SELECT ") + job_columns + " FROM jobs WHERE 1";
  if (!filter.include_finished) sql += std::string(" AND state NOT IN ") + final_states;
  if (!filter.search.empty()) {
    sql +=
        " AND (instr(application_id, ?1) > 0 OR instr(lower(name), lower(?1)) > 0 OR instr(user, ?1) > 0 OR "
        "instr(queue, ?1) > 0)";
  }
  sql += " ORDER BY CASE WHEN submitted_ms = 0 THEN started_ms ELSE submitted_ms END DESC, application_id DESC LIMIT " +
         std::to_string(filter.limit);
  auto query = state_->db.prepare(sql);
  if (!query) return query.error();
  if (!filter.search.empty()) query->bind(1, filter.search);
  std::vector<JobHistoryEntry> jobs;
  for (;;) {
    auto row = query->next();
    if (!row) return row.error();
    if (!*row) break;
    jobs.push_back(read_job(*query));
  }
  return jobs;
}

Result<std::optional<JobHistoryEntry>> HistoryStore::job(const std::string& application_id) {
  auto query = state_->db.prepare(std::string("SELECT ") + job_columns + " FROM jobs WHERE application_id = ?1");
  if (!query) return query.error();
  query->bind(1, application_id);
  auto row = query->next();
  if (!row) return row.error();
  if (!*row) return std::optional<JobHistoryEntry>();
  return std::optional<JobHistoryEntry>(read_job(*query));
}

Result<std::vector<TaskAttemptEntry>> HistoryStore::attempts(const std::string& application_id) {
  auto query = state_->db.prepare(R"sql(
    SELECT task, attempt, container, node, address, phase, exit_code, exit_description, log_url, started_ms,
           finished_ms
    FROM task_attempts WHERE application_id = ?1
    ORDER BY CASE substr(task, 1, instr(task, ':') - 1)
               WHEN 'chief' THEN 0 WHEN 'worker' THEN 1 WHEN 'ps' THEN 2 WHEN 'evaluator' THEN 3
               WHEN 'tensorboard' THEN 4 ELSE 5 END,
             substr(task, 1, instr(task, ':') - 1), CAST(substr(task, instr(task, ':') + 1) AS INTEGER), attempt)sql");
  if (!query) return query.error();
  query->bind(1, application_id);
  std::vector<TaskAttemptEntry> attempts;
  for (;;) {
    auto row = query->next();
    if (!row) return row.error();
    if (!*row) break;
    TaskAttemptEntry attempt;
    attempt.task = query->text(0);
    attempt.attempt = static_cast<int>(query->integer(1));
    attempt.container = query->text(2);
    attempt.node = query->text(3);
    attempt.address = query->text(4);
    attempt.phase = query->text(5);
    if (!query->is_null(6)) attempt.exit_code = static_cast<int>(query->integer(6));
    attempt.exit_description = query->text(7);
    attempt.log_url = query->text(8);
    attempt.started_ms = query->integer(9);
    attempt.finished_ms = query->integer(10);
    attempts.push_back(std::move(attempt));
  }
  return attempts;
}

Result<std::vector<JobEvent>> HistoryStore::events(const std::string& application_id) {
  auto query = state_->db.prepare(
      "SELECT sequence, time_ms, kind, task, message FROM events WHERE application_id = ?1 ORDER BY sequence");
  if (!query) return query.error();
  query->bind(1, application_id);
  std::vector<JobEvent> events;
  for (;;) {
    auto row = query->next();
    if (!row) return row.error();
    if (!*row) break;
    events.push_back(JobEvent{static_cast<std::uint64_t>(query->integer(0)), query->integer(1), query->text(2),
                              query->text(3), query->text(4)});
  }
  return events;
}

Result<std::vector<MetricPoint>> HistoryStore::metrics(const std::string& application_id, const std::string& tag) {
  std::string sql = "SELECT source, run, tag, step, wall_time, value FROM metric_points WHERE application_id = ?1";
  if (!tag.empty()) sql += " AND tag = ?2";
  sql += " ORDER BY tag, source, run, step, wall_time";
  auto query = state_->db.prepare(sql);
  if (!query) return query.error();
  query->bind(1, application_id);
  if (!tag.empty()) query->bind(2, tag);
  std::vector<MetricPoint> points;
  for (;;) {
    auto row = query->next();
    if (!row) return row.error();
    if (!*row) break;
    points.push_back(
        MetricPoint{query->text(0), query->text(1), query->text(2), query->integer(3), query->real(4), query->real(5)});
  }
  return points;
}

Result<std::uint64_t> HistoryStore::last_event_sequence(const std::string& application_id) {
  auto query = state_->db.prepare("SELECT COALESCE(MAX(sequence), 0) FROM events WHERE application_id = ?1");
  if (!query) return query.error();
  query->bind(1, application_id);
  auto row = query->next();
  if (!row) return row.error();
  return static_cast<std::uint64_t>(*row ? query->integer(0) : 0);
}

JobStatus status_from_history(const JobHistoryEntry& job, const std::vector<TaskAttemptEntry>& attempts) {
  JobStatus status;
  status.application_id = job.application_id;
  status.name = job.name;
  status.state = job.state;
  status.diagnostics = job.diagnostics;
  status.started_ms = job.started_ms;
  // Attempts come ordered by task, then attempt: the last of a run is the newest.
  std::vector<EarlierAttempt> earlier;
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const auto& attempt = attempts[i];
    if (i + 1 < attempts.size() && attempts[i + 1].task == attempt.task) {
      earlier.push_back(EarlierAttempt{attempt.container, attempt.node, attempt.address, attempt.exit_code,
                                       attempt.exit_description, attempt.log_url, attempt.started_ms,
                                       attempt.finished_ms});
      continue;
    }
    TaskStatus task;
    task.earlier_attempts = std::exchange(earlier, {});
    task.task = attempt.task;
    task.phase = attempt.phase;
    task.container = attempt.container;
    task.node = attempt.node;
    task.address = attempt.address;
    task.exit_code = attempt.exit_code;
    task.exit_description = attempt.exit_description;
    task.restarts = attempt.attempt;
    task.log_url = attempt.log_url;
    task.started_ms = attempt.started_ms;
    task.finished_ms = attempt.finished_ms;
    status.tasks.push_back(std::move(task));
  }
  return status;
}

}  // namespace spindle::client

namespace spindle::client {

Result<void> HistoryStore::record_tracking_run(const std::string& application_id, const TrackingRunEntry& run) {
  auto transaction = sqlite::Transaction::begin(state_->db);
  if (!transaction) return transaction.error();
  if (auto ensured = state_->ensure_job(application_id); !ensured) return ensured;
  auto upsert = state_->db.prepare(R"sql(
    INSERT INTO tracking_runs (application_id, tracking_uri, experiment_id, run_id, closed_ms, task_runs)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6)
    ON CONFLICT (application_id) DO UPDATE SET tracking_uri = excluded.tracking_uri,
      experiment_id = excluded.experiment_id, run_id = excluded.run_id, closed_ms = excluded.closed_ms,
      task_runs = excluded.task_runs)sql");
  if (!upsert) return upsert.error();
  if (auto written = upsert->bind(1, application_id)
                         .bind(2, run.tracking_uri)
                         .bind(3, run.experiment_id)
                         .bind(4, run.run_id)
                         .bind(5, run.closed_ms)
                         .bind(6, nlohmann::json(run.task_runs).dump())
                         .run();
      !written) {
    return written;
  }
  return transaction->commit();
}

Result<bool> HistoryStore::close_tracking_run(const std::string& application_id, std::int64_t closed_ms) {
  auto update =
      state_->db.prepare("UPDATE tracking_runs SET closed_ms = ?2 WHERE application_id = ?1 AND closed_ms = 0");
  if (!update) return update.error();
  if (auto written = update->bind(1, application_id).bind(2, closed_ms).run(); !written) return written.error();
  return state_->db.changes() > 0;
}

Result<std::optional<TrackingRunEntry>> HistoryStore::tracking_run(const std::string& application_id) {
  auto query = state_->db.prepare(
      "SELECT tracking_uri, experiment_id, run_id, closed_ms, task_runs FROM tracking_runs WHERE application_id = ?1");
  if (!query) return query.error();
  query->bind(1, application_id);
  auto row = query->next();
  if (!row) return row.error();
  if (!*row) return std::optional<TrackingRunEntry>();
  TrackingRunEntry run{query->text(0), query->text(1), query->text(2), query->integer(3), {}};
  // Written by record_tracking_run; anything else there is ignored rather than trusted.
  const auto task_runs = nlohmann::json::parse(query->text(4), nullptr, false);
  if (task_runs.is_object()) {
    for (const auto& [task, id] : task_runs.items()) {
      if (id.is_string()) run.task_runs[task] = id.get<std::string>();
    }
  }
  return std::optional<TrackingRunEntry>(std::move(run));
}

Result<std::vector<std::string>> HistoryStore::ended_jobs_with_open_runs() {
  auto query =
      state_->db.prepare(std::string("SELECT jobs.application_id FROM tracking_runs JOIN jobs USING (application_id) "
                                     "WHERE tracking_runs.closed_ms = 0 AND jobs.state IN ") +
                         final_states + " ORDER BY jobs.submitted_ms");
  if (!query) return query.error();
  std::vector<std::string> ids;
  for (;;) {
    auto row = query->next();
    if (!row) return row.error();
    if (!*row) break;
    ids.push_back(query->text(0));
  }
  return ids;
}

}  // namespace spindle::client

namespace spindle::client {

Result<void> HistoryStore::record_sweep(const SweepRecord& sweep) {
  auto upsert = state_->db.prepare(R"sql(
    INSERT INTO sweeps (sweep_id, name, state, submitted_ms, record_json, updated_ms)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6)
    ON CONFLICT (sweep_id) DO UPDATE SET name = excluded.name, state = excluded.state,
      submitted_ms = excluded.submitted_ms, record_json = excluded.record_json, updated_ms = excluded.updated_ms)sql");
  if (!upsert) return upsert.error();
  return upsert->bind(1, sweep.sweep_id)
      .bind(2, sweep.name)
      .bind(3, std::string(to_string(sweep.state)))
      .bind(4, sweep.submitted_ms)
      .bind(5, to_json(sweep))
      .bind(6, wall_clock_ms())
      .run();
}

Result<std::vector<SweepRecord>> HistoryStore::sweeps() {
  auto query = state_->db.prepare("SELECT record_json FROM sweeps ORDER BY submitted_ms DESC, sweep_id DESC");
  if (!query) return query.error();
  std::vector<SweepRecord> found;
  for (;;) {
    auto row = query->next();
    if (!row) return row.error();
    if (!*row) break;
    // Written by record_sweep; a row that no longer reads is skipped rather than trusted.
    if (auto record = sweep_record_from_json(query->text(0))) found.push_back(std::move(*record));
  }
  return found;
}

Result<std::optional<SweepRecord>> HistoryStore::sweep(const std::string& sweep_id) {
  auto query = state_->db.prepare("SELECT record_json FROM sweeps WHERE sweep_id = ?1");
  if (!query) return query.error();
  query->bind(1, sweep_id);
  auto row = query->next();
  if (!row) return row.error();
  if (!*row) return std::optional<SweepRecord>();
  auto record = sweep_record_from_json(query->text(0));
  if (!record) return make_error("the history's record of " + sweep_id + " " + record.error().message);
  return std::optional<SweepRecord>(std::move(*record));
}

}  // namespace spindle::client

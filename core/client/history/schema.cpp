#include "client/history/schema.h"

#include <array>
#include <string>

namespace spindle::client::history {
namespace {

// Index i takes a file from version i to i + 1. Never edit a released step:
// add the next one.
constexpr std::array<const char*, 4> migrations = {
    R"sql(
CREATE TABLE jobs (
  application_id TEXT PRIMARY KEY,
  name TEXT NOT NULL DEFAULT '',
  user TEXT NOT NULL DEFAULT '',
  queue TEXT NOT NULL DEFAULT '',
  spec_yaml TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL DEFAULT 'submitted',
  diagnostics TEXT NOT NULL DEFAULT '',
  tracking_url TEXT NOT NULL DEFAULT '',
  submitted_ms INTEGER NOT NULL DEFAULT 0,
  started_ms INTEGER NOT NULL DEFAULT 0,
  finished_ms INTEGER NOT NULL DEFAULT 0,
  updated_ms INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX jobs_by_submission ON jobs (submitted_ms DESC);
CREATE TABLE task_attempts (
  application_id TEXT NOT NULL REFERENCES jobs (application_id) ON DELETE CASCADE,
  task TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  container TEXT NOT NULL DEFAULT '',
  node TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  phase TEXT NOT NULL DEFAULT '',
  exit_code INTEGER,
  exit_description TEXT NOT NULL DEFAULT '',
  log_url TEXT NOT NULL DEFAULT '',
  started_ms INTEGER NOT NULL DEFAULT 0,
  finished_ms INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (application_id, task, attempt)
);
CREATE TABLE events (
  application_id TEXT NOT NULL REFERENCES jobs (application_id) ON DELETE CASCADE,
  sequence INTEGER NOT NULL,
  time_ms INTEGER NOT NULL,
  kind TEXT NOT NULL,
  task TEXT NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (application_id, sequence)
);
CREATE TABLE metric_points (
  application_id TEXT NOT NULL REFERENCES jobs (application_id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  run TEXT NOT NULL,
  tag TEXT NOT NULL,
  step INTEGER NOT NULL,
  wall_time REAL NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (application_id, tag, source, run, step, wall_time)
) WITHOUT ROWID;
)sql",
    R"sql(
CREATE TABLE master_attempts (
  application_id TEXT NOT NULL REFERENCES jobs (application_id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  container TEXT NOT NULL DEFAULT '',
  host TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL DEFAULT '',
  diagnostics TEXT NOT NULL DEFAULT '',
  started_ms INTEGER NOT NULL DEFAULT 0,
  finished_ms INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (application_id, attempt)
);
)sql",
    R"sql(
CREATE TABLE tracking_runs (
  application_id TEXT PRIMARY KEY REFERENCES jobs (application_id) ON DELETE CASCADE,
  tracking_uri TEXT NOT NULL,
  experiment_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  task_runs TEXT NOT NULL DEFAULT '{}',
  closed_ms INTEGER NOT NULL DEFAULT 0
);
)sql",
    R"sql(
CREATE TABLE sweeps (
  sweep_id TEXT PRIMARY KEY,
  name TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL DEFAULT 'running',
  submitted_ms INTEGER NOT NULL DEFAULT 0,
  record_json TEXT NOT NULL DEFAULT '{}',
  updated_ms INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sweeps_by_submission ON sweeps (submitted_ms DESC);
)sql",
};

Result<int> version_of(sqlite::Database& db) {
  auto query = db.prepare("PRAGMA user_version");
  if (!query) return query.error();
  auto row = query->next();
  if (!row) return row.error();
  return *row ? static_cast<int>(query->integer(0)) : 0;
}

}  // namespace

Result<void> migrate(sqlite::Database& db, int latest) {
  static_assert(migrations.size() >= 1);
  if (latest > static_cast<int>(migrations.size())) latest = static_cast<int>(migrations.size());
  // The common case, without taking the write lock.
  if (auto current = version_of(db); current && *current == latest) return {};
  for (;;) {
    auto transaction = sqlite::Transaction::begin(db);
    if (!transaction) return transaction.error();
    // Read inside the write lock, so two processes never run the same step.
    auto version = version_of(db);
    if (!version) return version.error();
    if (*version > latest) {
      return make_error("the job history " + db.path().string() + " was written by a newer Spindle (schema " +
                        std::to_string(*version) + "; this one knows up to " + std::to_string(latest) +
                        "); upgrade Spindle or set SPINDLE_DATA_DIR to another directory");
    }
    if (*version == latest) return transaction->commit();
    if (auto applied = db.execute(migrations[static_cast<std::size_t>(*version)]); !applied) return applied.error();
    if (auto bumped = db.execute("PRAGMA user_version = " + std::to_string(*version + 1)); !bumped) {
      return bumped.error();
    }
    if (auto committed = transaction->commit(); !committed) return committed.error();
  }
}

}  // namespace spindle::client::history

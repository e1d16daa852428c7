#pragma once

#include "client/history/sqlite_database.h"

namespace spindle::client::history {

// Brings the file's schema (PRAGMA user_version) up to `latest`, one
// migration per transaction; refuses a file from a newer Spindle.
Result<void> migrate(sqlite::Database& db, int latest);

}  // namespace spindle::client::history

#include "client/history/sqlite_database.h"

#include <utility>

namespace spindle::client::sqlite {

Statement::Statement(Statement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), statement_(std::exchange(other.statement_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(statement_);
    db_ = std::exchange(other.db_, nullptr);
    statement_ = std::exchange(other.statement_, nullptr);
  }
  return *this;
}

Statement::~Statement() {
  sqlite3_finalize(statement_);
}

Statement& Statement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(statement_, index, value);
  return *this;
}

Statement& Statement::bind(int index, double value) {
  sqlite3_bind_double(statement_, index, value);
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind(int index, const std::optional<int>& value) {
  if (value) return bind(index, static_cast<std::int64_t>(*value));
  sqlite3_bind_null(statement_, index);
  return *this;
}

Result<void> Statement::run() {
  const int code = sqlite3_step(statement_);
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
  if (code != SQLITE_DONE && code != SQLITE_ROW) return make_error(sqlite3_errmsg(db_));
  return {};
}

Result<bool> Statement::next() {
  const int code = sqlite3_step(statement_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  return make_error(sqlite3_errmsg(db_));
}

void Statement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

std::int64_t Statement::integer(int column) const {
  return sqlite3_column_int64(statement_, column);
}

double Statement::real(int column) const {
  return sqlite3_column_double(statement_, column);
}

std::string Statement::text(int column) const {
  const auto* bytes = sqlite3_column_text(statement_, column);
  if (!bytes) return {};
  return std::string(reinterpret_cast<const char*>(bytes),
                     static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

Result<Database> Database::open(const std::filesystem::path& path) {
  sqlite3* db = nullptr;
  const int code =
      sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (code != SQLITE_OK) {
    std::string why = db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    sqlite3_close(db);
    return make_error("cannot open the job history " + path.string() + ": " + why +
                      "; check that its directory exists and is writable");
  }
  Database database(db, path);
  // Several CLI processes and the desktop app share the file: WAL lets
  // readers go on while one writes, and a writer waits for another.
  sqlite3_busy_timeout(db, 10'000);
  if (auto wal = database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
      !wal) {
    return wal.error();
  }
  return database;
}

Database::Database(Database&& other) noexcept : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Database::~Database() {
  sqlite3_close(db_);
}

Error Database::error(const std::string& doing) const {
  return make_error("the job history " + path_.string() + " could not " + doing + ": " + sqlite3_errmsg(db_));
}

int Database::changes() const {
  return sqlite3_changes(db_);
}

Result<void> Database::execute(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    return make_error("the job history " + path_.string() + ": " + why);
  }
  return {};
}

Result<Statement> Database::prepare(const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &statement, nullptr) != SQLITE_OK) {
    return error("prepare a query");
  }
  return Statement(db_, statement);
}

Result<Transaction> Transaction::begin(Database& db) {
  if (auto begun = db.execute("BEGIN IMMEDIATE"); !begun) return begun.error();
  return Transaction(db);
}

Transaction::~Transaction() {
  if (db_) (void)db_->execute("ROLLBACK");
}

Result<void> Transaction::commit() {
  auto committed = db_->execute("COMMIT");
  if (committed) db_ = nullptr;
  return committed;
}

}  // namespace spindle::client::sqlite

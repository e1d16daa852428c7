#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "spindle/core/result.h"

namespace spindle::client::sqlite {

// One prepared statement. Binding is by position, from 1, as SQLite counts.
class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, sqlite3_stmt* statement) : db_(db), statement_(statement) {}
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::optional<int>& value);
  // Runs to completion (an INSERT, UPDATE, ...); resets for the next use.
  Result<void> run();
  // Steps once: true when a row is there to read.
  Result<bool> next();
  void reset();

  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  bool is_null(int column) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* statement_ = nullptr;
};

// A connection to one database file, in WAL mode, waiting a while when
// another process holds the write lock instead of failing at once.
class Database {
 public:
  static Result<Database> open(const std::filesystem::path& path);
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  Result<void> execute(const std::string& sql);
  Result<Statement> prepare(const std::string& sql);
  const std::filesystem::path& path() const { return path_; }
  // Rows the last INSERT, UPDATE or DELETE changed.
  int changes() const;
  // "what went wrong" phrased for the user, with the file named.
  Error error(const std::string& doing) const;

 private:
  Database(sqlite3* db, std::filesystem::path path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back when not committed.
class Transaction {
 public:
  static Result<Transaction> begin(Database& db);
  Transaction(Transaction&& other) noexcept : db_(other.db_) { other.db_ = nullptr; }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  Transaction& operator=(Transaction&&) = delete;
  ~Transaction();
  Result<void> commit();

 private:
  explicit Transaction(Database& db) : db_(&db) {}
  Database* db_;
};

}  // namespace spindle::client::sqlite

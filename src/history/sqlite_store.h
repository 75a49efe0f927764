// The SQLite history backend: one file, WAL journal, schema versioned in
// `PRAGMA user_version`, fingerprints stored as raw float blobs.
// Thread safety: one store per thread (SQLite handles the file locking).
// Import is one transaction (BEGIN IMMEDIATE … COMMIT): all or nothing, even
// when the process is killed or the source fails half-way.
#ifndef SCHEDMATE_HISTORY_SQLITE_STORE_H_
#define SCHEDMATE_HISTORY_SQLITE_STORE_H_

#include <memory>
#include <string>

#include "history/store.h"

namespace schedmate {

struct SqliteOptions {
  // 1: every Put is its own transaction (durable when it returns). N > 1:
  // group commit — Puts share a transaction committed every N records and
  // when the store closes; a crash loses at most the last N - 1. For
  // simulations that write tens of thousands of records.
  int group_commit = 1;
};

// Creates the file and its schema when absent; refuses a newer schema.
Result<std::unique_ptr<HistoryStore>> OpenSqliteHistory(const std::string& path, SqliteOptions options = {});

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_SQLITE_STORE_H_

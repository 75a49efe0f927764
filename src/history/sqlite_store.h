// The SQLite history backend: one file, WAL journal, schema versioned in
// `PRAGMA user_version`, fingerprints stored as raw float blobs.
// Thread safety: one store per thread (SQLite handles the file locking).
#ifndef SCHEDMATE_HISTORY_SQLITE_STORE_H_
#define SCHEDMATE_HISTORY_SQLITE_STORE_H_

#include <memory>
#include <string>

#include "history/store.h"

namespace schedmate {

// Creates the file and its schema when absent; refuses a newer schema.
Result<std::unique_ptr<HistoryStore>> OpenSqliteHistory(const std::string& path);

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_SQLITE_STORE_H_

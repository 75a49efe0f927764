#include "history/sqlite_exec.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace schedmate {

Status ExecRetryingBusy(sqlite3* db, const char* sql, const std::string& what, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (int attempt = 0;; ++attempt) {
    char* err = nullptr;
    int rc = sqlite3_exec(db, sql, nullptr, nullptr, &err);
    std::string why = err ? err : sqlite3_errmsg(db);
    sqlite3_free(err);
    if (rc == SQLITE_OK) return Status::Ok();
    bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
    if (!busy || std::chrono::steady_clock::now() >= deadline) return Unavailable(what + ": " + why);
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + 5 * std::min(attempt, 10)));
  }
}

}  // namespace schedmate

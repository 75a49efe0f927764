// Running set-up SQL (journal mode, CREATE TABLE) on a file other processes
// may be opening at the same moment. Switching a fresh file to WAL and
// creating its tables can answer SQLITE_BUSY at once, without consulting the
// busy handler, to all but one of several processes racing on it (seen with
// twenty concurrent `diagnose --execute` under load); so those are retried
// with a short back-off until `timeout_ms`.
#ifndef SCHEDMATE_HISTORY_SQLITE_EXEC_H_
#define SCHEDMATE_HISTORY_SQLITE_EXEC_H_

#include <string>

#include "core/status.h"

struct sqlite3;

namespace schedmate {

// Unavailable("`what`: the error") when it fails for another reason or
// stays busy past the timeout.
Status ExecRetryingBusy(sqlite3* db, const char* sql, const std::string& what, int timeout_ms);

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_SQLITE_EXEC_H_

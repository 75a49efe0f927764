// The guard ledger (core/guard_ledger.h) in a SQLite file — by default the
// history file itself, in two tables of its own (guard_events, guard_audit),
// so the guards live where the history does. Each reservation is one
// `BEGIN IMMEDIATE` transaction (check, record, audit), committed with
// `synchronous=FULL`: concurrent processes serialise on the file lock and a
// granted reservation survives a crash or a power cut.
#ifndef SCHEDMATE_HISTORY_SQLITE_GUARD_LEDGER_H_
#define SCHEDMATE_HISTORY_SQLITE_GUARD_LEDGER_H_

#include <memory>
#include <string>

#include "core/guard_ledger.h"

namespace schedmate {

// Creates the file and the two tables when absent.
Result<std::unique_ptr<GuardLedger>> OpenSqliteGuardLedger(const std::string& path);

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_SQLITE_GUARD_LEDGER_H_

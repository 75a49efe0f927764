#include "service/audit_reader.h"

#include <filesystem>

#include "history/sqlite_guard_ledger.h"
#include "service/recent_jobs.h"

namespace schedmate {

Result<std::vector<Json>> AuditReader::Newest(size_t limit) {
  if (path_.empty()) return std::vector<Json>{};
  std::lock_guard<std::mutex> lock(mu_);
  if (!ledger_) {
    std::error_code ec;
    if (!std::filesystem::exists(path_, ec)) return std::vector<Json>{};
    ASSIGN_OR_RETURN(ledger_, OpenSqliteGuardLedger(path_));
  }
  ASSIGN_OR_RETURN(std::vector<Json> trail, ledger_->AuditTrail(limit));
  for (Json& record : trail) TruncateStrings(&record, RecentJobs::kMaxStringBytes);
  return trail;
}

}  // namespace schedmate

// The recovery audit trail for GET /v1/audit: the guard ledger's records in
// a SQLite file (by default the history file — where `schedmate agent slurm`
// and `diagnose --audit/--execute` write them; `schedmate audit` reads the
// same), newest last. Read-only in effect: a file that does not exist yet is
// an empty trail and is not created; an existing one is opened once (which
// creates the ledger's tables if they are missing, as every ledger user does).
// Thread safety: Newest is safe from any thread.
#ifndef SCHEDMATE_SERVICE_AUDIT_READER_H_
#define SCHEDMATE_SERVICE_AUDIT_READER_H_

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/guard_ledger.h"
#include "core/json.h"
#include "core/status.h"

namespace schedmate {

class AuditReader {
 public:
  // `path`: the ledger's SQLite file; "": no ledger (Redis history without
  // --ledger), every trail empty.
  explicit AuditReader(std::string path) : path_(std::move(path)) {}

  // The newest `limit` records, oldest first; every string cut at 2000 bytes.
  Result<std::vector<Json>> Newest(size_t limit);
  // "sqlite:<path>", or "" when there is no ledger.
  std::string Describe() const { return path_.empty() ? "" : "sqlite:" + path_; }

 private:
  const std::string path_;
  std::mutex mu_;
  std::unique_ptr<GuardLedger> ledger_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_AUDIT_READER_H_

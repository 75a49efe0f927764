// Where finished jobs are kept (DESIGN §4). Backends: SQLite (one file,
// WAL; the default) and Redis (several scheduler instances sharing one
// history). Writes are durable when Put returns OK: a process killed right
// after keeps the record, one killed during a write loses at most that one.
// An Import is all-or-nothing in SQLite and in atomic, checkpointed chunks in
// Redis (each backend's header says what it guarantees).
#ifndef SCHEDMATE_HISTORY_STORE_H_
#define SCHEDMATE_HISTORY_STORE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/status.h"
#include "history/record.h"

namespace schedmate {

struct ImportOptions {
  // Replace a stored record even when it completed later than the imported
  // one (by default the later run is kept and the older import skipped).
  bool force = false;
  // Names this import for a backend that commits it in parts (Redis): the
  // checkpoint is kept under this id, and a rerun with the same id resumes
  // after the last committed part. Empty: no checkpoint.
  std::string checkpoint_id;
};

struct ImportCounts {
  int64_t written = 0;        // inserted, or replaced an older (or same-time) run
  int64_t skipped_older = 0;  // the store holds a run of that job_id that completed later
  int64_t resumed_after = 0;  // records an interrupted earlier run had committed (skipped now)
};

// Calls `sink` with each record to import, in order, and returns the first
// error (its own or the sink's).
using RecordSink = std::function<Status(const HistoryRecord&)>;
using RecordSource = std::function<Status(const RecordSink& sink)>;

class HistoryStore {
 public:
  virtual ~HistoryStore() = default;
  virtual std::string Describe() const = 0;
  // Inserts or replaces the record with this job_id.
  virtual Status Put(const HistoryRecord& record) = 0;
  virtual Result<std::optional<HistoryRecord>> Get(const std::string& job_id) = 0;
  virtual Result<int64_t> Count() = 0;
  // Every record, in completion order (to rebuild the vector index).
  // Stops early and returns the callback's status when it is not OK.
  virtual Status ForEach(const std::function<Status(const HistoryRecord&)>& fn) = 0;
  // Writes what `source` yields; a record whose job_id is stored with a later
  // completed_at_s is skipped unless options.force. An error from the source
  // or the store ends the import: what it committed is the backend's to say.
  virtual Result<ImportCounts> Import(const RecordSource& source, const ImportOptions& options) = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_STORE_H_

// Where finished jobs are kept (DESIGN §4). Backends: SQLite (one file,
// WAL; the default) and Redis (several scheduler instances sharing one
// history). Writes are durable when Put returns OK: a process killed right
// after keeps the record, one killed during a write loses at most that one.
#ifndef SCHEDMATE_HISTORY_STORE_H_
#define SCHEDMATE_HISTORY_STORE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/status.h"
#include "history/record.h"

namespace schedmate {

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
};

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_STORE_H_

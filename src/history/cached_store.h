// A read cache in front of another history store: Put writes through and
// keeps the record; Get answers from memory when it can. For one process
// that is the store's only writer (a simulation, a scheduler instance with
// its own SQLite file) — another writer's later replacement of a cached id
// is not seen. At most `capacity` records are kept (oldest cached first out).
#ifndef SCHEDMATE_HISTORY_CACHED_STORE_H_
#define SCHEDMATE_HISTORY_CACHED_STORE_H_

#include <deque>
#include <string>
#include <unordered_map>

#include "history/store.h"

namespace schedmate {

class CachedHistoryStore final : public HistoryStore {
 public:
  CachedHistoryStore(HistoryStore& inner, size_t capacity) : inner_(inner), capacity_(capacity) {}
  std::string Describe() const override { return inner_.Describe() + " (read-cached)"; }
  Status Put(const HistoryRecord& record) override;
  Result<std::optional<HistoryRecord>> Get(const std::string& job_id) override;
  Result<int64_t> Count() override { return inner_.Count(); }
  Status ForEach(const std::function<Status(const HistoryRecord&)>& fn) override { return inner_.ForEach(fn); }
  // Forgets the cache: an import may replace any record.
  Result<ImportCounts> Import(const RecordSource& source, const ImportOptions& options) override;
  int64_t hits() const { return hits_; }

 private:
  void Keep(const HistoryRecord& r);
  HistoryStore& inner_;
  size_t capacity_;
  std::unordered_map<std::string, HistoryRecord> cache_;
  std::deque<std::string> order_;
  int64_t hits_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_HISTORY_CACHED_STORE_H_

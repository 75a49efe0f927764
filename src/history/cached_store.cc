#include "history/cached_store.h"

namespace schedmate {

void CachedHistoryStore::Keep(const HistoryRecord& r) {
  if (capacity_ == 0) return;
  auto [it, fresh] = cache_.insert_or_assign(r.job_id, r);
  if (!fresh) return;
  order_.push_back(r.job_id);
  while (cache_.size() > capacity_) {
    cache_.erase(order_.front());
    order_.pop_front();
  }
}

Status CachedHistoryStore::Put(const HistoryRecord& record) {
  RETURN_IF_ERROR(inner_.Put(record));
  Keep(record);
  return Status::Ok();
}

Result<std::optional<HistoryRecord>> CachedHistoryStore::Get(const std::string& job_id) {
  auto it = cache_.find(job_id);
  if (it != cache_.end()) {
    ++hits_;
    return std::optional<HistoryRecord>(it->second);
  }
  ASSIGN_OR_RETURN(std::optional<HistoryRecord> r, inner_.Get(job_id));
  if (r) Keep(*r);
  return r;
}

Result<ImportCounts> CachedHistoryStore::Import(const RecordSource& source, const ImportOptions& options) {
  cache_.clear();
  order_.clear();
  return inner_.Import(source, options);
}

}  // namespace schedmate

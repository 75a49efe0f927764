#include "advisor/advisor_history.h"

#include <nlohmann/json.hpp>

#include "core/facts_json.h"
#include "core/json.h"

namespace schedmate {

VectorIndexOptions AdvisorHistory::DefaultIndexOptions() {
  VectorIndexOptions o;
  o.dimension = kFingerprintDimension;
  return o;
}

AdvisorHistory::AdvisorHistory(HistoryStore& store, VectorIndexOptions index) : store_(&store), index_(index) {}

Result<AdvisorHistory> AdvisorHistory::Open(HistoryStore& store, VectorIndexOptions index) {
  AdvisorHistory h(store, index);
  ASSIGN_OR_RETURN(h.seen_count_, store.Count());
  ASSIGN_OR_RETURN(h.index_, VectorIndex::Rebuild(store, index));
  return h;
}

Result<bool> AdvisorHistory::RefreshIfOthersWrote() {
  ASSIGN_OR_RETURN(int64_t count, store_->Count());
  if (count == seen_count_) return false;
  ASSIGN_OR_RETURN(index_, VectorIndex::Rebuild(*store_, index_.options()));
  seen_count_ = count;
  return true;
}

DurationEstimate AdvisorHistory::Estimate(const WorkloadMetadata& md, int64_t as_of_s,
                                          const EstimateOptions& options) const {
  return EstimateFromHistory(md, index_, *store_, as_of_s, options);
}

Status AdvisorHistory::Record(HistoryRecord record, const WorkloadMetadata& md) {
  if (record.metadata_json.empty()) record.metadata_json = DumpJson(ToJson(md));
  if (record.fingerprint.empty()) record.fingerprint = Fingerprint(md);
  return Record(record);
}

Status AdvisorHistory::Record(const HistoryRecord& record) {
  const bool added = !index_.Contains(record.job_id);  // our own write is seen, not a reason to re-read the store
  RETURN_IF_ERROR(store_->Put(record));
  if (added && seen_count_ >= 0) ++seen_count_;
  return index_.Add(record.job_id, record.fingerprint, record.completed_at_s);
}

}  // namespace schedmate

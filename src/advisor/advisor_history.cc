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
  ASSIGN_OR_RETURN(h.index_, VectorIndex::Rebuild(store, index));
  return h;
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
  RETURN_IF_ERROR(store_->Put(record));
  return index_.Add(record.job_id, record.fingerprint, record.completed_at_s);
}

}  // namespace schedmate

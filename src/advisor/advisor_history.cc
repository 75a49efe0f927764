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
  RETURN_IF_ERROR(h.Reread());
  return h;
}

// The index and the parsed records, from one read of the store.
Status AdvisorHistory::Reread() {
  VectorIndex index(index_.options());
  std::unordered_map<std::string, MatchCandidate> candidates;
  RETURN_IF_ERROR(store_->ForEach([&](const HistoryRecord& r) -> Status {
    candidates.insert_or_assign(r.job_id, CandidateOf(r));
    if (static_cast<int>(r.fingerprint.size()) != index.options().dimension) return Status::Ok();  // other embedder
    return index.Add(r.job_id, r.fingerprint, r.completed_at_s);
  }));
  index_ = std::move(index);
  candidates_ = std::move(candidates);
  return Status::Ok();
}

Result<bool> AdvisorHistory::RefreshIfOthersWrote() {
  ASSIGN_OR_RETURN(int64_t count, store_->Count());
  if (count == seen_count_) return false;
  RETURN_IF_ERROR(Reread());
  seen_count_ = count;
  return true;
}

DurationEstimate AdvisorHistory::Estimate(const WorkloadMetadata& md, int64_t as_of_s,
                                          const EstimateOptions& options) const {
  return Estimate(PrepareQuery(md), as_of_s, options);
}

DurationEstimate AdvisorHistory::Estimate(const EstimateQuery& query, int64_t as_of_s,
                                          const EstimateOptions& options) const {
  MatchCandidate scratch;
  auto lookup = [&](const std::string& job_id) -> const MatchCandidate* {
    if (auto it = candidates_.find(job_id); it != candidates_.end()) return &it->second;
    auto r = store_->Get(job_id);  // indexed by another path: read as the store has it
    if (!r.ok() || !r->has_value()) return nullptr;
    scratch = CandidateOf(**r);
    return &scratch;
  };
  return EstimateFromHistory(query, index_, lookup, as_of_s, options);
}

Status AdvisorHistory::Record(HistoryRecord record, const WorkloadMetadata& md) {
  if (record.metadata_json.empty()) record.metadata_json = DumpJson(ToJson(md));
  if (record.fingerprint.empty()) record.fingerprint = Fingerprint(md);
  return Record(record);
}

Status AdvisorHistory::Record(const HistoryRecord& record, std::shared_ptr<const MetadataFacts> facts) {
  const bool added = !index_.Contains(record.job_id);  // our own write is seen, not a reason to re-read the store
  RETURN_IF_ERROR(store_->Put(record));
  if (added && seen_count_ >= 0) ++seen_count_;
  candidates_.insert_or_assign(record.job_id, CandidateOf(record, std::move(facts)));
  return index_.Add(record.job_id, record.fingerprint, record.completed_at_s);
}

}  // namespace schedmate

// The Advisor's one entry point to history: a store and its fingerprint
// index, read and written together — "estimate at submit, record at end".
// Every caller (advise, the Advisor evaluation, world calibration, the Lucid
// loop) goes through it, so a record is always indexed as it is stored and an
// estimate always sees exactly what was recorded before its submit time.
#ifndef SCHEDMATE_ADVISOR_ADVISOR_HISTORY_H_
#define SCHEDMATE_ADVISOR_ADVISOR_HISTORY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "advisor/advisor.h"
#include "core/facts.h"
#include "history/store.h"
#include "history/vector_index.h"

namespace schedmate {

class AdvisorHistory {
 public:
  // Over `store` (not owned; it must outlive this); the index starts empty.
  explicit AdvisorHistory(HistoryStore& store, VectorIndexOptions index = DefaultIndexOptions());
  // Over an existing store: its records are indexed first.
  static Result<AdvisorHistory> Open(HistoryStore& store, VectorIndexOptions index = DefaultIndexOptions());
  static VectorIndexOptions DefaultIndexOptions();

  // How long similar jobs that ended before `as_of_s` ran. Records this
  // history has seen (at Open, a refresh, or its own Record calls) are read
  // from memory, parsed once; any other the index names, from the store.
  DurationEstimate Estimate(const WorkloadMetadata& md, int64_t as_of_s, const EstimateOptions& options = {}) const;
  // The same, for a query prepared once (PrepareQuery) and asked often.
  DurationEstimate Estimate(const EstimateQuery& query, int64_t as_of_s, const EstimateOptions& options = {}) const;

  // Stores an ended job with its metadata (as JSON and as a fingerprint,
  // unless the record already carries them) and indexes it.
  Status Record(HistoryRecord record, const WorkloadMetadata& md);
  // Stores and indexes a record that already carries metadata_json and
  // fingerprint. `facts`, when given, must be FactsOfMetadataJson of its
  // metadata_json (a caller writing many records of one metadata parses it once).
  Status Record(const HistoryRecord& record, std::shared_ptr<const MetadataFacts> facts = nullptr);

  // Another writer (an agent, a service replica) may add records to a shared
  // store: when the store holds another number of records than this history
  // has seen — at Open and through its own Record calls — the index is
  // rebuilt from it (a whole read of the store). Returns whether it rebuilt.
  // A record another writer replaces (same id) is not seen until a rebuild.
  Result<bool> RefreshIfOthersWrote();

  HistoryStore& store() const { return *store_; }
  const VectorIndex& index() const { return index_; }

 private:
  Status Reread();

  HistoryStore* store_;
  VectorIndex index_;
  std::unordered_map<std::string, MatchCandidate> candidates_;  // by job_id, as stored
  int64_t seen_count_ = -1;  // the store's records as this history knows them; -1: unknown
};

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_ADVISOR_HISTORY_H_

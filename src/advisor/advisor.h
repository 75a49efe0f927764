// The Scheduling Advisor's answer for one job (DESIGN §1.1 steps 3–4):
// fingerprint the extracted metadata, retrieve similar finished jobs "as
// of" the job's submit time, and estimate its duration and utilisation from
// them — with the matched ids, scores and spread — or fall back.
//
// Fingerprint: a canonical rendering of the metadata (model, task, dataset,
// iterations, batch, GPUs, architecture, precision, framework, launcher —
// never the job name or output paths, so a renamed copy matches) embedded by
// the hashed n-gram embedder; model and dataset are repeated to weigh most.
// A match needs cosine >= min_score and, where both sides state them, the
// same model and dataset: a same-named project with another model or data is
// not the same workload. The estimate is the mean of the matches weighted by
// end reason (a failure says little about a normal duration; a timeout is a
// lower bound) and optional time decay; a match with another iteration
// budget of the same kind is scaled by the budget ratio. No match, or a
// spread above max_spread → `fallback`, and the caller keeps its own estimator.
//
// Near-empty metadata never matches, neither as the query nor as a stored
// record (issue 16 item 9): a binary or a trivial script renders only "one
// GPU, python, fp32", so every such job would match every other at score 1.0
// and one user's opaque job would set everyone's estimate. Metadata is
// informative when it states at least kMinInformativeFields of the fields that
// say what is trained — model, task, dataset, iteration budget, batch size,
// d_model, layers, parameters, sequence length — one of them the model or the
// dataset. How a job runs (GPUs, precision, framework, launcher) is the same
// for most scripts and does not count.
#ifndef SCHEDMATE_ADVISOR_ADVISOR_H_
#define SCHEDMATE_ADVISOR_ADVISOR_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/facts.h"
#include "core/json.h"
#include "history/record.h"
#include "history/store.h"
#include "history/vector_index.h"

namespace schedmate {

inline constexpr int kFingerprintDimension = 256;
inline constexpr int kMinInformativeFields = 2;

// Why `metadata` (WorkloadMetadata as JSON, core/facts_json.h) is too sparse
// to match, or "" when it is informative enough.
std::string SparseMetadataReason(const Json& metadata);

std::string CanonicalRendering(const WorkloadMetadata& md);
std::vector<float> Fingerprint(const WorkloadMetadata& md);

struct EstimateOptions {
  size_t k = 3;                 // SJF uses 3
  float min_score = 0.80f;
  // Only matches within this much of the best score are averaged: an
  // identical past run outweighs merely similar ones.
  float tie_margin = 0.02f;
  double max_spread = 1.0;      // (max − min) / mean of matched durations
  int64_t half_life_s = 0;      // time decay; 0 = off
};

// What an estimate reads of a stored record's metadata, parsed once (a
// simulation consults the same records tens of thousands of times):
// whether it is informative enough to match (SparseMetadataReason), its
// model and dataset normalised for the identity check, and its budget.
struct MetadataFacts {
  bool informative = false;
  std::optional<std::string> model, dataset;  // normalised; nullopt when not a string
  std::optional<double> iterations;           // when a number
  std::optional<std::string> iteration_type;  // when a string
};
// Of parsed metadata; of a HistoryRecord's metadata_json (empty, unparsable
// or not an object: not informative).
MetadataFacts FactsOfMetadata(const Json& metadata);
MetadataFacts FactsOfMetadataJson(const std::string& metadata_json);

// A stored record as an estimate reads it.
struct MatchCandidate {
  int64_t completed_at_s = 0, duration_s = 0;
  EndReason end_reason = EndReason::kUnknown;
  std::optional<double> sm_util, mem_util;
  std::shared_ptr<const MetadataFacts> facts;  // never null
};
// `facts`: FactsOfMetadataJson(r.metadata_json), when the caller has it.
MatchCandidate CandidateOf(const HistoryRecord& r, std::shared_ptr<const MetadataFacts> facts = nullptr);

// The querying side, derived once per metadata: its fingerprint and why it
// is too sparse to match ("" when it is not).
struct EstimateQuery {
  WorkloadMetadata md;
  std::vector<float> fingerprint;
  std::string sparse_reason;
};
EstimateQuery PrepareQuery(const WorkloadMetadata& md);

// The stored record of a hit; null when the history has none (skipped).
// The pointer is read before the next call.
using CandidateLookup = std::function<const MatchCandidate*(const std::string& job_id)>;

// `as_of_s`: the querying job's submit time; only records completed before it count.
DurationEstimate EstimateFromHistory(const WorkloadMetadata& md, const VectorIndex& index, HistoryStore& store,
                                     int64_t as_of_s, const EstimateOptions& options = {});
// The same answer, from a prepared query and records already read.
DurationEstimate EstimateFromHistory(const EstimateQuery& query, const VectorIndex& index,
                                     const CandidateLookup& lookup, int64_t as_of_s,
                                     const EstimateOptions& options = {});

// The weight of a record's duration by how the job ended.
double EndReasonWeight(EndReason r);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_ADVISOR_H_

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

// `as_of_s`: the querying job's submit time; only records completed before it count.
DurationEstimate EstimateFromHistory(const WorkloadMetadata& md, const VectorIndex& index, HistoryStore& store,
                                     int64_t as_of_s, const EstimateOptions& options = {});

// The weight of a record's duration by how the job ended.
double EndReasonWeight(EndReason r);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_ADVISOR_H_

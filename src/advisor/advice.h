// One advise answer — what `schedmate advise --json` prints and the service's
// POST /v1/advise returns: the metadata extracted from a repository and the
// duration estimate for it. Both callers go through here so the two answers
// cannot drift apart.
#ifndef SCHEDMATE_ADVISOR_ADVICE_H_
#define SCHEDMATE_ADVISOR_ADVICE_H_

#include <functional>
#include <string>

#include "advisor/llm_extractor.h"
#include "advisor/metadata_extractor.h"
#include "core/facts.h"
#include "core/json.h"
#include "core/status.h"

namespace schedmate {

struct AdviceBackend {
  BackendKind kind = BackendKind::kEmbedded;
  ChatClient* client = nullptr;  // not owned; required unless kind is embedded
  double cascade_threshold = 0;
};

// The extraction half. A failed extraction is not an error of the request:
// it is kept in `metadata`, and the estimate falls back naming it.
struct AdviceExtraction {
  Result<WorkloadMetadata> metadata = FailedPrecondition("not extracted");
  std::string snapshot;  // the snapshot's Describe()
  std::string backend;   // who answered ("embedded", "llm", …)
};

// Error only when the repository (a directory or PATH@REV) cannot be opened.
Result<AdviceExtraction> ExtractAdvice(const std::string& repo_spec, const std::string& command,
                                       const AdviceBackend& backend, const ExtractOptions& options = {});

// `estimate` runs only when the metadata was extracted; otherwise the
// answer is a fallback naming the extraction error.
using AdviceEstimator = std::function<DurationEstimate(const WorkloadMetadata&)>;
DurationEstimate EstimateAdvice(const AdviceExtraction& extraction, const AdviceEstimator& estimate);

// {metadata, estimate, latency_ms, snapshot, backend}.
Json AdviceJson(const AdviceExtraction& extraction, const DurationEstimate& estimate, double latency_ms);

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_ADVICE_H_

#include "advisor/advice.h"

#include <nlohmann/json.hpp>

#include "core/facts_json.h"
#include "repo/snapshot.h"

namespace schedmate {

Result<AdviceExtraction> ExtractAdvice(const std::string& repo_spec, const std::string& command,
                                       const AdviceBackend& backend, const ExtractOptions& options) {
  ASSIGN_OR_RETURN(auto snapshot, OpenSnapshot(repo_spec));
  AdviceExtraction x;
  x.metadata = ExtractWithBackend(*snapshot, command, backend.kind, backend.client, backend.cascade_threshold,
                                  &x.backend, options);
  x.snapshot = snapshot->Describe();
  return x;
}

DurationEstimate EstimateAdvice(const AdviceExtraction& extraction, const AdviceEstimator& estimate) {
  if (extraction.metadata.ok()) return estimate(*extraction.metadata);
  DurationEstimate fallback;
  fallback.fallback_reason = "metadata extraction failed: " + extraction.metadata.status().message();
  return fallback;
}

Json AdviceJson(const AdviceExtraction& extraction, const DurationEstimate& estimate, double latency_ms) {
  Json out;
  out["metadata"] = extraction.metadata.ok() ? ToJson(*extraction.metadata) : Json(nullptr);
  out["estimate"] = ToJson(estimate);
  out["latency_ms"] = latency_ms;
  out["snapshot"] = extraction.snapshot;
  out["backend"] = extraction.backend;
  return out;
}

}  // namespace schedmate

#include "policies/standalone/standalone.h"

namespace schedmate {

StandalonePolicy::StandalonePolicy(std::unique_ptr<Placer> placer, std::unique_ptr<DurationEstimator> fallback,
                                   DurationAdvice* advice, BackfillOptions backfill)
    : OrderedQueuePolicy(std::move(placer), std::move(fallback), backfill), advice_(advice) {}

OrderedQueuePolicy::Key StandalonePolicy::QueueKey(const SimJob& job, const SimState& state) {
  return {EstimateAtFirstSubmit(job, state), 0.0};
}

double StandalonePolicy::PolicyEstimate(const SimJob& job, const SimState& state) {
  return EstimateAtFirstSubmit(job, state);
}

double StandalonePolicy::EstimateAtFirstSubmit(const SimJob& job, const SimState& state) {
  if (auto it = estimates_.find(job.index.value); it != estimates_.end()) return it->second;
  std::optional<AdvisedDuration> advised = advice_ ? advice_->AtSubmit(job, state.Now()) : std::nullopt;
  ++(advised ? stats_.from_history : stats_.fallbacks);
  double estimate = advised ? advised->duration_s : Estimate(job, state);
  estimates_.emplace(job.index.value, estimate);
  if (advised) spreads_.emplace(job.index.value, advised->spread);
  return estimate;
}

double StandalonePolicy::PolicySpread(const SimJob& job) const {
  auto it = spreads_.find(job.index.value);
  return it == spreads_.end() ? 0.0 : it->second;
}

void StandalonePolicy::OnEnd(JobIndex job, const SimState& state) {
  OrderedQueuePolicy::OnEnd(job, state);  // the fallback estimator learns from every end
  const SimJob& j = state.Job(job);
  if (advice_ && j.phase == JobPhase::kDone) advice_->AtEnd(j, state.Now());
}

}  // namespace schedmate

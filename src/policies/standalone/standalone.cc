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
  if (auto it = estimates_.find(job.index.value); it != estimates_.end()) return it->second.duration_s;
  std::optional<AdvisedDuration> advised = advice_ ? advice_->AtSubmit(job, state.Now()) : std::nullopt;
  ++(advised ? stats_.from_history : stats_.fallbacks);
  AdvisedDuration e = advised ? *advised : AdvisedDuration{Estimate(job, state), 0.0};
  estimates_.emplace(job.index.value, e);
  return e.duration_s;
}

double StandalonePolicy::PolicySpread(const SimJob& job) const {
  auto it = estimates_.find(job.index.value);
  return it == estimates_.end() ? 0.0 : it->second.spread;
}

void StandalonePolicy::OnEnd(JobIndex job, const SimState& state) {
  OrderedQueuePolicy::OnEnd(job, state);  // the fallback estimator learns from every end
  const SimJob& j = state.Job(job);
  if (advice_ && j.phase == JobPhase::kDone) advice_->AtEnd(j, state.Now());
}

}  // namespace schedmate

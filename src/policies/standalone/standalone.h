// schedmate's standalone policy (issue 18): SJF ordered by the Advisor's
// duration estimate — the mean of the most similar history jobs that ended
// before the job's submit time — falling back to a trace-free estimator when
// history has no match. The estimate enters through DurationAdvice, so the
// policy knows nothing of repositories, fingerprints or stores (the
// Advisor-backed provider lives in integrations/standalone_advice.h).
// Non-preemptive, head-of-line blocking unless a backfill discipline is
// given, as the SJF it extends.
#ifndef SCHEDMATE_POLICIES_STANDALONE_STANDALONE_H_
#define SCHEDMATE_POLICIES_STANDALONE_STANDALONE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "policies/common/ordered_queue_policy.h"

namespace schedmate {

// An estimate from history: seconds, and the relative spread of the runs it
// came from ((longest − shortest) / mean; 0 when unknown).
struct AdvisedDuration {
  double duration_s = 0;
  double spread = 0;
};

// Where the standalone policy's estimates come from.
class DurationAdvice {
 public:
  virtual ~DurationAdvice() = default;
  // How long `job` is expected to run, from history as of `now` (its submit
  // time); nullopt = no usable match (the policy falls back). Must never
  // read the job's own duration.
  virtual std::optional<AdvisedDuration> AtSubmit(const SimJob& job, int64_t now) = 0;
  // `job` ended for good at `now` (completed, or failed and nobody runs it
  // again): history may record it. Not called for a failed attempt that
  // will run again.
  virtual void AtEnd(const SimJob& job, int64_t now) {}
};

struct StandaloneStats {
  int64_t from_history = 0;  // jobs ordered by the advice's estimate
  int64_t fallbacks = 0;     // jobs ordered by the fallback estimator
};

class StandalonePolicy final : public OrderedQueuePolicy {
 public:
  // REQUIRES: fallback != nullptr. `advice` (not owned; may be null = always
  // fall back) outlives this.
  StandalonePolicy(std::unique_ptr<Placer> placer, std::unique_ptr<DurationEstimator> fallback,
                   DurationAdvice* advice, BackfillOptions backfill = {});
  std::string_view Name() const override { return "standalone"; }
  void OnEnd(JobIndex job, const SimState& state) override;
  const StandaloneStats& stats() const { return stats_; }

 protected:
  Key QueueKey(const SimJob& job, const SimState& state) override;
  // The estimate the job is ordered by (advice or fallback).
  double PolicyEstimate(const SimJob& job, const SimState& state) override;
  double PolicySpread(const SimJob& job) const override;

 private:
  double EstimateAtFirstSubmit(const SimJob& job, const SimState& state);

  DurationAdvice* advice_;
  // A job requeued after a failure keeps the estimate it got at its first
  // submit: the Advisor is asked once per job, as in a live deployment.
  // The spread is 0 for a fallback estimate.
  std::unordered_map<int32_t, AdvisedDuration> estimates_;
  StandaloneStats stats_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_STANDALONE_STANDALONE_H_

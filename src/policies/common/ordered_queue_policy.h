// Shared machinery of the non-preemptive queue policies of the Lucid/Helios
// artifacts (FIFO, SJF, QSSF) and the standalone policy: one queue per VC
// ordered by a key fixed at submit time; at every scheduling instant the
// queue is walked in order under a backfill discipline (backfill.h). Strict
// (the default) places the head while it fits, and the first job that does
// not fit blocks everything behind it (head-of-line blocking); EASY and
// conservative let later jobs start around the waiting ones' reservations.
#ifndef SCHEDMATE_POLICIES_COMMON_ORDERED_QUEUE_POLICY_H_
#define SCHEDMATE_POLICIES_COMMON_ORDERED_QUEUE_POLICY_H_

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "policies/common/backfill.h"
#include "policies/estimators/duration_estimator.h"
#include "sim/placement.h"
#include "sim/policy.h"

namespace schedmate {

class OrderedQueuePolicy : public Policy {
 public:
  // `estimator` (may be null) learns from every job that ends. With
  // backfill estimate kAdvisor, a policy whose key uses no estimate (FIFO)
  // needs an estimator: the planner uses its answer.
  explicit OrderedQueuePolicy(std::unique_ptr<Placer> placer,
                              std::unique_ptr<DurationEstimator> estimator = nullptr,
                              BackfillOptions backfill = {})
      : placer_(std::move(placer)),
        estimator_(std::move(estimator)),
        backfill_(backfill),
        planning_(backfill) {}

  void OnArrival(JobIndex job, const SimState& state) override;
  void OnEnd(JobIndex job, const SimState& state) override;
  Status Schedule(VcIndex vc, const SimState& state,
                  SchedulingActions& actions) override;

  // Jobs started while an earlier job in queue order waited.
  int64_t backfilled() const { return backfilled_; }

 protected:
  // (primary, secondary) sort key of a newly submitted job; ties fall back
  // to submit order (trace order).
  using Key = std::pair<double, double>;
  virtual Key QueueKey(const SimJob& job, const SimState& state) = 0;
  // The policy's own duration estimate of a job just keyed (the planner's
  // kAdvisor source): by default what Estimate() answered for it while
  // keying, else the estimator's answer now, else NaN (no estimate).
  virtual double PolicyEstimate(const SimJob& job, const SimState& state);
  // The relative spread of the history runs PolicyEstimate came from (the
  // planner's kAdvisorSpread source); 0 when none is known.
  virtual double PolicySpread(const SimJob& job) const { return 0; }
  // The estimator's answer for a newly submitted job. REQUIRES: an estimator.
  double Estimate(const SimJob& job, const SimState& state) {
    double e = estimator_->Estimate(*job.spec, state.Now());
    last_estimate_ = {job.index.value, e};
    return e;
  }

 private:
  using Entry = std::tuple<double, double, int32_t>;
  // GPUs the VC's running jobs return, by their planned ends (empty when strict).
  std::vector<GpuRelease> PlannedReleases(VcIndex vc, const SimState& state) const;

  std::unique_ptr<Placer> placer_;
  std::unique_ptr<DurationEstimator> estimator_;
  BackfillOptions backfill_;
  BackfillEstimates planning_;
  std::vector<std::set<Entry>> queues_;     // by VC
  std::vector<std::set<int32_t>> running_;  // by VC: jobs this policy started
  std::pair<int32_t, double> last_estimate_{-1, std::numeric_limits<double>::quiet_NaN()};
  int64_t backfilled_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_COMMON_ORDERED_QUEUE_POLICY_H_

// Shared machinery of the non-preemptive queue policies of the Lucid/Helios
// artifacts (FIFO, SJF, QSSF): one queue per VC ordered by a key fixed at
// submit time; at every scheduling instant the head is placed while it
// fits, and the first job that does not fit blocks everything behind it
// (head-of-line blocking).
#ifndef SCHEDMATE_POLICIES_COMMON_ORDERED_QUEUE_POLICY_H_
#define SCHEDMATE_POLICIES_COMMON_ORDERED_QUEUE_POLICY_H_

#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "policies/estimators/duration_estimator.h"
#include "sim/placement.h"
#include "sim/policy.h"

namespace schedmate {

class OrderedQueuePolicy : public Policy {
 public:
  // `estimator` (may be null) learns from every job that ends.
  explicit OrderedQueuePolicy(std::unique_ptr<Placer> placer,
                              std::unique_ptr<DurationEstimator> estimator = nullptr)
      : placer_(std::move(placer)), estimator_(std::move(estimator)) {}

  void OnArrival(JobIndex job, const SimState& state) override;
  void OnEnd(JobIndex job, const SimState& state) override;
  Status Schedule(VcIndex vc, const SimState& state,
                  SchedulingActions& actions) override;

 protected:
  // (primary, secondary) sort key of a newly submitted job; ties fall back
  // to submit order (trace order).
  using Key = std::pair<double, double>;
  virtual Key QueueKey(const SimJob& job, const SimState& state) = 0;
  // The estimator's answer for a newly submitted job. REQUIRES: an estimator.
  double Estimate(const SimJob& job, const SimState& state) {
    return estimator_->Estimate(*job.spec, state.Now());
  }

 private:
  using Entry = std::tuple<double, double, int32_t>;
  std::unique_ptr<Placer> placer_;
  std::unique_ptr<DurationEstimator> estimator_;
  std::vector<std::set<Entry>> queues_;  // by VC
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_COMMON_ORDERED_QUEUE_POLICY_H_

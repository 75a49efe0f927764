// SJF: shortest estimated duration first, non-preemptive, head-of-line
// blocking (Lucid/Helios policy/sjf.py). The estimate comes from a pluggable
// DurationEstimator (oracle = the trace's duration, as in the artifacts).
#ifndef SCHEDMATE_POLICIES_SJF_SJF_H_
#define SCHEDMATE_POLICIES_SJF_SJF_H_

#include <memory>
#include <string>

#include "policies/common/ordered_queue_policy.h"
#include "policies/estimators/duration_estimator.h"

namespace schedmate {

class SjfPolicy final : public OrderedQueuePolicy {
 public:
  SjfPolicy(std::unique_ptr<Placer> placer,
            std::unique_ptr<DurationEstimator> estimator)
      : OrderedQueuePolicy(std::move(placer)), estimator_(std::move(estimator)) {}
  std::string_view Name() const override { return "sjf"; }
  void OnEnd(JobIndex job, const SimState& state) override;

 protected:
  Key QueueKey(const SimJob& job, const SimState& state) override {
    return {estimator_->Estimate(*job.spec, state.Now()), 0.0};
  }

 private:
  std::unique_ptr<DurationEstimator> estimator_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_SJF_SJF_H_

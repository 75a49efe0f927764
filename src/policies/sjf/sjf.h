// SJF: shortest estimated duration first, non-preemptive, head-of-line
// blocking (Lucid/Helios policy/sjf.py) unless a backfill discipline is set
// (../common/backfill.h). The estimate comes from a pluggable
// DurationEstimator (oracle = the trace's duration, as in the artifacts).
#ifndef SCHEDMATE_POLICIES_SJF_SJF_H_
#define SCHEDMATE_POLICIES_SJF_SJF_H_

#include <memory>

#include "policies/common/ordered_queue_policy.h"

namespace schedmate {

class SjfPolicy final : public OrderedQueuePolicy {
 public:
  // REQUIRES: estimator != nullptr.
  using OrderedQueuePolicy::OrderedQueuePolicy;
  std::string_view Name() const override { return "sjf"; }

 protected:
  Key QueueKey(const SimJob& job, const SimState& state) override {
    return {Estimate(job, state), 0.0};
  }
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_SJF_SJF_H_

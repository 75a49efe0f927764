// QSSF (Helios, SC'21, policies/qssf.py): quasi-shortest-service-first.
// Priority = estimated duration x GPUs (estimated GPU time), smaller first;
// ties by GPU count, then submit order. Non-preemptive, head-of-line
// blocking unless a backfill discipline is set (../common/backfill.h). Estimators: history by name/user (JobNameEstimator) for traces
// with names, or the Helios error model for traces without (Philly).
#ifndef SCHEDMATE_POLICIES_QSSF_QSSF_H_
#define SCHEDMATE_POLICIES_QSSF_QSSF_H_

#include <memory>

#include "policies/common/ordered_queue_policy.h"

namespace schedmate {

class QssfPolicy final : public OrderedQueuePolicy {
 public:
  // REQUIRES: estimator != nullptr.
  using OrderedQueuePolicy::OrderedQueuePolicy;
  std::string_view Name() const override { return "qssf"; }

 protected:
  Key QueueKey(const SimJob& job, const SimState& state) override {
    return {Estimate(job, state) * job.gpus, static_cast<double>(job.gpus)};
  }
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_QSSF_QSSF_H_

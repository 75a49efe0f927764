// QSSF (Helios, SC'21, policies/qssf.py): quasi-shortest-service-first.
// Priority = estimated duration x GPUs (estimated GPU time), smaller first;
// ties by GPU count, then submit order. Non-preemptive, head-of-line
// blocking. Estimators: history by name/user (HistoryEstimator) for traces
// with names, or the Helios error model for traces without (Philly).
#ifndef SCHEDMATE_POLICIES_QSSF_QSSF_H_
#define SCHEDMATE_POLICIES_QSSF_QSSF_H_

#include <memory>

#include "policies/common/ordered_queue_policy.h"
#include "policies/estimators/duration_estimator.h"

namespace schedmate {

class QssfPolicy final : public OrderedQueuePolicy {
 public:
  QssfPolicy(std::unique_ptr<Placer> placer,
             std::unique_ptr<DurationEstimator> estimator)
      : OrderedQueuePolicy(std::move(placer)), estimator_(std::move(estimator)) {}
  std::string_view Name() const override { return "qssf"; }
  void OnEnd(JobIndex job, const SimState& state) override {
    const SimJob& j = state.Job(job);
    estimator_->Observe(*j.spec, j.executed_s, j.finish_s);
  }

 protected:
  Key QueueKey(const SimJob& job, const SimState& state) override {
    return {estimator_->Estimate(*job.spec, state.Now()) * job.gpus,
            static_cast<double>(job.gpus)};
  }

 private:
  std::unique_ptr<DurationEstimator> estimator_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_QSSF_QSSF_H_

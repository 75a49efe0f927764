// FIFO: submit order, non-preemptive, head-of-line blocking
// (Lucid/Helios policy/fifo.py), or backfilling when configured
// (../common/backfill.h). See README.md.
#ifndef SCHEDMATE_POLICIES_FIFO_FIFO_H_
#define SCHEDMATE_POLICIES_FIFO_FIFO_H_

#include "policies/common/ordered_queue_policy.h"

namespace schedmate {

class FifoPolicy final : public OrderedQueuePolicy {
 public:
  using OrderedQueuePolicy::OrderedQueuePolicy;
  std::string_view Name() const override { return "fifo"; }

 protected:
  Key QueueKey(const SimJob& job, const SimState&) override {
    return {static_cast<double>(job.submit_s), 0.0};
  }
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_FIFO_FIFO_H_

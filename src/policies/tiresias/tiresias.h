// Tiresias (NSDI'19), discretized two-dimensional least-attained-service:
// a job's attained service is GPUs x seconds run; queue k holds jobs whose
// service lies between thresholds k-1 and k; lower queues go first, and
// within a queue jobs go in submit order (or queue-entry order). At each
// scheduling point, jobs are admitted in that order while the VC's GPU
// count lasts; running jobs left out are preempted (paying a restart
// overhead), pending jobs admitted are placed if the placer finds room
// (no head-of-line blocking). See README.md for the presets.
#ifndef SCHEDMATE_POLICIES_TIRESIAS_TIRESIAS_H_
#define SCHEDMATE_POLICIES_TIRESIAS_TIRESIAS_H_

#include <memory>
#include <string>
#include <vector>

#include "sim/placement.h"
#include "sim/policy.h"
#include "sim/restart_overhead.h"

namespace schedmate {

struct TiresiasParams {
  std::string preset = "custom";
  // Queue boundaries in GPU-seconds, ascending: n thresholds = n + 1 queues.
  std::vector<int64_t> thresholds_gpu_s;
  // 0 = event-driven (arrivals, ends and threshold crossings);
  // > 0 = only at multiples of this many seconds.
  int64_t period_s = 0;
  enum class Order { kSubmit, kQueueEntry } order = Order::kSubmit;
  // > 0: a pending job that has waited knob x its executed time since it
  // last ran is promoted to the top queue (Tiresias' starvation guard).
  double starvation_knob = 0;
  RestartOverhead overhead;
  std::string placement = "consolidate";

  Status Validate() const;
};

// "tiresias-original", "tiresias-lucid", "tiresias-pollux".
Result<TiresiasParams> TiresiasPreset(std::string_view name);

class TiresiasPolicy final : public Policy {
 public:
  TiresiasPolicy(TiresiasParams params, std::unique_ptr<Placer> placer);
  std::string_view Name() const override { return name_; }
  void OnArrival(JobIndex job, const SimState& state) override;
  void OnEnd(JobIndex job, const SimState& state) override;
  Status Schedule(VcIndex vc, const SimState& state,
                  SchedulingActions& actions) override;
  std::optional<int64_t> NextWakeup(VcIndex vc,
                                    const SimState& state) const override;

 private:
  struct Active {
    std::vector<int32_t> jobs;  // pending or running in this VC
    int32_t pending = 0;
  };
  int QueueOf(const SimJob& job, int64_t now) const;
  bool Promoted(const SimJob& job, int64_t now) const;

  TiresiasParams params_;
  std::string name_;
  std::unique_ptr<Placer> placer_;
  std::vector<Active> active_;            // by VC
  std::vector<int32_t> position_;         // job -> index in its active list
  std::vector<int64_t> queue_entry_s_;    // job -> when it entered its queue
  std::vector<int8_t> queue_of_;          // job -> queue at last look
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_TIRESIAS_TIRESIAS_H_

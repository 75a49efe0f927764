// The policy interface: events in, decisions out (after Batsim and the
// Kubernetes scheduler framework). The engine owns time, jobs and GPUs; a
// policy keeps its own queues, learns of events through the On* hooks, and
// acts only through SchedulingActions during Schedule().
#ifndef SCHEDMATE_SIM_POLICY_H_
#define SCHEDMATE_SIM_POLICY_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/ids.h"
#include "core/status.h"
#include "sim/cluster.h"
#include "sim/sim_job.h"

namespace schedmate {

// Read-only state a policy may inspect.
class SimState {
 public:
  virtual ~SimState() = default;
  virtual int64_t Now() const = 0;
  virtual const SimJob& Job(JobIndex j) const = 0;
  virtual const Cluster& cluster() const = 0;
};

// Decisions. Each is applied at once, so the next Place() sees its effect.
// Errors mean the policy asked for something impossible (a bug), never
// "cannot place yet" — that is the Placer returning nullopt.
class SchedulingActions {
 public:
  virtual ~SchedulingActions() = default;
  // REQUIRES: job pending; allocation fits the job's VC.
  virtual Status Start(JobIndex job, const Allocation& allocation) = 0;
  // Stops a running job; it becomes pending with `restart_overhead_s` added
  // to its remaining work (checkpoint + cold start).
  virtual Status Preempt(JobIndex job, int64_t restart_overhead_s) = 0;
  // Packs pending `guest` onto running `host`'s GPUs (Lucid): no GPUs are
  // taken; from now on the two progress at `guest_rate` / `host_rate` of
  // their speed alone. REQUIRES: host running without a partner, same VC
  // and GPU count; rates in (0, 1]. Preempt(guest, 0) is an eviction.
  virtual Status Pack(JobIndex guest, JobIndex host, double guest_rate, double host_rate) = 0;
  // Moves a pending job to another VC (e.g. Lucid's profiling cluster and
  // back). REQUIRES: pending; the VC can hold it.
  virtual Status MoveToVc(JobIndex job, VcIndex vc) = 0;
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view Name() const = 0;

  // A job was submitted (now pending). Called before Schedule() at that time.
  virtual void OnArrival(JobIndex job, const SimState& state) {}
  // A running job ended (completed, failed or cancelled per its trace state)
  // and released its GPUs.
  virtual void OnEnd(JobIndex job, const SimState& state) {}

  // Called once per instant for every VC where a job arrived or ended, or
  // whose wakeup fell due. All events of the instant are delivered first.
  virtual Status Schedule(VcIndex vc, const SimState& state,
                          SchedulingActions& actions) = 0;

  // The next time this VC needs Schedule() even if nothing happens (a
  // scheduling period, a queue-threshold crossing); nullopt = none.
  // Asked after every Schedule() of the VC.
  virtual std::optional<int64_t> NextWakeup(VcIndex vc,
                                            const SimState& state) const {
    return std::nullopt;
  }
};

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_POLICY_H_

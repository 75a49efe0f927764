// The event-driven simulator: integer seconds, deterministic (no clock, no
// randomness of its own, stable orders). At each instant it ends jobs whose
// time is up, admits arrivals, fires due wakeups, then asks the policy to
// schedule each VC that changed.
#ifndef SCHEDMATE_SIM_ENGINE_H_
#define SCHEDMATE_SIM_ENGINE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/job_spec.h"
#include "core/status.h"
#include "sim/cluster.h"
#include "sim/failure_book.h"
#include "sim/failures.h"
#include "sim/policy.h"
#include "sim/recovery_hook.h"
#include "sim/sim_job.h"

namespace schedmate {

struct SimProgress {
  int64_t now_s = 0;
  int64_t jobs_done = 0;
  int64_t jobs_total = 0;
  int64_t events = 0;
};

struct SimOptions {
  int64_t sample_period_s = 60;  // cluster time series resolution
  // Jobs naming a VC the cluster lacks: rejected (counted) or an error.
  bool unknown_vc_is_error = false;
  // Called about every 0.5 % of jobs finished.
  std::function<void(const SimProgress&)> on_progress;
  // Failures (failures.h); unset = none, and nothing about the run changes.
  std::optional<FailureParams> failures;
  // Decides what happens after each failure; null = no handler (the user
  // resubmits or gives up). Used only with `failures`.
  RecoveryHook* recovery = nullptr;
};

// One row of the cluster time series.
struct TimeSample {
  int64_t t = 0;
  int32_t busy_gpus = 0;
  int32_t running_jobs = 0;
  int32_t pending_jobs = 0;
  int32_t pending_gpus = 0;
};

struct SimResult {
  std::string policy;
  std::vector<SimJob> jobs;  // final state, in trace order
  std::vector<TimeSample> series;
  std::vector<std::string> vc_names;  // by VcIndex
  int64_t total_gpus = 0;
  int64_t events = 0;     // arrivals + ends + wakeups + decisions
  int64_t rejected = 0;
  int64_t packs = 0;      // Pack decisions
  FailureStats failures;  // all zero without SimOptions::failures
};

// Replays `trace` on a cluster built from `spec` under `policy`.
// The trace must outlive the result (jobs point at their JobSpec).
// Errors: bad spec, unknown durations, a policy decision that is impossible,
// or a policy that stalls with work left.
Result<SimResult> Simulate(const Trace& trace, const ClusterSpec& spec,
                           Policy& policy, const SimOptions& options = {});

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_ENGINE_H_

// The simulator's view of one job while it is replayed.
#ifndef SCHEDMATE_SIM_SIM_JOB_H_
#define SCHEDMATE_SIM_SIM_JOB_H_

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "core/ids.h"
#include "core/job_spec.h"
#include "sim/cluster.h"

namespace schedmate {

enum class JobPhase {
  kFuture,    // not submitted yet (or failed, awaiting resubmission)
  kPending,   // submitted, waiting for GPUs
  kRunning,
  kDone,
  kRejected,  // can never run here (see SimJob::reject_reason)
};

struct SimJob {
  const JobSpec* spec = nullptr;
  JobIndex index;
  VcIndex vc;
  int32_t gpus = 0;
  JobPhase phase = JobPhase::kFuture;
  int64_t submit_s = 0;
  // Work left, in seconds of running alone (incl. restart overheads), as of
  // segment_start_s; the job progresses at `rate` (1 alone, < 1 packed).
  int64_t remaining_s = 0;
  int64_t segment_start_s = -1;
  double rate = 1.0;
  // Packing: the job sharing this job's GPUs, if any. The guest rides on the
  // host's allocation; when either leaves, the other runs alone at rate 1
  // (and a guest whose host left owns the GPUs from then on).
  std::optional<JobIndex> partner;
  bool guest = false;
  int32_t packs = 0;           // times this job was packed onto another
  int64_t guest_since_s = -1;
  int64_t guest_s = 0;         // seconds run on another job's GPUs
  int64_t first_start_s = -1;
  int64_t last_start_s = -1;
  int64_t finish_s = -1;
  int64_t pending_since_s = -1;
  int64_t queued_s = 0;        // total time spent pending before last_start
  int64_t attained_gpu_s = 0;  // GPU-seconds of service before last_start
  int64_t executed_s = 0;      // seconds run before last_start
  int32_t preemptions = 0;
  int64_t overhead_s = 0;      // restart overhead added by preemptions
  int32_t failures = 0;        // failed attempts (SimOptions::failures)
  bool abandoned = false;      // failed, and nobody ran it again
  Allocation allocation;
  uint32_t generation = 0;     // bumps on every start/preempt
  std::string reject_reason;

  // GPU-seconds of service received up to `now` (Tiresias' 2D attained service).
  int64_t AttainedGpuSeconds(int64_t now) const {
    return attained_gpu_s +
           (phase == JobPhase::kRunning ? gpus * (now - last_start_s) : 0);
  }
  int64_t ExecutedSeconds(int64_t now) const {
    return executed_s + (phase == JobPhase::kRunning ? now - last_start_s : 0);
  }
  // When the job will finish if left running. REQUIRES: running.
  int64_t ExpectedEnd() const {
    return segment_start_s + static_cast<int64_t>(std::ceil(static_cast<double>(remaining_s) / rate - 1e-9));
  }
};

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_SIM_JOB_H_

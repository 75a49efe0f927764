// Lucid (Hu et al., ASPLOS'23): a non-intrusive scheduler that profiles
// each new job briefly on a small profiling cluster, orders the main queue
// by estimated duration × GPUs, and packs compatible jobs onto the same GPUs
// when the cluster is busy. Every constant and simplification is in
// policies/lucid/README.md. With LucidSemanticHooks it is Lucid + schedmate:
// history replaces the profile and the estimate on a match, the Tracker
// undoes harmful packs, finished jobs are written back.
#ifndef SCHEDMATE_POLICIES_LUCID_LUCID_H_
#define SCHEDMATE_POLICIES_LUCID_LUCID_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "policies/common/backfill.h"
#include "policies/lucid/lucid_inputs.h"
#include "policies/lucid/main_queue.h"
#include "policies/lucid/workload_estimator.h"
#include "sim/placement.h"
#include "sim/policy.h"

namespace schedmate {

struct LucidOptions {
  // Profiling: a VC of this name (absent = no profiling); jobs of up to
  // profile_gpu_limit GPUs run there for at most profile_time_limit_s,
  // least-GPU-first with head-of-line blocking. Jobs that end within the
  // limit finish there; the others re-enter the main cluster, their
  // profiling run not credited (as in the artifact).
  std::string profiler_vc = "lucid-profiler";
  int64_t profile_time_limit_s = 200;
  int32_t profile_gpu_limit = 8;
  bool credit_profiled_progress = false;
  // The paper's physical setting: a profiled job holds a whole profiler node
  // (at most one job per node at a time), whatever its GPU count.
  bool profile_whole_node = false;
  // Indolent packing: every packing_period_s, packing is on only when the
  // forecast submissions per forecast_window_s exceed packing_min_jobs.
  bool indolent_packing = true;
  int64_t packing_period_s = 100;
  int64_t forecast_window_s = 600;
  int forecast_windows = 3;  // forecast = mean of the last 3 windows
  double packing_min_jobs = 2;
  // Affine pairs.
  double gpu_memory_mib = 24576;  // RTX 3090, the artifact's constant
  double priority_factor = 2;     // guest priority <= 2 × host's
  int32_t max_pack_gpus = 8;
  double heavy_below = 0.85, medium_below = 0.95;  // avg paired speed → sharescore 2 / 1 / 0
  int64_t evict_overhead_s = 40;  // restart overhead of an evicted guest (Lucid's, <= 8 GPUs)
  // Lucid + schedmate: evict the guest when TP_after / TP_before < this.
  double undo_threshold = 0.5;
  int64_t retrain_period_s = 86400;
  WorkloadEstimatorOptions estimator;
  // The main queue's discipline while packing is off (with packing on,
  // Lucid already tries every queued job). Strict = the paper's head-of-line
  // blocking; the planner's kAdvisor source is Lucid's own estimate (the
  // workload estimator's, or history's for Lucid + schedmate).
  BackfillOptions backfill;
};

struct LucidStats {
  int64_t profiled = 0, finished_in_profiler = 0, history_hits = 0;
  int64_t skipped_profiler = 0;  // history hits that would have been profiled
  int64_t profiler_gpu_s = 0;  // GPU-seconds the profiling cluster was used
  int64_t packs = 0, pack_checks = 0, checks_skipped = 0, evictions = 0;
  int64_t retrains = 0;
  int64_t advice_wait_s = 0;   // total seconds jobs waited for the Advisor
  int64_t backfilled = 0;      // jobs started while an earlier one in the main queue waited
};

class LucidPolicy final : public Policy {
 public:
  // `model` is required and must outlive the policy; `hooks` may be null.
  LucidPolicy(LucidOptions options, const LucidWorkloadModel* model, LucidSemanticHooks* hooks = nullptr);

  std::string_view Name() const override { return hooks_ ? "lucid+schedmate" : "lucid"; }
  void OnArrival(JobIndex job, const SimState& state) override;
  void OnEnd(JobIndex job, const SimState& state) override;
  Status Schedule(VcIndex vc, const SimState& state, SchedulingActions& actions) override;
  std::optional<int64_t> NextWakeup(VcIndex vc, const SimState& state) const override;

  const LucidStats& stats() const { return stats_; }
  // Sharescore from an average paired speed.
  int Sharescore(double avg_pair_speed) const;
  // Whether packing is on at `now` (the forecast as of the last period start).
  bool PackingOn(int64_t now) const;

 private:
  enum class Stage { kNew, kAdvice, kProfileQueue, kProfiling, kMainQueue, kRunning, kDone };
  struct JobState {
    Stage stage = Stage::kNew;
    VcIndex home;
    JobProfile profile;
    int sharescore = 0;
    double estimate_s = 0, priority = 0;
    double spread = 0;  // of the history runs estimate_s came from (0: none)
    bool from_history = false, no_pack = false;
    int64_t profile_start = -1;
    int64_t start_seq = -1;  // position in run order (main cluster)
    int32_t partner = -1;
  };
  struct PackCheck {
    int64_t at;
    int32_t host, guest;
    int64_t packed_at;
  };

  JobState& S(JobIndex j) { return jobs_[static_cast<size_t>(j.value)]; }
  void Route(JobIndex j, const SimState& s, SchedulingActions& a, Status* st);
  void EnterMainQueue(JobIndex j, const SimState& s);
  LucidFeatures Features(const SimJob& j) const;
  Status ScheduleProfiler(VcIndex vc, const SimState& s, SchedulingActions& a);
  Status ScheduleMain(VcIndex vc, const SimState& s, SchedulingActions& a);
  Status RunPackChecks(const SimState& s, SchedulingActions& a);
  std::optional<JobIndex> PickHost(JobIndex guest, VcIndex vc, const SimState& s);
  bool OnDrainedNode(const SimJob& j, const SimState& s) const;
  bool IsProfiler(VcIndex vc, const SimState& s) const;
  // GPUs the main VC's running jobs return, by their planned ends (empty when strict).
  std::vector<GpuRelease> PlannedReleases(VcIndex vc, const SimState& s) const;

  LucidOptions o_;
  const LucidWorkloadModel* model_;
  LucidSemanticHooks* hooks_;
  ConsolidatePlacer placer_;
  WorkloadEstimator estimator_;
  std::vector<JobState> jobs_;
  std::vector<int64_t> arrivals_;                  // submit times, in order
  std::vector<int32_t> new_jobs_;                  // arrived, not yet routed
  std::vector<std::pair<int64_t, int32_t>> advice_;  // (ready_at, job)
  std::set<std::pair<int32_t, int32_t>> profile_queue_;  // (GPUs, job): least-GPU-first
  std::set<std::pair<int64_t, int32_t>> profiling_;      // (expiry, job)
  std::map<int32_t, LucidMainQueue> main_queue_;  // VC → its queue
  void Enqueue(JobIndex j, const SimState& s);
  // Candidate hosts: (VC, GPUs) → jobs running alone in the main cluster, in start order.
  std::map<std::pair<int32_t, int32_t>, std::set<std::pair<int64_t, int32_t>>> alone_;
  int64_t next_seq_ = 0;
  BackfillEstimates planning_;
  std::map<int32_t, std::set<int32_t>> on_main_;  // VC → jobs running there (hosts and guests)
  void MarkAlone(JobIndex j, const SimState& s);
  void MarkBusy(JobIndex j, const SimState& s);
  std::vector<PackCheck> checks_;
  int64_t next_retrain_ = 0;
  LucidStats stats_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_LUCID_LUCID_H_

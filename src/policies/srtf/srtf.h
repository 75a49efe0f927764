// SRTF (HeliosArtifact `framework/QSSF Service/policies/srtf.py`): preemptive
// shortest remaining time first. At every scheduling instant of a VC, its
// pending and running jobs are sorted by remaining time (ties: pending before
// running, each in the order it joined the artifact's que_list / run_list);
// jobs are admitted in that order while the VC's GPU count lasts (a job that
// does not fit the count left is skipped, no head-of-line blocking); running
// jobs left out are preempted (restart overhead added, Helios 7/30/60 s by
// default), then admitted pending jobs are placed — one the placer cannot fit
// stays pending. Remaining = the estimator's duration (oracle by default, as
// in the artifact) + overheads paid − seconds run. See README.md.
#ifndef SCHEDMATE_POLICIES_SRTF_SRTF_H_
#define SCHEDMATE_POLICIES_SRTF_SRTF_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "policies/estimators/duration_estimator.h"
#include "sim/placement.h"
#include "sim/policy.h"
#include "sim/restart_overhead.h"

namespace schedmate {

class SrtfPolicy final : public Policy {
 public:
  // REQUIRES: placer, estimator != nullptr.
  SrtfPolicy(std::unique_ptr<Placer> placer, std::unique_ptr<DurationEstimator> estimator,
             RestartOverhead overhead);
  std::string_view Name() const override { return "srtf"; }
  void OnArrival(JobIndex job, const SimState& state) override;
  void OnEnd(JobIndex job, const SimState& state) override;
  Status Schedule(VcIndex vc, const SimState& state, SchedulingActions& actions) override;

  // The remaining time SRTF orders `job` by at `now` (never below 0).
  double Remaining(const SimJob& job, int64_t now) const;

 private:
  struct PerJob {
    double estimate = 0;   // the estimator's duration, asked at first submit
    int64_t order = 0;     // position in the artifact's que_list / run_list
    int32_t position = -1; // index in its VC's active list, -1 = not active
    bool estimated = false;
  };
  PerJob& Of(JobIndex job);

  std::unique_ptr<Placer> placer_;
  std::unique_ptr<DurationEstimator> estimator_;
  RestartOverhead overhead_;
  std::vector<std::vector<int32_t>> active_;  // by VC: pending or running jobs
  std::vector<PerJob> jobs_;
  int64_t next_order_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_SRTF_SRTF_H_

// One Sia job: what it is (application, requested batch) and what it has
// learned (observed step times per GPU type → a fitted throughput model,
// gradient statistics), plus its true execution on its current placement
// (sia-simulator/job.py). The policy reads only the learned part.
#ifndef SCHEDMATE_POLICIES_SIA_SIA_JOB_H_
#define SCHEDMATE_POLICIES_SIA_SIA_JOB_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "policies/sia/app_model.h"
#include "policies/sia/goodput.h"
#include "policies/sia/perf_model.h"

namespace schedmate::sia {

// What a job knows about its throughput before it trains: observations per
// GPU type (index = cluster type order) and gradient statistics. Produced by
// Sia's 1-GPU bootstrap profile, or injected from a history of earlier runs.
struct PerfSeed {
  std::vector<std::vector<PerfObservation>> by_type;
  GradStats grad;
};

class SiaJob {
 public:
  // `apps[t]` is the application on cluster type t. REQUIRES: apps non-empty.
  SiaJob(std::string name, int64_t submit_s, int target_batch_size, std::vector<AppModel> apps,
         AppConstants constants);

  const std::string& name() const { return name_; }
  const std::string& app() const { return apps_.front().name(); }
  int64_t submit_s() const { return submit_s_; }
  const AppConstants& constants() const { return constants_; }
  const AppModel& app_on(int type) const { return apps_[type]; }
  int num_types() const { return static_cast<int>(apps_.size()); }

  // --- learned state, read by the policy ---
  // The goodput model on `type`, nullopt until the job has both gradient
  // statistics and at least one observation on that type.
  std::optional<GoodputModel> GoodputOn(int type) const;
  // The largest replica count observed on `type` (0 if none).
  int MaxObservedReplicas(int type) const;
  int target_batch_size() const { return target_batch_size_; }
  int num_restarts() const { return num_restarts_ < 0 ? 0 : num_restarts_; }
  // Every configuration the job knows on `type` (profiled, seeded or run),
  // keyed by (nodes, replicas, atomic batch).
  const std::map<std::tuple<int, int, int>, PerfObservation>& observations(int type) const { return observed_[type]; }
  bool restarting() const { return restart_left_s_ > 0; }

  // --- execution ---
  int type() const { return type_; }  // -1 when not running
  const Placement& placement() const { return placement_; }
  int gpus() const;
  bool done() const { return completion_s_ >= 0; }
  int64_t completion_s() const { return completion_s_; }
  int epoch() const { return epoch_; }
  double progress() const { return progress_; }
  double gpu_seconds() const { return attained_gpu_s_; }
  double restart_gpu_seconds() const { return wasted_gpu_s_; }
  int batch_size() const { return gpus() * atomic_bsz_ * (accum_steps_ + 1); }

  // Adds observations (and gradient statistics) as if measured; refits.
  void Seed(const PerfSeed& seed);
  // Moves the job to `placement` on `type` (empty = suspend). A new type or
  // a different placement shape starts the restart delay (job.py:524-580).
  void Reallocate(int type, const Placement& placement);
  // Runs the job for `seconds` from wall time `now_s` (job.py:414-522).
  void Step(int64_t now_s, int seconds);

 private:
  void Observe(int type, const PerfObservation& o);
  void ChooseBatch();
  int64_t TrainFor(int64_t now_s, int seconds);

  std::string name_;
  int64_t submit_s_;
  int target_batch_size_;
  std::vector<AppModel> apps_;
  AppConstants constants_;

  std::vector<std::map<std::tuple<int, int, int>, PerfObservation>> observed_;
  std::vector<std::optional<PerfParams>> perf_;
  std::optional<GradStats> grad_;

  int type_ = -1;
  Placement placement_;
  int atomic_bsz_ = 0, accum_steps_ = 0;
  int epoch_ = 0;
  double progress_ = 0;
  int64_t restart_left_s_ = 0;
  int num_restarts_ = -1;  // -1 until the first start
  int64_t completion_s_ = -1;
  double attained_gpu_s_ = 0, wasted_gpu_s_ = 0;
};

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_SIA_JOB_H_

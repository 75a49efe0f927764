// One application on one GPU type, as Sia's simulator executes it
// (sia-simulator/applications.py `Application`): step time by placement and
// per-GPU batch, gradient statistics and progress per epoch, batch limits.
// This is the *true* execution; the policy only sees what a job observes.
#ifndef SCHEDMATE_POLICIES_SIA_APP_MODEL_H_
#define SCHEDMATE_POLICIES_SIA_APP_MODEL_H_

#include <string>
#include <vector>

#include "core/status.h"
#include "policies/sia/sia_profile.h"

namespace schedmate::sia {

// Per-application constants of Sia's artifact (file:line in README.md).
struct AppConstants {
  int max_epochs = 0;         // Completion: the job ends after this many epochs.
  int restart_delay_s = 30;   // Checkpoint-restore time paid on every (re)start.
  int restart_penalty_s = 30; // The policy's estimate of that delay (restart factor).
  double slowdown = 1.0;      // Calibration: real runs are this much slower.
};

// NotFound for an application Sia's artifact does not define.
Result<AppConstants> LookupAppConstants(const std::string& app);

struct StepTime {
  double step_s = 0, sync_s = 0;
};

struct GradStats {
  double sqr = 0, var = 0;
};

// Nodes of a placement: GPUs used on each node, e.g. {4, 4}.
using Placement = std::vector<int>;

class AppModel {
 public:
  // InvalidArgument when the type has no 1-GPU measurements or the app no
  // validation files.
  static Result<AppModel> Create(const AppProfile& app, const std::string& gpu_type, int max_epochs);

  const std::string& name() const { return name_; }
  int init_batch_size() const { return validation_.front().first; }
  int max_batch_size() const { return validation_.back().first; }
  int min_local_bsz() const { return min_local_bsz_; }
  int max_local_bsz() const { return max_local_bsz_; }
  int max_epochs() const { return max_epochs_; }

  // Progress at the start of `epoch` (0 for epoch 0); the job completes at
  // ProgressAt(max_epochs()).
  double ProgressAt(int epoch) const;
  // Gradient statistics at a global batch during `epoch`, linear between the
  // two validated batch sizes around it (clamped to the validated range).
  GradStats GradAt(int batch_size, int epoch) const;
  // Measured step time for a placement (normalised to its smallest rotation)
  // at a per-GPU batch; interpolated as documented in README.md.
  StepTime StepTimeAt(const Placement& placement, int local_bsz) const;
  // The largest per-GPU batch that fits this placement (GPU memory).
  int MaxLocalBsz(const Placement& placement) const;
  // Largest per-GPU batch measured with this many replicas on any placement
  // (0 when none): the simulator's memory correction of the batch size.
  int MaxMeasuredLocalBszAt(int replicas) const;
  // Samples per second on one GPU at the largest measured batch: the basis of
  // the throughput ratio that bootstraps an unseen GPU type.
  double OneGpuThroughput() const;
  // All measured 1-GPU samples (what a bootstrap profile observes).
  std::vector<StepSample> OneGpuSamples() const;

 private:
  struct Point {
    int nodes, replicas;
    double bsz, step, sync;
  };
  StepTime Interpolate(int nodes, int replicas, int local_bsz) const;
  StepTime AlongBatch(const std::vector<Point>& rows, double bsz) const;
  StepTime AtNodes(int nodes, int replicas, double bsz) const;

  std::string name_;
  std::vector<StepSample> placements_, scalability_;
  std::vector<Point> grid_;  // placements averaged per (nodes, replicas, bsz) ∪ scalability
  std::vector<std::pair<int, std::vector<EpochStats>>> validation_;  // ascending batch
  int min_local_bsz_ = 0, max_local_bsz_ = 0, max_epochs_ = 0;
};

// The smallest rotation of a placement with empty nodes dropped, as a string
// of digits ("44"); the key of placements-*.csv.
std::string PlacementKey(const Placement& placement);

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_APP_MODEL_H_

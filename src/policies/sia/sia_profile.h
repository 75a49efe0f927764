// Plain data handed down to Sia by the layer that reads Sia's public
// profiles (../shared/traces/sia/profiles/<app>/): measured step times per
// GPU type and the per-epoch gradient statistics behind statistical
// efficiency. Policies never read files; cli/ fills these structs.
#ifndef SCHEDMATE_POLICIES_SIA_SIA_PROFILE_H_
#define SCHEDMATE_POLICIES_SIA_SIA_PROFILE_H_

#include <map>
#include <string>
#include <vector>

namespace schedmate::sia {

// One measured configuration: seconds per optimiser step (and the gradient
// all-reduce part of it) at a per-GPU batch on `nodes` nodes × `replicas`.
struct StepSample {
  int nodes = 1, replicas = 1, local_bsz = 1;
  double step_time_s = 0, sync_time_s = 0;
  std::string placement;  // "44" for placements-*.csv rows; empty for scalability rows.
};

struct GpuTypeProfile {
  std::vector<StepSample> placements;   // placements-<type>.csv
  std::vector<StepSample> scalability;  // scalability-<type>.csv
};

// validation-<bsz>.csv, one row per epoch.
struct EpochStats {
  double progress = 0;  // Cumulative progress (iterations at the initial batch size).
  double grad_sqr = 0, grad_var = 0;
};

struct AppProfile {
  std::string name;                                   // "cifar10"
  std::map<std::string, GpuTypeProfile> gpu_types;    // "aws", "rtx", "dgx-ext", ...
  std::map<int, std::vector<EpochStats>> validation;  // global batch size → epochs
};

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_SIA_PROFILE_H_

// Sia's measured step times per GPU type (SOSP'23 artifact, read from
// ../shared/traces/sia/profiles/<app>/placements-<type>.csv): for a per-GPU
// batch size and a placement (one digit per node: "44" = 2 nodes × 4 GPUs),
// the seconds per step and the gradient-sync part of it. The semantic world
// uses them for step time per GPU type and count (issue 6).
#ifndef SCHEDMATE_WORLD_SIA_PROFILES_H_
#define SCHEDMATE_WORLD_SIA_PROFILES_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct PlacementMeasure {
  int local_batch = 0;
  double step_time_s = 0, sync_time_s = 0;
  std::string placement;  // "44"
  int gpus = 0;           // sum of the digits
  int nodes = 0;          // number of digits
};

// Everything Sia's simulator reads for one application: step times per GPU
// type from placements-<type>.csv and scalability-<type>.csv, and per-epoch
// gradient statistics from validation-<bsz>.csv (issue 17).
struct SiaStepRow {
  int nodes = 1, replicas = 1, local_bsz = 0;
  double step_time_s = 0, sync_time_s = 0;
  std::string placement;  // empty for scalability rows
};
struct SiaEpochRow {
  double progress = 0, grad_sqr = 0, grad_var = 0;
};
struct SiaAppTables {
  std::map<std::string, std::vector<SiaStepRow>> placements, scalability;  // by GPU type
  std::map<int, std::vector<SiaEpochRow>> validation;                      // by global batch
};
// app → tables, for every <dir>/<app>/ with files of those three kinds.
// Errors name file, line and column.
Result<std::map<std::string, SiaAppTables>> LoadSiaAppTables(const std::string& dir);

class SiaProfiles {
 public:
  // Every placements-*.csv under <dir>/<app>/ (the suffix-less file is the
  // app's default GPU type, "default"). Errors name file, line and column.
  static Result<SiaProfiles> Load(const std::string& dir);

  std::vector<std::string> Apps() const;
  std::vector<std::string> GpuTypes(const std::string& app) const;
  // Seconds per step for `gpus` GPUs at per-GPU batch `local_batch`: the
  // measured placement with that many GPUs on the fewest nodes, at the
  // nearest measured batch size (linearly interpolated between the two
  // nearest). nullopt when the app, type or GPU count was never measured.
  std::optional<double> StepTime(const std::string& app, const std::string& gpu_type, int gpus,
                                 int local_batch) const;

 private:
  // app → gpu type → measures
  std::map<std::string, std::map<std::string, std::vector<PlacementMeasure>>> data_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_WORLD_SIA_PROFILES_H_

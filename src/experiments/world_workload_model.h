// The semantic world as Lucid's workload model: what Lucid's short profile
// measures for a mapped job, and how fast two mapped jobs really run when
// packed (the workload catalog: Lucid's pairwise measurements where both
// families were measured, else the utilisation model).
//
// The profile sees the job in its first minutes: data loading, compilation
// and warm-up make many jobs look lighter than they run (the paper's ViT
// example). The measured utilisation is the family's steady utilisation
// times a per-job warm-up factor drawn uniformly from
// [warmup_low, warmup_high] (named parameters; defaults 0.5 and 1.0, our
// assumption). Memory is measured right. History, by contrast, holds the
// steady-state utilisation of finished runs.
#ifndef SCHEDMATE_EXPERIMENTS_WORLD_WORKLOAD_MODEL_H_
#define SCHEDMATE_EXPERIMENTS_WORLD_WORKLOAD_MODEL_H_

#include <cstdint>

#include "policies/lucid/lucid_inputs.h"
#include "world/trace_mapping.h"
#include "world/workload_catalog.h"

namespace schedmate {

struct WarmupParams {
  double low = 0.5, high = 1.0;
  uint64_t seed = 1;
};

class WorldWorkloadModel final : public LucidWorkloadModel {
 public:
  // `world` is parallel to the trace the simulation replays; both outlive this.
  WorldWorkloadModel(const WorldMap& world, const WorkloadCatalog& catalog, WarmupParams warmup = {})
      : world_(world), catalog_(catalog), warmup_(warmup) {}
  JobProfile Profile(const SimJob& job) const override;
  std::pair<double, double> CoRunRates(const SimJob& guest, const SimJob& host) const override;
  // The steady-state profile (what a finished run's history shows).
  JobProfile SteadyProfile(const MappedJob& m) const;

 private:
  const WorldMap& world_;
  const WorkloadCatalog& catalog_;
  WarmupParams warmup_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_WORLD_WORKLOAD_MODEL_H_

#include "experiments/world_workload_model.h"

#include <algorithm>

#include "core/random.h"
#include "policies/lucid/synthetic_workload_model.h"

namespace schedmate {

JobProfile WorldWorkloadModel::SteadyProfile(const MappedJob& m) const {
  JobProfile p;
  if (const CatalogEntry* e = catalog_.Find(m.truth.family)) {
    p.sm_util = e->sm_util;
    p.gmem_mib = e->gmem_mib;
  }
  p.avg_pair_speed = AveragePairSpeed(p.sm_util);
  return p;
}

JobProfile WorldWorkloadModel::Profile(const SimJob& job) const {
  const MappedJob& m = world_.jobs[static_cast<size_t>(job.index.value)];
  JobProfile p = SteadyProfile(m);
  Rng rng(StableHash(job.spec->id) ^ warmup_.seed ^ 0x3a11u);
  p.sm_util *= rng.Uniform(warmup_.low, warmup_.high);
  p.avg_pair_speed = AveragePairSpeed(p.sm_util);
  return p;
}

std::pair<double, double> WorldWorkloadModel::CoRunRates(const SimJob& guest, const SimJob& host) const {
  auto [g, h] = catalog_.ColocationSpeed(world_.jobs[static_cast<size_t>(guest.index.value)].truth.family,
                                         world_.jobs[static_cast<size_t>(host.index.value)].truth.family);
  // Measured pairs can exceed 1 by measurement noise; packing never speeds a job up.
  return {std::clamp(g, 0.05, 1.0), std::clamp(h, 0.05, 1.0)};
}

}  // namespace schedmate

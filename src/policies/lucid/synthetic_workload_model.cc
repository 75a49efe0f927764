#include "policies/lucid/synthetic_workload_model.h"

#include <algorithm>

#include "core/random.h"

namespace schedmate {

std::pair<double, double> UtilisationPairSpeeds(double util_a, double util_b) {
  double demand = util_a + util_b;
  double speed = demand <= 1.0 ? 0.95 : std::max(0.05, 0.95 / demand);
  return {speed, speed};
}

double AveragePairSpeed(double util) {
  double sum = 0;
  int n = 0;
  for (double other = 0.2; other <= 0.951; other += 0.05, ++n) sum += UtilisationPairSpeeds(util, other).first;
  return sum / n;
}

JobProfile SyntheticWorkloadModel::Profile(const SimJob& job) const {
  Rng rng(StableHash(job.spec->id) ^ seed_);
  JobProfile p;
  p.sm_util = rng.Uniform(0.2, 0.95);
  p.gmem_mib = rng.Uniform(2000, 20000);
  p.avg_pair_speed = AveragePairSpeed(p.sm_util);
  return p;
}

std::pair<double, double> SyntheticWorkloadModel::CoRunRates(const SimJob& guest, const SimJob& host) const {
  return UtilisationPairSpeeds(Profile(guest).sm_util, Profile(host).sm_util);
}

}  // namespace schedmate

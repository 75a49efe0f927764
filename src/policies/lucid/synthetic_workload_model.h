// A stand-in LucidWorkloadModel for traces without a semantic world (and
// for tests): each job's utilisation and memory are drawn from its id
// (deterministic), its profile reads them exactly, and two packed jobs keep
// their share of the GPU under the utilisation model — 0.95 each when their
// utilisations sum to at most 1, else 0.95 / sum. The simulation with the
// semantic world uses the workload catalog's measured speeds instead.
#ifndef SCHEDMATE_POLICIES_LUCID_SYNTHETIC_WORKLOAD_MODEL_H_
#define SCHEDMATE_POLICIES_LUCID_SYNTHETIC_WORKLOAD_MODEL_H_

#include <cstdint>

#include "policies/lucid/lucid_inputs.h"

namespace schedmate {

// The utilisation model's speeds of two jobs sharing GPUs.
std::pair<double, double> UtilisationPairSpeeds(double util_a, double util_b);
// Average speed a job of this utilisation keeps against a uniform mix of
// partners of utilisation 0.2 … 0.95.
double AveragePairSpeed(double util);

class SyntheticWorkloadModel final : public LucidWorkloadModel {
 public:
  explicit SyntheticWorkloadModel(uint64_t seed = 1) : seed_(seed) {}
  JobProfile Profile(const SimJob& job) const override;
  std::pair<double, double> CoRunRates(const SimJob& guest, const SimJob& host) const override;

 private:
  uint64_t seed_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_LUCID_SYNTHETIC_WORKLOAD_MODEL_H_

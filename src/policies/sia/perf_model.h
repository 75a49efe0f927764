// Pollux's throughput model (OSDI'21; adaptdl goodput.py, copied into
// sia-simulator/goodput.py): step time from a compute term linear in the
// per-GPU batch and a network term that depends on whether the replicas span
// nodes, combined with an overlap exponent gamma; fitted online to the
// (placement, batch) → step time points a job has observed on one GPU type.
#ifndef SCHEDMATE_POLICIES_SIA_PERF_MODEL_H_
#define SCHEDMATE_POLICIES_SIA_PERF_MODEL_H_

#include <vector>

namespace schedmate::sia {

struct PerfParams {
  double alpha_c = 0, beta_c = 0;  // compute: alpha_c + beta_c * atomic_bsz
  double alpha_n = 0, beta_n = 0;  // inter-node network: alpha_n + beta_n * (replicas - 2)
  double alpha_r = 0, beta_r = 0;  // intra-node network: alpha_r + beta_r * (replicas - 2)
  double gamma = 1;                // overlap: step = (compute^g + network^g)^(1/g), g in [1, 10]
};

// One observed configuration (the fit's input).
struct PerfObservation {
  int nodes = 1, replicas = 1, atomic_bsz = 1;
  double step_s = 0, sync_s = 0;  // compute time = step_s - sync_s
};

double PredictComputeTime(const PerfParams& p, double atomic_bsz);
double PredictNetworkTime(const PerfParams& p, int nodes, int replicas);
// (compute^gamma + network^gamma)^(1/gamma).
double PredictStepTime(const PerfParams& p, double compute_s, double network_s);

// Pollux's fit objective (goodput.py:149-166) over z = (log alpha_c,
// log beta_c, log alpha_n, log beta_n, log alpha_r, log beta_r, gamma): RMS
// log error of compute time + RMS log error of step time + the priors
// 1e-3 (gamma - 1)^2 and 1e-2 ((beta_n / alpha_n)^2 + (beta_r / alpha_r)^2).
// Evaluates the exact gradient too, so the fit needs one evaluation per
// gradient instead of fourteen (central differences).
class PerfFitObjective {
 public:
  // REQUIRES: !obs.empty() and every step_s > sync_s >= 0.
  explicit PerfFitObjective(const std::vector<PerfObservation>& obs);
  // Writes the gradient into *grad (resized to 7) when grad is non-null.
  double operator()(const std::vector<double>& z, std::vector<double>* grad) const;

 private:
  // An observation as the objective reads it; the log targets are taken once.
  struct FitPoint {
    double atomic_bsz, network_x;  // network_x = max(replicas - 2, 1e-8)
    int link;                      // z index of the network alpha: 2 inter-node, 4 intra-node, -1 none
    double log_compute, log_step;
  };
  std::vector<FitPoint> points_;
};

// Fits the seven parameters by minimising RMS log error of compute and step
// time plus Pollux's two regularisers, inside Pollux's bounds, holding fixed
// the terms the observations cannot identify. REQUIRES: !obs.empty() and
// every step_s > sync_s >= 0.
PerfParams FitPerfParams(const std::vector<PerfObservation>& obs);

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_PERF_MODEL_H_

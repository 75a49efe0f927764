#include "policies/sia/goodput.h"

#include <algorithm>
#include <cmath>

namespace schedmate::sia {

double GoodputModel::Throughput(int nodes, int replicas, int atomic_bsz, int accum_steps) const {
  double compute = PredictComputeTime(perf_, atomic_bsz);
  double step = PredictStepTime(perf_, compute, PredictNetworkTime(perf_, nodes, replicas));
  double batch = double(replicas) * atomic_bsz * (accum_steps + 1);
  return batch / (accum_steps * compute + step);
}

double GoodputModel::Efficiency(double batch_size) const {
  double scale = batch_size / init_batch_size_;
  double denom = grad_.var / scale + grad_.sqr;
  double gain = denom > 0 ? (grad_.var + grad_.sqr) / denom : 1.0;
  return gain / scale;
}

BatchChoice GoodputModel::Optimize(int nodes, int replicas, const BatchLimits& limits) const {
  constexpr int kSamples = 50;  // np.geomspace default
  constexpr double kEps = 1e-8;
  double lo = std::max<double>(init_batch_size_, double(limits.min_atomic) * replicas);
  double hi = limits.max_batch_size;
  BatchChoice best;
  for (int k = 0; k < kSamples; ++k) {
    double batch = k == kSamples - 1 ? hi : std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * k / (kSamples - 1));
    double local = batch / replicas;
    int accum = static_cast<int>(std::ceil(local / limits.max_atomic - kEps)) - 1;
    // goodput.py:119-127: one replica above the initial batch accumulates at
    // least once, so gradient statistics have two micro-batches.
    if (replicas == 1 && local > init_batch_size_ + kEps) accum = std::max(accum, 1);
    accum = std::max(accum, 0);
    int atomic = static_cast<int>(std::ceil(local / (accum + 1) - kEps));
    if (atomic < limits.min_atomic || atomic > limits.max_atomic) continue;
    double total = double(replicas) * atomic * (accum + 1);
    double g = Throughput(nodes, replicas, atomic, accum) * Efficiency(total);
    if (g > best.goodput) best = {g, atomic, accum};
  }
  return best;
}

}  // namespace schedmate::sia

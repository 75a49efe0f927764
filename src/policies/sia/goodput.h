// Pollux's goodput = throughput × statistical efficiency, and the search
// over total batch sizes that picks the best (per-GPU batch, accumulation
// steps) for a GPU count (sia-simulator/goodput.py GoodputFunction).
#ifndef SCHEDMATE_POLICIES_SIA_GOODPUT_H_
#define SCHEDMATE_POLICIES_SIA_GOODPUT_H_

#include "policies/sia/app_model.h"
#include "policies/sia/perf_model.h"

namespace schedmate::sia {

struct BatchChoice {
  double goodput = 0;  // 0 when no batch size in range is valid
  int atomic_bsz = 0, accum_steps = 0;
};

struct BatchLimits {
  int max_batch_size = 0;            // largest total batch tried
  int min_atomic = 1, max_atomic = 1;  // per-GPU batch range (memory)
};

class GoodputModel {
 public:
  GoodputModel(const PerfParams& perf, const GradStats& grad, int init_batch_size)
      : perf_(perf), grad_(grad), init_batch_size_(init_batch_size) {}

  // Samples per second.
  double Throughput(int nodes, int replicas, int atomic_bsz, int accum_steps) const;
  // Progress per sample relative to the initial batch size (gradient noise scale).
  double Efficiency(double batch_size) const;
  // Best goodput over 50 geometrically spaced total batch sizes from
  // max(init batch, min_atomic × replicas) to limits.max_batch_size, with
  // gradient accumulation when the per-GPU batch exceeds max_atomic.
  BatchChoice Optimize(int nodes, int replicas, const BatchLimits& limits) const;

 private:
  PerfParams perf_;
  GradStats grad_;
  int init_batch_size_;
};

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_GOODPUT_H_

// The public workload measurements of the Lucid artifact (ASPLOS'23), the
// ground the semantic world's workload catalog stands on (issue 6):
//  - single_data.csv: each workload alone — speed, GPU utilisation, GPU
//    memory utilisation, memory (MiB) and Lucid's sharing label;
//  - colocate_info.csv: two workloads sharing GPUs — each one's speed
//    relative to running alone, and the shared utilisation and memory.
// Read from ../shared/traces/lucid (never copied into the tree).
#ifndef SCHEDMATE_WORLD_LUCID_MEASUREMENTS_H_
#define SCHEDMATE_WORLD_LUCID_MEASUREMENTS_H_

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct WorkloadKey {
  std::string model, dataset;
  int batch_size = 0;
  bool amp = false;
  auto Tie() const { return std::tie(model, dataset, batch_size, amp); }
  bool operator<(const WorkloadKey& o) const { return Tie() < o.Tie(); }
  bool operator==(const WorkloadKey& o) const { return Tie() == o.Tie(); }
};

struct SoloMeasure {
  WorkloadKey key;
  double speed = 0;      // as measured (iterations or samples per second)
  double gpu_util = 0;   // percent
  double gmem_util = 0;  // percent
  double gmem_mib = 0;
  int label = 0;         // Lucid's sharing label (0 light … 2 heavy)
};

struct PairMeasure {
  WorkloadKey a, b;
  int gpus_a = 1, gpus_b = 1;
  double speed_a = 1, speed_b = 1;  // each relative to running alone
  double gpu_util = 0, gmem_util = 0, gmem_mib = 0;
};

class LucidMeasurements {
 public:
  // Errors name file, line and column.
  static Result<LucidMeasurements> Load(const std::string& dir);

  const std::vector<SoloMeasure>& solo() const { return solo_; }
  const std::vector<PairMeasure>& pairs() const { return pairs_; }
  const SoloMeasure* Solo(const WorkloadKey& k) const;
  // Relative speeds (of `a`, of `b`) when a and b share GPUs; the mean over
  // GPU counts when measured more than once. nullopt when never measured.
  std::optional<std::pair<double, double>> PairSpeed(const WorkloadKey& a, const WorkloadKey& b) const;
  // Mean relative speed of `a` over every partner it was measured with
  // (Lucid's sharescore input); nullopt when never co-located.
  std::optional<double> AveragePairedSpeed(const WorkloadKey& a) const;

 private:
  std::vector<SoloMeasure> solo_;
  std::vector<PairMeasure> pairs_;
  std::map<WorkloadKey, size_t> solo_index_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_WORLD_LUCID_MEASUREMENTS_H_

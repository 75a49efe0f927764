// Where a job's GPUs go. Placement is separate from policy: a policy decides
// *which* job runs, a Placer decides *on which GPUs*.
#ifndef SCHEDMATE_SIM_PLACEMENT_H_
#define SCHEDMATE_SIM_PLACEMENT_H_

#include <memory>
#include <optional>
#include <string_view>

#include "core/status.h"
#include "sim/cluster.h"

namespace schedmate {

class Placer {
 public:
  virtual ~Placer() = default;
  virtual std::string_view Name() const = 0;
  // An allocation of `gpus` GPUs in `vc`, or nullopt when none fits now.
  // Never modifies the cluster.
  virtual std::optional<Allocation> Place(const Cluster& cluster, VcIndex vc,
                                          int32_t gpus) const = 0;
};

// Lucid/Helios "consolidate" (policy/placer/consolidate.py), exactly:
//  - gpus <= G (GPUs per node): among nodes with free GPUs, sorted by free
//    count ascending (stable: ties by node order), the first that fits.
//  - gpus > G, a multiple of G: the first gpus/G entirely free nodes.
//  - gpus > G otherwise: gpus/G entirely free nodes, then the next node in
//    descending-free order must hold the remainder.
// The artifact requires G == 8; here G is the cluster's.
class ConsolidatePlacer final : public Placer {
 public:
  std::string_view Name() const override { return "consolidate"; }
  std::optional<Allocation> Place(const Cluster& cluster, VcIndex vc,
                                  int32_t gpus) const override;
};

// Count-only (Tiresias' original simulator setting): fits whenever the VC
// has enough free GPUs in total; takes them node by node in node order.
class CountPlacer final : public Placer {
 public:
  std::string_view Name() const override { return "count"; }
  std::optional<Allocation> Place(const Cluster& cluster, VcIndex vc,
                                  int32_t gpus) const override;
};

Result<std::unique_ptr<Placer>> MakePlacer(std::string_view name);

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_PLACEMENT_H_

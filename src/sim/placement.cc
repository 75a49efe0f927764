#include "sim/placement.h"

namespace schedmate {

std::optional<Allocation> ConsolidatePlacer::Place(const Cluster& c,
                                                   VcIndex vc,
                                                   int32_t gpus) const {
  if (gpus < 1 || c.VcFreeGpus(vc) < gpus) return std::nullopt;
  const int32_t g = c.gpus_per_node();
  const int32_t first = c.FirstNode(vc).value;
  const int32_t end = first + c.NumNodes(vc);
  Allocation a;
  if (gpus <= g) {
    // Best fit: smallest free count that fits; lowest index on ties.
    int32_t best = -1;
    for (int32_t n = first; n < end; ++n) {
      int32_t f = c.FreeGpus(NodeIndex(n));
      if (f >= gpus && (best < 0 || f < c.FreeGpus(NodeIndex(best)))) best = n;
    }
    if (best < 0) return std::nullopt;
    a.parts.emplace_back(NodeIndex(best), gpus);
    return a;
  }
  // Descending stable order puts every entirely free node first, by index.
  int32_t whole = gpus / g, rem = gpus % g;
  for (int32_t n = first; n < end && whole > 0; ++n) {
    if (c.FreeGpus(NodeIndex(n)) == g) {
      a.parts.emplace_back(NodeIndex(n), g);
      --whole;
    }
  }
  if (whole > 0) return std::nullopt;
  if (rem == 0) return a;
  // The next node in descending-free order: another entirely free node if
  // one is left, else the partially free node with the most free GPUs.
  int32_t next = -1;
  for (int32_t n = first; n < end; ++n) {
    int32_t f = c.FreeGpus(NodeIndex(n));
    if (f == 0) continue;
    bool taken = false;
    for (const auto& p : a.parts) taken = taken || p.first.value == n;
    if (taken) continue;
    if (next < 0 || f > c.FreeGpus(NodeIndex(next))) next = n;
  }
  if (next < 0 || c.FreeGpus(NodeIndex(next)) < rem) return std::nullopt;
  a.parts.emplace_back(NodeIndex(next), rem);
  return a;
}

std::optional<Allocation> CountPlacer::Place(const Cluster& c, VcIndex vc,
                                             int32_t gpus) const {
  if (gpus < 1 || c.VcFreeGpus(vc) < gpus) return std::nullopt;
  Allocation a;
  int32_t need = gpus;
  const int32_t first = c.FirstNode(vc).value;
  for (int32_t n = first; need > 0 && n < first + c.NumNodes(vc); ++n) {
    int32_t take = std::min(need, c.FreeGpus(NodeIndex(n)));
    if (take > 0) {
      a.parts.emplace_back(NodeIndex(n), take);
      need -= take;
    }
  }
  return a;
}

Result<std::unique_ptr<Placer>> MakePlacer(std::string_view name) {
  if (name == "consolidate") return std::unique_ptr<Placer>(new ConsolidatePlacer);
  if (name == "count") return std::unique_ptr<Placer>(new CountPlacer);
  return InvalidArgument("unknown placement '" + std::string(name) +
                         "' (consolidate, count)");
}

}  // namespace schedmate

#include "integrations/sia_throughputs.h"

#include <algorithm>
#include <map>

namespace schedmate {
namespace {

int PackedNodes(int replicas, const sia::GpuTypeSpec& type) {
  return (replicas + type.gpus_per_node - 1) / type.gpus_per_node;
}

int TypeIndex(const sia::SiaCluster& c, const std::string& name) {
  for (size_t t = 0; t < c.types.size(); ++t)
    if (c.types[t].name == name) return static_cast<int>(t);
  return -1;
}

// 1-GPU step time by per-GPU batch on one type, interpolated linearly,
// clamped to the measured range.
class OneGpuStepTime {
 public:
  void Add(int bsz, double step_s) { by_bsz_[bsz] = step_s; }
  std::optional<double> At(int bsz) const {
    if (by_bsz_.empty()) return std::nullopt;
    auto hi = by_bsz_.lower_bound(bsz);
    if (hi == by_bsz_.end()) return std::prev(hi)->second;
    if (hi->first == bsz || hi == by_bsz_.begin()) return hi->second;
    auto lo = std::prev(hi);
    double f = double(bsz - lo->first) / double(hi->first - lo->first);
    return lo->second + f * (hi->second - lo->second);
  }

 private:
  std::map<int, double> by_bsz_;
};

sia::PerfObservation ObservationOf(const ConfigThroughput& r, const sia::GpuTypeSpec& type,
                                   const OneGpuStepTime& compute) {
  sia::PerfObservation o;
  o.replicas = r.num_gpus;
  o.nodes = PackedNodes(r.num_gpus, type);
  o.atomic_bsz = static_cast<int>(r.batch_size / r.num_gpus);
  o.step_s = double(r.batch_size) / r.throughput;
  if (r.num_gpus > 1) o.sync_s = std::clamp(o.step_s - compute.At(o.atomic_bsz).value_or(o.step_s), 0.0, o.step_s);
  return o;
}

bool Usable(const ConfigThroughput& r) { return r.num_gpus > 0 && r.batch_size >= r.num_gpus && r.throughput > 0; }

}  // namespace

std::vector<ConfigThroughput> ConfigThroughputsOf(const sia::SiaJob& job, const sia::SiaCluster& cluster) {
  std::vector<ConfigThroughput> rows;
  for (int t = 0; t < job.num_types() && t < static_cast<int>(cluster.types.size()); ++t) {
    for (const auto& [key, o] : job.observations(t)) {
      if (o.nodes != PackedNodes(o.replicas, cluster.types[t]) || o.step_s <= 0) continue;
      const int64_t batch = int64_t{o.replicas} * o.atomic_bsz;
      rows.push_back({cluster.types[t].name, o.replicas, batch, double(batch) / o.step_s});
    }
  }
  return rows;
}

std::optional<sia::PerfSeed> SeedFromThroughputs(const std::vector<ConfigThroughput>& rows,
                                                 const sia::SiaCluster& cluster, sia::GradStats grad) {
  std::vector<OneGpuStepTime> compute(cluster.types.size());
  for (const auto& r : rows)
    if (int t = TypeIndex(cluster, r.gpu_type); t >= 0 && Usable(r) && r.num_gpus == 1)
      compute[t].Add(static_cast<int>(r.batch_size), double(r.batch_size) / r.throughput);
  sia::PerfSeed seed;
  seed.by_type.resize(cluster.types.size());
  seed.grad = grad;
  bool any = false;
  for (const auto& r : rows) {
    int t = TypeIndex(cluster, r.gpu_type);
    if (t < 0 || !Usable(r)) continue;
    seed.by_type[t].push_back(ObservationOf(r, cluster.types[t], compute[t]));
    any = true;
  }
  if (!any) return std::nullopt;
  return seed;
}

}  // namespace schedmate

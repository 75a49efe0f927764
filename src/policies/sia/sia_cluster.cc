#include "policies/sia/sia_cluster.h"

#include <algorithm>
#include <map>

namespace schedmate::sia {

namespace {
constexpr int kMaxJobGpus = 64;  // cluster.py:377 "simulator can't handle more"
}  // namespace

int SiaCluster::TotalGpus() const {
  int n = 0;
  for (size_t t = 0; t < types.size(); ++t) n += TypeGpus(static_cast<int>(t));
  return n;
}

int DefaultMaxJobNodes(const std::string& type, int nodes) {
  // simulator_config.py: cluster_max_physical_nnodes.
  static const std::map<std::string, int> kMax = {{"azure", 5}, {"aws", 16}, {"dgx", 2},
                                                  {"dgx-ext", 2}, {"quad", 1}, {"rtx", 3}};
  auto it = kMax.find(type);
  return it == kMax.end() ? nodes : it->second;
}

SiaCluster DefaultSiaCluster() {
  SiaCluster c;
  for (auto [name, nodes, per_node] : {std::tuple{"aws", 6, 4}, {"dgx-ext", 2, 8}, {"rtx", 3, 8}})
    c.types.push_back({name, nodes, per_node, DefaultMaxJobNodes(name, nodes)});
  return c;
}

SiaCluster ScaleCluster(SiaCluster c, int factor) {
  for (auto& t : c.types) t.nodes *= factor;
  return c;
}

Status ValidateCluster(const SiaCluster& c) {
  if (c.types.empty()) return InvalidArgument("sia cluster: no GPU types");
  for (const auto& t : c.types)
    if (t.nodes <= 0 || t.gpus_per_node <= 0 || t.max_job_nodes <= 0)
      return InvalidArgument("sia cluster: type '" + t.name + "': nodes, gpus_per_node and max_job_nodes must be positive");
  return Status::Ok();
}

std::vector<AllocOption> AllocationOptions(const SiaCluster& c) {
  std::vector<AllocOption> out;
  for (size_t t = 0; t < c.types.size(); ++t) {
    const GpuTypeSpec& s = c.types[t];
    int type = static_cast<int>(t);
    for (int g = 1; g < s.gpus_per_node && g <= kMaxJobGpus; g *= 2) out.push_back({type, 1, g});
    int max_nodes = std::min(s.nodes, s.max_job_nodes);
    for (int n = 1; n <= max_nodes && n * s.gpus_per_node <= kMaxJobGpus; ++n)
      out.push_back({type, n, n * s.gpus_per_node});
  }
  return out;
}

}  // namespace schedmate::sia

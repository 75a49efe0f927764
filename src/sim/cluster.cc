#include "sim/cluster.h"

#include <algorithm>
#include <set>

namespace schedmate {

int64_t ClusterSpec::TotalGpus() const {
  int64_t n = 0;
  for (const auto& vc : vcs) n += static_cast<int64_t>(vc.nodes) * gpus_per_node;
  return n;
}

Status ClusterSpec::Validate() const {
  if (vcs.empty()) return InvalidArgument("cluster has no virtual clusters");
  if (gpus_per_node < 1 || gpus_per_node > 1024)
    return InvalidArgument("gpus_per_node must be 1..1024");
  std::set<std::string> names;
  int64_t nodes = 0;
  for (const auto& vc : vcs) {
    if (vc.nodes < 1) return InvalidArgument("VC '" + vc.name + "' has no nodes");
    if (vc.reserved_gpus < 0 || vc.reserved_gpus >= vc.nodes * gpus_per_node)
      return InvalidArgument("VC '" + vc.name + "' reserves " + std::to_string(vc.reserved_gpus) +
                             " GPUs: must be 0 up to fewer than it has");
    if (!names.insert(vc.name).second)
      return InvalidArgument("VC '" + vc.name + "' listed twice");
    nodes += vc.nodes;
  }
  if (nodes > 1'000'000) return InvalidArgument("more than 1,000,000 nodes");
  return Status::Ok();
}

int32_t Allocation::Total() const {
  int32_t n = 0;
  for (const auto& p : parts) n += p.second;
  return n;
}

Cluster::Cluster(ClusterSpec spec) : spec_(std::move(spec)) {
  int32_t node = 0;
  for (const auto& vc : spec_.vcs) {
    first_node_.push_back(node);
    node += vc.nodes;
    vc_free_.push_back(vc.nodes * spec_.gpus_per_node);
  }
  node_free_.assign(node, spec_.gpus_per_node);
  total_gpus_ = static_cast<int64_t>(node) * spec_.gpus_per_node;
  for (size_t v = 0; v < spec_.vcs.size(); ++v) {
    int32_t left = spec_.vcs[v].reserved_gpus;
    vc_free_[v] -= left;
    busy_gpus_ += left;
    for (int32_t n = first_node_[v] + spec_.vcs[v].nodes - 1; left > 0 && n >= first_node_[v]; --n) {
      int32_t take = std::min(left, node_free_[n]);
      node_free_[n] -= take;
      left -= take;
    }
  }
}

std::optional<VcIndex> Cluster::FindVc(std::string_view name) const {
  if (spec_.vcs.size() == 1 && spec_.vcs[0].name.empty()) return VcIndex(0);
  for (size_t i = 0; i < spec_.vcs.size(); ++i)
    if (spec_.vcs[i].name == name) return VcIndex(static_cast<int32_t>(i));
  return std::nullopt;
}

Status Cluster::Allocate(VcIndex vc, const Allocation& a) {
  int32_t first = first_node_[vc.value];
  int32_t end = first + spec_.vcs[vc.value].nodes;
  for (size_t i = 0; i < a.parts.size(); ++i) {
    auto [n, count] = a.parts[i];
    if (n.value < first || n.value >= end)
      return Internal("allocation uses node " + std::to_string(n.value) +
                      " outside VC '" + VcName(vc) + "'");
    int32_t already = 0;  // the same node named twice
    for (size_t k = 0; k < i; ++k)
      if (a.parts[k].first == n) already += a.parts[k].second;
    if (count < 1 || count + already > node_free_[n.value])
      return Internal("allocation of " + std::to_string(count) +
                      " GPUs does not fit node " + std::to_string(n.value));
  }
  for (auto [n, count] : a.parts) node_free_[n.value] -= count;
  int32_t total = a.Total();
  vc_free_[vc.value] -= total;
  busy_gpus_ += total;
  return Status::Ok();
}

void Cluster::Release(VcIndex vc, const Allocation& a) {
  for (auto [n, count] : a.parts) {
    if (drained(n)) {
      withheld_[n.value] += count;
    } else {
      node_free_[n.value] += count;
      vc_free_[vc.value] += count;
    }
  }
  busy_gpus_ -= a.Total();
}

VcIndex Cluster::VcOfNode(NodeIndex n) const {
  auto after = std::upper_bound(first_node_.begin(), first_node_.end(), n.value);
  return VcIndex(static_cast<int32_t>(after - first_node_.begin()) - 1);
}

void Cluster::Drain(NodeIndex n) {
  if (withheld_.empty()) withheld_.assign(node_free_.size(), -1);
  if (drained(n)) return;
  withheld_[n.value] = node_free_[n.value];
  vc_free_[VcOfNode(n).value] -= node_free_[n.value];
  node_free_[n.value] = 0;
}

void Cluster::Restore(NodeIndex n) {
  if (!drained(n)) return;
  node_free_[n.value] += withheld_[n.value];
  vc_free_[VcOfNode(n).value] += withheld_[n.value];
  withheld_[n.value] = -1;
}

}  // namespace schedmate

// The simulated cluster: nodes with GPUs, split into virtual clusters (VCs).
// A job lives in one VC and may only use that VC's nodes. Nodes are indexed
// cluster-wide; each VC owns a contiguous range, in the order given.
#ifndef SCHEDMATE_SIM_CLUSTER_H_
#define SCHEDMATE_SIM_CLUSTER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ids.h"
#include "core/status.h"

namespace schedmate {

struct ClusterSpec {
  struct Vc {
    std::string name;
    int32_t nodes = 0;
    // GPUs held by something other than jobs for the whole run (e.g. the
    // LLM server of the semantic layer), taken from the VC's last node.
    int32_t reserved_gpus = 0;
  };
  std::vector<Vc> vcs;  // One entry with an empty name = a single pool.
  int32_t gpus_per_node = 8;
  std::string gpu_type = "V100";

  int64_t TotalGpus() const;
  Status Validate() const;
};

// GPUs a job holds: (node, count) parts.
struct Allocation {
  std::vector<std::pair<NodeIndex, int32_t>> parts;
  int32_t Total() const;
  bool empty() const { return parts.empty(); }
};

class Cluster {
 public:
  // REQUIRES: spec.Validate().ok().
  explicit Cluster(ClusterSpec spec);

  const ClusterSpec& spec() const { return spec_; }
  int32_t num_vcs() const { return static_cast<int32_t>(spec_.vcs.size()); }
  int32_t gpus_per_node() const { return spec_.gpus_per_node; }
  int64_t total_gpus() const { return total_gpus_; }
  int64_t busy_gpus() const { return busy_gpus_; }

  // nullopt when no VC has that name. A single unnamed VC matches any name.
  std::optional<VcIndex> FindVc(std::string_view name) const;
  const std::string& VcName(VcIndex vc) const { return spec_.vcs[vc.value].name; }
  NodeIndex FirstNode(VcIndex vc) const { return NodeIndex(first_node_[vc.value]); }
  int32_t NumNodes(VcIndex vc) const { return spec_.vcs[vc.value].nodes; }
  // GPUs jobs can use (reserved ones excluded).
  int32_t VcTotalGpus(VcIndex vc) const {
    return NumNodes(vc) * spec_.gpus_per_node - spec_.vcs[vc.value].reserved_gpus;
  }
  int32_t VcFreeGpus(VcIndex vc) const { return vc_free_[vc.value]; }
  int32_t FreeGpus(NodeIndex n) const { return node_free_[n.value]; }
  int32_t num_nodes() const { return static_cast<int32_t>(node_free_.size()); }
  VcIndex VcOfNode(NodeIndex n) const;

  // Takes the GPUs; an error (and no change) when a part does not fit or a
  // node lies outside the VC.
  Status Allocate(VcIndex vc, const Allocation& a);
  // Returns GPUs taken by Allocate.
  void Release(VcIndex vc, const Allocation& a);

  // Takes node `n` out of service (a failure handler's drain): its running
  // jobs keep their GPUs, but it receives no job — its free GPUs read 0 —
  // and GPUs its jobs release stay out of service until Restore(n).
  void Drain(NodeIndex n);
  // Back in service (its replacement arrived) with every GPU no job holds.
  void Restore(NodeIndex n);
  bool drained(NodeIndex n) const { return !withheld_.empty() && withheld_[n.value] >= 0; }

 private:
  ClusterSpec spec_;
  std::vector<int32_t> first_node_;
  std::vector<int32_t> node_free_;
  std::vector<int32_t> vc_free_;
  // Per node: GPUs out of service while drained, -1 when in service; empty
  // until the first drain.
  std::vector<int32_t> withheld_;
  int64_t total_gpus_ = 0;
  int64_t busy_gpus_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_CLUSTER_H_

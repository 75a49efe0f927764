// A heterogeneous cluster as Sia sees it: GPU types, each with nodes of a
// fixed GPU count, and the allocation options a job may receive on each type.
#ifndef SCHEDMATE_POLICIES_SIA_SIA_CLUSTER_H_
#define SCHEDMATE_POLICIES_SIA_SIA_CLUSTER_H_

#include <string>
#include <vector>

#include "core/status.h"

namespace schedmate::sia {

struct GpuTypeSpec {
  std::string name;  // profile suffix: "aws" (T4), "rtx" (RTX 2080Ti), "dgx-ext" (A100), ...
  int nodes = 0;
  int gpus_per_node = 0;
  // Largest node count one job may span on this type: Sia only has profiles
  // measured on this many physical nodes (simulator_config.py).
  int max_job_nodes = 0;
};

struct SiaCluster {
  std::vector<GpuTypeSpec> types;  // order = column order of the goodput matrix
  int TotalGpus() const;
  int TypeGpus(int type) const { return types[type].nodes * types[type].gpus_per_node; }
};

// One column of Sia's goodput matrix: `gpus` GPUs of one type on `nodes` nodes.
struct AllocOption {
  int type = 0, nodes = 1, gpus = 1;
};

// Sia's default heterogeneous cluster: 6 × 4 T4 ("aws"), 2 × 8 A100
// ("dgx-ext"), 3 × 8 RTX 2080Ti ("rtx") = 64 GPUs, in simulator_config.py's order.
SiaCluster DefaultSiaCluster();
// Every type's node count multiplied by `factor` (multi_simulator.py --cluster_scale).
SiaCluster ScaleCluster(SiaCluster c, int factor);
// The physical-node limit of simulator_config.py for a known type, else its node count.
int DefaultMaxJobNodes(const std::string& type, int nodes);
// InvalidArgument naming the type when a count is not positive.
Status ValidateCluster(const SiaCluster& c);

// Powers of two up to one node, then whole nodes (sia.py:13-17), at most
// 64 GPUs per job and max_job_nodes nodes (sia.py:110-115).
std::vector<AllocOption> AllocationOptions(const SiaCluster& c);

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_SIA_CLUSTER_H_

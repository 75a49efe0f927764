// Turns Sia's per-type GPU counts into node placements, the way Sia's
// simulator does (sia.py:155-204 alloc_to_placement_fast, cluster.py:191-209):
// largest jobs first, whole free nodes first, then any free GPUs round-robin
// from where the last job ended; a placement spanning more nodes than the
// type allows is re-spread evenly.
#ifndef SCHEDMATE_POLICIES_SIA_SIA_PLACEMENT_H_
#define SCHEDMATE_POLICIES_SIA_SIA_PLACEMENT_H_

#include <vector>

#include "policies/sia/app_model.h"
#include "policies/sia/sia_cluster.h"

namespace schedmate::sia {

// GPU ids → node index per GPU, e.g. {0,0,1,1}.
using NodeList = std::vector<int>;

// `gpus[k]` GPUs for request k on one type. REQUIRES: sum(gpus) <= the
// type's GPU count. Returns one node list per request, in request order.
std::vector<NodeList> PlaceOnType(const GpuTypeSpec& type, const std::vector<int>& gpus);

// Consecutive equal node ids grouped into per-node counts, re-spread over at
// most `max_nodes` nodes.
Placement ToPlacement(const NodeList& nodes, int max_nodes);

}  // namespace schedmate::sia

#endif  // SCHEDMATE_POLICIES_SIA_SIA_PLACEMENT_H_

#include "policies/sia/sia_placement.h"

#include <algorithm>
#include <numeric>

namespace schedmate::sia {

namespace {

// Takes whole free nodes for as many full nodes as the request covers.
int TakeWholeNodes(std::vector<int>& free, int per_node, int& node, int gpus, NodeList& out) {
  int full = gpus / per_node, n = static_cast<int>(free.size());
  for (int checked = 0; checked < n && full > 0; ++checked) {
    if (free[node] == per_node) {
      free[node] = 0, gpus -= per_node, --full;
      out.insert(out.end(), per_node, node);
    }
    node = (node + 1) % n;
  }
  return gpus;
}

}  // namespace

std::vector<NodeList> PlaceOnType(const GpuTypeSpec& type, const std::vector<int>& gpus) {
  std::vector<int> free(type.nodes, type.gpus_per_node);
  std::vector<size_t> order(gpus.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return gpus[a] > gpus[b]; });
  std::vector<NodeList> out(gpus.size());
  int cursor = 0;
  for (size_t k : order) {
    int node = cursor;
    int left = TakeWholeNodes(free, type.gpus_per_node, node, gpus[k], out[k]);
    while (left > 0) {
      int take = std::min(left, free[node]);
      left -= take, free[node] -= take;
      out[k].insert(out[k].end(), take, node);
      node = (node + 1) % type.nodes;
    }
    cursor = node;
  }
  return out;
}

Placement ToPlacement(const NodeList& nodes, int max_nodes) {
  Placement p;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i == 0 || nodes[i] != nodes[i - 1]) p.push_back(0);
    ++p.back();
  }
  if (static_cast<int>(p.size()) <= max_nodes) return p;
  int total = static_cast<int>(nodes.size());
  int per = (total + max_nodes - 1) / max_nodes;
  Placement even;
  for (; total > 0; total -= per) even.push_back(std::min(per, total));
  return even;
}

}  // namespace schedmate::sia

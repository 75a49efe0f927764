// Consolidate placement, case by case against Lucid's consolidate.py.
#include "sim/placement.h"

#include <gtest/gtest.h>

namespace schedmate {
namespace {

// A one-VC cluster whose nodes have the given free GPU counts (of 8).
Cluster WithFree(std::vector<int32_t> free) {
  Cluster c(ClusterSpec{{{"vc", static_cast<int32_t>(free.size())}}, 8, "V100"});
  for (size_t n = 0; n < free.size(); ++n)
    if (free[n] < 8) {
      Allocation a;
      a.parts.emplace_back(NodeIndex(static_cast<int32_t>(n)), 8 - free[n]);
      EXPECT_TRUE(c.Allocate(VcIndex(0), a).ok());
    }
  return c;
}

std::vector<std::pair<int, int>> Parts(const std::optional<Allocation>& a) {
  std::vector<std::pair<int, int>> out;
  if (a) for (auto [n, k] : a->parts) out.emplace_back(n.value, k);
  return out;
}

using P = std::vector<std::pair<int, int>>;

TEST(ConsolidatePlacerTest, SmallJobsBestFitLowestIndexOnTies) {
  ConsolidatePlacer p;
  EXPECT_EQ(Parts(p.Place(WithFree({8, 8, 8, 8}), VcIndex(0), 3)), (P{{0, 3}}));
  EXPECT_EQ(Parts(p.Place(WithFree({5, 8, 8, 8}), VcIndex(0), 4)), (P{{0, 4}}));
  EXPECT_EQ(Parts(p.Place(WithFree({1, 8, 8, 8}), VcIndex(0), 2)), (P{{1, 2}}));
  EXPECT_EQ(Parts(p.Place(WithFree({2, 5, 3}), VcIndex(0), 3)), (P{{2, 3}}));
  EXPECT_EQ(Parts(p.Place(WithFree({2, 5, 3}), VcIndex(0), 8)), P{});
  EXPECT_EQ(Parts(p.Place(WithFree({8, 8}), VcIndex(0), 8)), (P{{0, 8}}));
}

TEST(ConsolidatePlacerTest, MultiplesOfEightTakeWholeFreeNodes) {
  ConsolidatePlacer p;
  EXPECT_EQ(Parts(p.Place(WithFree({8, 7, 8, 8}), VcIndex(0), 16)), (P{{0, 8}, {2, 8}}));
  EXPECT_EQ(Parts(p.Place(WithFree({8, 7, 7, 7}), VcIndex(0), 16)), P{});  // 29 free
}

TEST(ConsolidatePlacerTest, RemainderGoesToTheNextNodeInDescendingOrder) {
  ConsolidatePlacer p;
  EXPECT_EQ(Parts(p.Place(WithFree({8, 8, 3, 8}), VcIndex(0), 12)), (P{{0, 8}, {1, 4}}));
  EXPECT_EQ(Parts(p.Place(WithFree({8, 6, 3, 0}), VcIndex(0), 12)), (P{{0, 8}, {1, 4}}));
  EXPECT_EQ(Parts(p.Place(WithFree({8, 3, 3, 8}), VcIndex(0), 12)), (P{{0, 8}, {3, 4}}));
  // 13 GPUs free, but the largest non-whole node holds only 3: Lucid refuses.
  EXPECT_EQ(Parts(p.Place(WithFree({8, 3, 2, 0}), VcIndex(0), 12)), P{});
  EXPECT_EQ(Parts(p.Place(WithFree({8, 8, 8}), VcIndex(0), 17)), (P{{0, 8}, {1, 8}, {2, 1}}));
}

TEST(CountPlacerTest, TakesAnyFreeGpusInNodeOrder) {
  CountPlacer p;
  EXPECT_EQ(Parts(p.Place(WithFree({2, 5, 3}), VcIndex(0), 9)), (P{{0, 2}, {1, 5}, {2, 2}}));
  EXPECT_EQ(Parts(p.Place(WithFree({2, 5, 3}), VcIndex(0), 11)), P{});
}

TEST(ClusterTest, AllocationsStayInsideTheirVc) {
  Cluster c(ClusterSpec{{{"a", 1}, {"b", 2}}, 8, "V100"});
  EXPECT_EQ(c.FirstNode(VcIndex(1)).value, 1);
  Allocation wrong;
  wrong.parts.emplace_back(NodeIndex(1), 4);
  EXPECT_FALSE(c.Allocate(VcIndex(0), wrong).ok());
  Allocation over;
  over.parts = {{NodeIndex(0), 6}, {NodeIndex(0), 6}};
  EXPECT_FALSE(c.Allocate(VcIndex(0), over).ok());
  EXPECT_EQ(c.VcFreeGpus(VcIndex(0)), 8);
  ConsolidatePlacer p;
  auto a = p.Place(c, VcIndex(1), 16);
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(c.Allocate(VcIndex(1), *a).ok());
  EXPECT_EQ(c.busy_gpus(), 16);
  EXPECT_FALSE(p.Place(c, VcIndex(1), 1).has_value());
  c.Release(VcIndex(1), *a);
  EXPECT_EQ(c.busy_gpus(), 0);
  ClusterSpec dup{{{"a", 1}, {"a", 2}}, 8, ""};
  EXPECT_FALSE(dup.Validate().ok());
}

}  // namespace
}  // namespace schedmate

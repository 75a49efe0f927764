// SRTF scenarios worked out by hand from the Helios artifact's rules
// (HeliosArtifact `framework/QSSF Service/policies/srtf.py`): sort pending +
// running by remaining time (ties: pending before running, each in list
// order), admit greedily by the VC's GPU count, preempt running jobs left
// out (+7/30/60 s), place admitted pending jobs (consolidate). Times are the
// engine's: a job run for d seconds ends at start + d (the artifact ends it
// one second later; docs/simulator.md).
#include <gtest/gtest.h>

#include "policies/registry.h"
#include "policies/scenario_support.h"
#include "sim/engine.h"

namespace schedmate {
namespace {

using scenario::Expect;
using scenario::Job;

void Check(const PolicyConfig& pc, std::vector<JobSpec> jobs, int32_t nodes, const std::vector<Expect>& want) {
  Trace t;
  t.jobs = std::move(jobs);
  scenario::Check(pc, t, nodes, 8, want);
}

TEST(SrtfTest, ShortestRemainingFirst) {
  // One node of 8 GPUs, all at t=0: B(50) 0-50, C(70) 50-120, A(100) 120-220.
  Check({.name = "srtf"}, {Job("A", 0, 8, 100), Job("B", 0, 8, 50), Job("C", 0, 8, 70)}, 1,
        {{120, 220, 0}, {0, 50, 0}, {50, 120, 0}});
}

TEST(SrtfTest, ShorterArrivalPreemptsLongerRunningJob) {
  // A(0, 8 GPUs, 1000) runs. B(100, 8, 200): A has 900 left > 200, so A is
  // preempted (+30 s for 2-8 GPUs: 930 left) and B runs 100-300. C(200, 8,
  // 1000) is longer than both and preempts nothing. At 300 A (930) goes
  // before C (1000): A 300-1230, C 1230-2230.
  Check({.name = "srtf"}, {Job("A", 0, 8, 1000), Job("B", 100, 8, 200), Job("C", 200, 8, 1000)}, 1,
        {{0, 1230, 1}, {100, 300, 0}, {1230, 2230, 0}});
}

TEST(SrtfTest, OverheadByGpuCount) {
  // The artifact's ckpt_overhead: 7 s for 1 GPU, 30 s up to 8, 60 s above.
  // One node of 8 GPUs: A(0, 1, 100) and W(0, 7, 1000) run; B(10, 8, 20) is
  // shortest: both are preempted, A with
  // 90 + 7 = 97 left, W with 990 + 30 = 1020. B 10-30, then A 30-127 and W
  // 30-1050.
  Check({.name = "srtf"}, {Job("A", 0, 1, 100), Job("W", 0, 7, 1000), Job("B", 10, 8, 20)}, 1,
        {{0, 127, 1}, {0, 1050, 1}, {10, 30, 0}});
  // Above 8 GPUs: X(0, 16, 1000) on 2 nodes, Y(10, 16, 20): X 990 + 60 left.
  Check({.name = "srtf"}, {Job("X", 0, 16, 1000), Job("Y", 10, 16, 20)}, 2, {{0, 1080, 1}, {10, 30, 0}});
}

TEST(SrtfTest, TiesPendingBeforeRunningThenListOrder) {
  // No overhead, so remaining times tie. A(0, 8, 100) runs. At 50, B(50, 8,
  // 50) ties A's 50 left: pending goes first (que_list before run_list), so
  // A is preempted: B 50-100, A 100-150.
  Check({.name = "srtf", .restart_overhead = "none"}, {Job("A", 0, 8, 100), Job("B", 50, 8, 50)}, 1,
        {{0, 150, 1}, {50, 100, 0}});
  // A(0, 8, 100) runs; B(20, 8, 50) and C(20, 8, 80) arrive: order B(50),
  // C(80, pending), A(80, running): B starts, A is preempted and joins
  // que_list after C. At 70 C and A tie at 80; C joined first: C 70-150,
  // A 150-230.
  Check({.name = "srtf", .restart_overhead = "none"},
        {Job("A", 0, 8, 100), Job("B", 20, 8, 50), Job("C", 20, 8, 80)}, 1,
        {{0, 230, 1}, {20, 70, 0}, {70, 150, 0}});
  // Equal jobs at once go in trace order.
  Check({.name = "srtf"}, {Job("A", 0, 8, 100), Job("B", 0, 8, 100)}, 1, {{0, 100, 0}, {100, 200, 0}});
}

TEST(SrtfTest, SkipsWhatDoesNotFitTheCountWithoutBlocking) {
  // 2 nodes x 8. A(0, 12, 50), B(0, 8, 60), C(0, 4, 70): A takes 12 of the
  // 16; B (8 > 4 left) is skipped, C (4) still fits: A 0-50, C 0-70; B
  // starts when A ends: 50-110.
  Check({.name = "srtf"}, {Job("A", 0, 12, 50), Job("B", 0, 8, 60), Job("C", 0, 4, 70)}, 2,
        {{0, 50, 0}, {50, 110, 0}, {0, 70, 0}});
}

TEST(SrtfTest, AdmittedButUnplaceableJobWaitsAndCountsAgainstTheQuota) {
  // 2 nodes x 8, consolidate. A(0, 4, 1000) on node 0, B(0, 6, 1000) on
  // node 1: free 4 + 2. C(10, 6, 10) is shortest and admitted by count (6 of
  // 16), but no node holds 6: it stays pending, A and B keep running.
  // D(20, 2, 10): order C, D, A, B; the quota (16) takes C 6, D 2, A 4 and
  // leaves 4 < 6 for B, which is preempted (980 + 30 left). C then fits node
  // 1 (20-30), D the node with 2 free, also node 1 (20-30). At 30 B resumes:
  // 30-1040; A ends at 1000.
  Check({.name = "srtf"}, {Job("A", 0, 4, 1000), Job("B", 0, 6, 1000), Job("C", 10, 6, 10), Job("D", 20, 2, 10)}, 2,
        {{0, 1000, 0}, {0, 1040, 1}, {20, 30, 0}, {20, 30, 0}});
}

TEST(SrtfTest, EstimatesOrderInsteadOfTruth) {
  // With an estimator the order uses its duration. history with no ended job
  // answers its prior for both, so they tie and go in trace order: the long
  // job first (0-1000), the short one after (1000-1010), no preemption.
  Check({.name = "srtf", .estimator = "history"}, {Job("L", 0, 8, 1000), Job("S", 0, 8, 10)}, 1,
        {{0, 1000, 0}, {1000, 1010, 0}});
}

TEST(SrtfTest, RegistryRefusesBackfillAndBadOverhead) {
  EXPECT_FALSE(MakePolicy({.name = "srtf", .backfill = "easy"}).ok());
  EXPECT_FALSE(MakePolicy({.name = "srtf", .restart_overhead = "slow"}).ok());
  EXPECT_FALSE(MakePolicy({.name = "srtf", .estimator = "crystal-ball"}).ok());
  EXPECT_TRUE(MakePolicy({.name = "srtf", .estimator = "helios-error-model", .restart_overhead = "lucid"}).ok());
}

}  // namespace
}  // namespace schedmate

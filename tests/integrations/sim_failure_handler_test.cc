// The real Failure Handler deciding recoveries inside the simulator: it reads
// a generated failed log, and its guards and the truth-answering node check
// shape what the simulated cluster does.
#include "integrations/sim_failure_handler.h"

#include <gtest/gtest.h>

#include "policies/registry.h"
#include "sim/engine.h"
#include "sim/metrics.h"

namespace schedmate {
namespace {

// Only the guard under test stops a step: no confidence threshold (some
// generated logs diagnose below the default 0.8, which then refuses anything).
SimFailureHandlerOptions AnyConfidence() {
  SimFailureHandlerOptions o;
  o.guards.min_confidence = 0;
  return o;
}

JobFailureEvent Failure(std::string id, FailureCategory category, std::string component, bool broken,
                        int64_t now_s = 1000) {
  JobFailureEvent f;
  f.job_id = std::move(id);
  f.now_s = now_s;
  f.gpus = 8;
  f.category = category;
  f.component = std::move(component);
  f.node = NodeIndex(3);
  f.node_name = SimNodeName(f.node);
  f.node_broken = broken;
  f.work_done_s = 5000;
  f.checkpoint_s = 3600;
  return f;
}

TEST(SimFailureHandlerTest, AnInfrastructureFaultOnABrokenNodeDrainsItAndRestartsTheJob) {
  SimFailureHandler handler;
  RecoveryDecision d = handler.OnJobFailure(Failure("j1", FailureCategory::kInfrastructure, "gpu", true));
  EXPECT_TRUE(d.drain_node);
  EXPECT_TRUE(d.restart_from_checkpoint);
  EXPECT_EQ(handler.tally().category_correct, 1);
}

TEST(SimFailureHandlerTest, UserAndFrameworkErrorsAreNeverRetried) {
  SimFailureHandler handler;
  for (int i = 0; i < 6; ++i) {
    FailureCategory c = i % 2 ? FailureCategory::kUserScript : FailureCategory::kFramework;
    RecoveryDecision d = handler.OnJobFailure(Failure("u" + std::to_string(i), c, "", false, 1000 + i));
    EXPECT_FALSE(d.drain_node) << i;
    EXPECT_FALSE(d.restart_from_checkpoint) << i;
  }
  EXPECT_EQ(handler.tally().category_correct, 6);
}

// The node-side check is what stands between a wrong verdict and a drain.
TEST(SimFailureHandlerTest, AFalseAlarmOfTheNodeCheckDrainsAHealthyNode) {
  // An infrastructure log whose node is in fact healthy (the fault was
  // elsewhere): a truthful check refuses the drain ...
  SimFailureHandler truthful(AnyConfidence());
  RecoveryDecision kept = truthful.OnJobFailure(Failure("h", FailureCategory::kInfrastructure, "gpu", false));
  EXPECT_FALSE(kept.drain_node);
  EXPECT_FALSE(kept.restart_from_checkpoint);
  EXPECT_GT(truthful.tally().refused, 0);
  // ... one that always alarms drains it.
  SimFailureHandlerOptions o = AnyConfidence();
  o.health_false_alarm_rate = 1;
  SimFailureHandler alarmed(o);
  EXPECT_TRUE(alarmed.OnJobFailure(Failure("h", FailureCategory::kInfrastructure, "gpu", false)).drain_node);
}

TEST(SimFailureHandlerTest, TheIsolationQuotaLimitsDrainsPerHour) {
  SimFailureHandler handler(AnyConfidence());  // default quota: 2 isolations an hour
  int drains = 0;
  for (int i = 0; i < 4; ++i)
    drains += handler.OnJobFailure(Failure("q" + std::to_string(i), FailureCategory::kInfrastructure, "gpu", true,
                                           1000 + 60 * i))
                  .drain_node;
  EXPECT_EQ(drains, 2);
  EXPECT_TRUE(handler.OnJobFailure(Failure("later", FailureCategory::kInfrastructure, "gpu", true, 1000 + 7200))
                  .drain_node);
}

Trace FailingTrace(int jobs, EndState state) {
  Trace t;
  for (int i = 0; i < jobs; ++i) {
    JobSpec j;
    j.id = "job" + std::to_string(i);
    j.submit_s = i * 600;
    j.gpus = 8;
    j.duration_s = 3000 + 100 * i;
    j.state = i % 2 ? state : EndState::kCompleted;
    t.jobs.push_back(j);
  }
  return t;
}

SimResult Simulated(const Trace& t, const FailureParams& p, RecoveryHook* hook, const std::string& policy = "fifo") {
  PolicyConfig pc;
  pc.name = policy;
  auto pol = MakePolicy(pc);
  EXPECT_TRUE(pol.ok());
  SimOptions o;
  o.failures = p;
  o.recovery = hook;
  auto r = Simulate(t, ClusterSpec{{{"", 4}}, 8, "V100"}, **pol, o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return *r;
}

FailureParams OnlyCategory(FailureCategory c) {
  FailureParams p;
  p.node_fault_rate_per_node_hour = 0;
  p.mix = {c == FailureCategory::kInfrastructure ? 1.0 : 0.0, c == FailureCategory::kFramework ? 1.0 : 0.0,
           c == FailureCategory::kUserScript ? 1.0 : 0.0};
  return p;
}

TEST(SimFailureHandlerTest, InTheLoopUserErrorsAreNeverRetriedByTheHandler) {
  Trace t = FailingTrace(20, EndState::kFailed);
  SimFailureHandler handler;
  SimResult r = Simulated(t, OnlyCategory(FailureCategory::kUserScript), &handler);
  EXPECT_EQ(r.failures.user_script, 10);
  EXPECT_EQ(r.failures.restarts, 0);
  EXPECT_EQ(r.failures.drains, 0);
  EXPECT_EQ(handler.tally().diagnosed, 10);
  EXPECT_EQ(handler.tally().category_correct, 10);
}

// Infrastructure failures: with the Handler, broken nodes are drained and
// jobs resume from their checkpoints; without it, users resubmit from
// scratch after a delay and broken nodes fail the next jobs placed on them.
TEST(SimFailureHandlerTest, InTheLoopTheHandlerRecoversInfrastructureFailures) {
  Trace t = FailingTrace(20, EndState::kFailed);
  FailureParams p = OnlyCategory(FailureCategory::kInfrastructure);
  p.resubmit_prob_infrastructure = 1;
  SimFailureHandler handler;
  SimResult with = Simulated(t, p, &handler);
  SimResult without = Simulated(t, p, nullptr);
  EXPECT_GT(with.failures.restarts, 0);
  EXPECT_GT(with.failures.drains, 0);
  EXPECT_EQ(with.failures.healthy_drains, 0);
  EXPECT_GT(without.failures.broken_node_failures, 0);
  EXPECT_LT(with.failures.lost_work_gpu_s, without.failures.lost_work_gpu_s);
  EXPECT_LT(Summarize(with).avg_jct_s, Summarize(without).avg_jct_s);
  // The same under a preemptive policy that is told of re-arrivals too.
  SimFailureHandler again;
  SimResult tiresias = Simulated(t, p, &again, "tiresias");
  EXPECT_GT(tiresias.failures.restarts, 0);
}

// A node check that misses faults: the Handler's right verdicts leave broken
// nodes in service, and the jobs placed there next fail too.
TEST(SimFailureHandlerTest, InTheLoopAMissedFaultCostsTheNextJobs) {
  Trace t = FailingTrace(20, EndState::kFailed);
  FailureParams p = OnlyCategory(FailureCategory::kInfrastructure);
  p.resubmit_prob_infrastructure = 1;
  SimFailureHandler good;
  SimFailureHandlerOptions o;
  o.health_miss_rate = 1;
  SimFailureHandler blind(o);
  SimResult right = Simulated(t, p, &good);
  SimResult missed = Simulated(t, p, &blind);
  EXPECT_EQ(missed.failures.drains - missed.failures.operator_drains, 0);
  EXPECT_GT(missed.failures.broken_node_failures, right.failures.broken_node_failures);
}

}  // namespace
}  // namespace schedmate

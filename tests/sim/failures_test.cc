// Failures in the simulator (issue 18): the failure model's draws, and the
// engine's scenarios — failed trace jobs, user resubmission, restarts from a
// checkpoint, drained nodes and their replacements, broken nodes left in
// service, node faults — each on a tiny trace whose outcome is worked out by
// hand.
#include <deque>
#include <vector>

#include <gtest/gtest.h>

#include "sim/engine.h"
#include "sim/failures.h"
#include "sim/metrics.h"
#include "sim/noisy_oracle_recovery.h"
#include "sim/placement.h"
#include "sim/recovery_hook.h"

namespace schedmate {
namespace {

struct StartRecord {
  std::string job;
  int64_t t;
  std::vector<int32_t> nodes;
};

// FIFO without blocking that records where and when it starts each job.
class RecordingPolicy : public Policy {
 public:
  std::string_view Name() const override { return "recording"; }
  void OnArrival(JobIndex j, const SimState&) override { queue_.push_back(j); }
  Status Schedule(VcIndex vc, const SimState& s, SchedulingActions& a) override {
    for (auto it = queue_.begin(); it != queue_.end();) {
      auto alloc = placer_.Place(s.cluster(), vc, s.Job(*it).gpus);
      if (!alloc) {
        ++it;
        continue;
      }
      StartRecord r{s.Job(*it).spec->id, s.Now(), {}};
      for (const auto& part : alloc->parts) r.nodes.push_back(part.first.value);
      starts.push_back(r);
      RETURN_IF_ERROR(a.Start(*it, *alloc));
      it = queue_.erase(it);
    }
    return Status::Ok();
  }
  std::vector<StartRecord> starts;

 private:
  std::deque<JobIndex> queue_;
  ConsolidatePlacer placer_;
};

// Returns the same decision every time and remembers what it was asked.
class FixedHook : public RecoveryHook {
 public:
  explicit FixedHook(RecoveryDecision d) : decision_(d) {}
  RecoveryDecision OnJobFailure(const JobFailureEvent& f) override {
    seen.push_back(f);
    return decision_;
  }
  std::vector<JobFailureEvent> seen;

 private:
  RecoveryDecision decision_;
};

JobSpec Job(std::string id, int64_t submit, int32_t gpus, int64_t dur, EndState state = EndState::kCompleted) {
  JobSpec j;
  j.id = std::move(id);
  j.submit_s = submit;
  j.gpus = gpus;
  j.duration_s = dur;
  j.state = state;
  return j;
}

ClusterSpec Pool(int32_t nodes) { return {{{"", nodes}}, 8, "V100"}; }

// Deterministic parameters: failed runs had done half their work, no node
// faults, one category.
FailureParams Params(FailureCategory only) {
  FailureParams p;
  p.node_fault_rate_per_node_hour = 0;
  p.completed_fraction_lo = p.completed_fraction_hi = 0.5;
  p.mix = {only == FailureCategory::kInfrastructure ? 1.0 : 0.0, only == FailureCategory::kFramework ? 1.0 : 0.0,
           only == FailureCategory::kUserScript ? 1.0 : 0.0};
  p.mix.component = {1, 0, 0, 0, 0};  // gpu: node-local, the node breaks
  p.checkpoint_interval_s = 0;
  return p;
}

const SimJob& ById(const SimResult& r, const std::string& id) {
  for (const SimJob& j : r.jobs)
    if (j.spec->id == id) return j;
  ADD_FAILURE() << "no job " << id;
  return r.jobs.front();
}

TEST(FailureModelTest, FailedTraceJobsFailAndUnknownStatesAreDrawn) {
  Trace t;
  t.jobs = {Job("ok", 0, 1, 100), Job("bad", 0, 1, 100, EndState::kFailed),
            Job("node", 0, 1, 100, EndState::kNodeFail), Job("killed", 0, 1, 100, EndState::kCancelled)};
  for (int i = 0; i < 2000; ++i) t.jobs.push_back(Job("u" + std::to_string(i), 0, 1, 100, EndState::kUnknown));
  FailureParams p;
  std::vector<PlannedFailure> plan = PlanTraceFailures(t, p);
  EXPECT_FALSE(plan[0].fails);
  EXPECT_TRUE(plan[1].fails);
  EXPECT_GT(plan[1].full_work_s, 100);
  EXPECT_LE(plan[1].full_work_s, 1000);  // a fraction of at least 0.1 was done
  EXPECT_EQ(plan[2].category, FailureCategory::kInfrastructure);
  EXPECT_EQ(plan[2].component, "node");
  EXPECT_FALSE(plan[3].fails);
  int drawn = 0, infra = 0;
  for (size_t i = 4; i < plan.size(); ++i) {
    drawn += plan[i].fails;
    infra += plan[i].fails && plan[i].category == FailureCategory::kInfrastructure;
  }
  EXPECT_NEAR(drawn / 2000.0, p.unknown_fail_rate, 0.02);
  EXPECT_NEAR(static_cast<double>(infra) / drawn, p.mix.infrastructure, 0.08);
  // Per-job streams: the same plan whatever else the trace holds.
  Trace alone;
  alone.jobs = {t.jobs[1]};
  EXPECT_EQ(PlanTraceFailures(alone, p)[0].full_work_s, plan[1].full_work_s);
}

TEST(FailureModelTest, NodeFaultsArriveAtTheirRate) {
  FailureParams p;
  p.node_fault_rate_per_node_hour = 0.5;
  NodeFaultProcess faults(p, 10);  // 5 faults an hour over the cluster
  int64_t now = 0;
  int n = 0;
  for (; now < 1000 * 3600; ++n) now = faults.Next(now).time_s;
  EXPECT_NEAR(n / 1000.0, 5.0, 0.3);
}

TEST(FailureModelTest, BadParametersAreErrors) {
  FailureParams p;
  p.resubmit_prob_infrastructure = 1.5;
  EXPECT_FALSE(p.Validate().ok());
  Trace t;
  t.jobs = {Job("a", 0, 8, 100)};
  RecordingPolicy policy;
  SimOptions o;
  o.failures = p;
  EXPECT_FALSE(Simulate(t, Pool(1), policy, o).ok());
}

TEST(SimFailuresTest, OffByDefaultFailedJobsRunTheirTraceDuration) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed), Job("b", 10, 8, 50)};
  RecordingPolicy policy;
  FixedHook hook({true, true});
  SimOptions o;
  o.recovery = &hook;  // ignored without failures
  auto r = Simulate(t, Pool(1), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->jobs[0].finish_s, 100);
  EXPECT_EQ(r->jobs[1].finish_s, 150);
  EXPECT_TRUE(hook.seen.empty());
  EXPECT_EQ(r->failures.job_failures, 0);
}

TEST(SimFailuresTest, WithoutAHandlerTheUserResubmitsFromScratch) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed)};
  RecordingPolicy policy;
  SimOptions o;
  o.failures = Params(FailureCategory::kUserScript);
  o.failures->resubmit_prob_infrastructure = o.failures->resubmit_prob_own_fault = 1;
  o.failures->resubmit_delay_s = 50;
  auto r = Simulate(t, Pool(1), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // Fails at its recorded 100 s, back at 150, runs its whole 200 s of work.
  EXPECT_EQ(r->jobs[0].finish_s, 350);
  EXPECT_EQ(r->jobs[0].failures, 1);
  EXPECT_EQ(r->failures.resubmissions, 1);
  EXPECT_EQ(r->failures.user_script, 1);
  EXPECT_EQ(r->failures.lost_work_gpu_s, 100 * 8);
  ASSERT_EQ(policy.starts.size(), 2u);
  EXPECT_EQ(policy.starts[1].t, 150);
}

TEST(SimFailuresTest, AJobNobodyResubmitsEndsAtItsFailure) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed)};
  RecordingPolicy policy;
  SimOptions o;
  o.failures = Params(FailureCategory::kFramework);
  o.failures->resubmit_prob_infrastructure = o.failures->resubmit_prob_own_fault = 0;
  auto r = Simulate(t, Pool(1), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->jobs[0].phase, JobPhase::kDone);
  EXPECT_TRUE(r->jobs[0].abandoned);
  EXPECT_EQ(r->jobs[0].finish_s, 100);
  EXPECT_EQ(r->failures.abandoned, 1);
}

TEST(SimFailuresTest, ARestartResumesFromTheLastCheckpointWithItsRestoreCost) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed)};
  RecordingPolicy policy;
  FixedHook hook({false, true});
  SimOptions o;
  // Not infrastructure: the node stays healthy, so the restart on it runs.
  o.failures = Params(FailureCategory::kFramework);
  o.failures->checkpoint_interval_s = 30;
  o.failures->restore_s = 10;
  o.recovery = &hook;
  auto r = Simulate(t, Pool(1), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // 100 s done, 90 s checkpointed: 200 - 90 + 10 = 120 s more, at once.
  EXPECT_EQ(r->jobs[0].finish_s, 220);
  EXPECT_EQ(r->failures.restarts, 1);
  EXPECT_EQ(r->failures.lost_work_gpu_s, 10 * 8);
  ASSERT_EQ(hook.seen.size(), 1u);
  EXPECT_EQ(hook.seen[0].work_done_s, 100);
  EXPECT_EQ(hook.seen[0].checkpoint_s, 90);
  EXPECT_EQ(hook.seen[0].category, FailureCategory::kFramework);
  EXPECT_FALSE(hook.seen[0].node_broken);
  EXPECT_EQ(hook.seen[0].node_name, "node-0000");
}

// a fails on node 0 (an infrastructure fault); the handler drains node 0 and
// restarts a, which runs on node 1 until 300. b and c arrive at 150: b gets
// node 1 at 300; c has to wait for node 0's replacement at 100 + 250 = 350.
TEST(SimFailuresTest, ADrainedNodeReceivesNoJobUntilItsReplacementArrives) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed), Job("b", 150, 8, 100), Job("c", 150, 8, 100)};
  RecordingPolicy policy;
  FixedHook hook({true, true});
  SimOptions o;
  o.failures = Params(FailureCategory::kInfrastructure);
  o.failures->replacement_delay_s = 250;
  o.recovery = &hook;
  auto r = Simulate(t, Pool(2), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  for (const StartRecord& s : policy.starts) {
    bool on_node0 = std::find(s.nodes.begin(), s.nodes.end(), 0) != s.nodes.end();
    EXPECT_FALSE(on_node0 && s.t >= 100 && s.t < 350) << s.job << " started on the drained node at " << s.t;
  }
  EXPECT_EQ(ById(*r, "a").finish_s, 300);
  EXPECT_EQ(ById(*r, "b").first_start_s, 300);
  EXPECT_EQ(ById(*r, "c").first_start_s, 350);
  ASSERT_EQ(policy.starts.back().job, "c");
  EXPECT_EQ(policy.starts.back().nodes, std::vector<int32_t>{0});
  EXPECT_EQ(r->failures.drains, 1);
  EXPECT_EQ(r->failures.healthy_drains, 0);
  EXPECT_EQ(r->failures.replacements, 1);
  EXPECT_EQ(r->failures.drained_gpu_s, 250 * 8);
}

// A user error diagnosed as infrastructure: node 0 is drained for nothing,
// and b, which would have started at 100 on node 0, waits for the
// replacement.
TEST(SimFailuresTest, DrainingAHealthyNodeCostsCapacityAndShowsInTheMetrics) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed), Job("x", 0, 8, 1000), Job("b", 50, 8, 100)};
  auto run = [&](RecoveryDecision d) {
    RecordingPolicy policy;
    FixedHook hook(d);
    SimOptions o;
    o.failures = Params(FailureCategory::kUserScript);
    o.failures->resubmit_prob_infrastructure = o.failures->resubmit_prob_own_fault = 0;
    o.failures->replacement_delay_s = 500;
    o.recovery = &hook;
    auto r = Simulate(t, Pool(2), policy, o);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return *r;
  };
  SimResult right = run({false, false});
  SimResult wrong = run({true, false});
  EXPECT_EQ(ById(right, "b").first_start_s, 100);
  EXPECT_EQ(ById(wrong, "b").first_start_s, 600);
  EXPECT_EQ(wrong.failures.healthy_drains, 1);
  EXPECT_EQ(wrong.failures.drained_gpu_s, 500 * 8);
  EXPECT_EQ(right.failures.drained_gpu_s, 0);
  EXPECT_GT(Summarize(wrong).avg_jct_s, Summarize(right).avg_jct_s);
}

// An infrastructure fault the handler missed: node 0 stays broken, and b,
// placed there next, fails too — at its first collective.
TEST(SimFailuresTest, ABrokenNodeLeftInServiceFailsTheNextJobPlacedOnIt) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed), Job("b", 150, 8, 100)};
  RecordingPolicy policy;
  FixedHook hook({false, false});
  SimOptions o;
  o.failures = Params(FailureCategory::kInfrastructure);
  o.failures->resubmit_prob_infrastructure = o.failures->resubmit_prob_own_fault = 0;
  o.recovery = &hook;
  auto r = Simulate(t, Pool(1), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->failures.broken_node_failures, 1);
  EXPECT_EQ(ById(*r, "b").failures, 1);
  EXPECT_EQ(ById(*r, "b").finish_s, 150 + o.failures->broken_node_fail_after_s);
  ASSERT_EQ(hook.seen.size(), 2u);
  EXPECT_TRUE(hook.seen[1].node_broken);
}

// A storage fault lies outside the node: it stays healthy, the next job on
// it runs, and the handler is told so.
TEST(SimFailuresTest, AStorageFaultLeavesTheNodeHealthy) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed), Job("b", 150, 8, 100)};
  RecordingPolicy policy;
  FixedHook hook({false, false});
  SimOptions o;
  o.failures = Params(FailureCategory::kInfrastructure);
  o.failures->mix.component = {0, 1, 0, 0, 0};
  o.failures->resubmit_prob_infrastructure = o.failures->resubmit_prob_own_fault = 0;
  o.recovery = &hook;
  auto r = Simulate(t, Pool(1), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(hook.seen.size(), 1u);
  EXPECT_EQ(hook.seen[0].component, "storage");
  EXPECT_FALSE(hook.seen[0].node_broken);
  EXPECT_EQ(ById(*r, "b").finish_s, 250);
  EXPECT_EQ(r->failures.broken_node_failures, 0);
}

// Without a handler, operators drain a node still broken after a while.
TEST(SimFailuresTest, OperatorsDrainABrokenNodeNobodyHandled) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed), Job("b", 2000, 8, 100)};
  RecordingPolicy policy;
  SimOptions o;
  o.failures = Params(FailureCategory::kInfrastructure);
  o.failures->resubmit_prob_infrastructure = o.failures->resubmit_prob_own_fault = 0;
  o.failures->operator_notice_s = 1000;
  o.failures->replacement_delay_s = 500;
  auto r = Simulate(t, Pool(1), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->failures.operator_drains, 1);
  // Broken 100..1100, drained until 1600: b, at 2000, runs on a healthy node.
  EXPECT_EQ(ById(*r, "b").failures, 0);
  EXPECT_EQ(ById(*r, "b").finish_s, 2100);
}

// Operators see failures cluster on one node: the third job failing on the
// broken node gets it drained, long before the day's notice.
TEST(SimFailuresTest, OperatorsDrainABrokenNodeAfterRepeatedFailures) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed), Job("b", 150, 8, 100), Job("c", 300, 8, 100),
            Job("d", 450, 8, 100)};
  RecordingPolicy policy;
  SimOptions o;
  o.failures = Params(FailureCategory::kInfrastructure);
  o.failures->resubmit_prob_infrastructure = o.failures->resubmit_prob_own_fault = 0;
  o.failures->operator_drain_after_failures = 3;
  o.failures->replacement_delay_s = 100;
  auto r = Simulate(t, Pool(1), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->failures.broken_node_failures, 2);  // b and c; a broke the node
  EXPECT_EQ(r->failures.operator_drains, 1);
  // c fails at 360, the replacement is back at 460: d waits for it and runs.
  EXPECT_EQ(ById(*r, "d").failures, 0);
  EXPECT_EQ(ById(*r, "d").finish_s, 560);
}

// Resubmission depends on the cause: an infrastructure failure was not the
// job's doing and its user reruns it; one of its own making ends it (the
// trace holds the user's fix as a later job).
TEST(SimFailuresTest, UsersRerunJobsInfrastructureFailedButNotTheirOwnFailures) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, EndState::kFailed)};
  for (FailureCategory c : {FailureCategory::kInfrastructure, FailureCategory::kUserScript}) {
    RecordingPolicy policy;
    SimOptions o;
    o.failures = Params(c);
    o.failures->mix.component = {0, 1, 0, 0, 0};  // storage: the node stays healthy
    auto r = Simulate(t, Pool(1), policy, o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const bool infra = c == FailureCategory::kInfrastructure;
    EXPECT_EQ(r->failures.resubmissions, infra ? 1 : 0);
    EXPECT_EQ(r->jobs[0].abandoned, !infra);
  }
}

// The Handler-accuracy sweep's hook: right, it restarts infrastructure
// failures and drains broken nodes; always wrong, it misses them and drains
// the healthy node of a user's own failure.
TEST(SimFailuresTest, ANoisyOracleIsRightOrWrongAtItsRate) {
  JobFailureEvent infra;
  infra.job_id = "a";
  infra.category = FailureCategory::kInfrastructure;
  infra.node_broken = true;
  JobFailureEvent user = infra;
  user.category = FailureCategory::kUserScript;
  user.node_broken = false;
  NoisyOracleRecovery right(0, 1), wrong(1, 1);
  RecoveryDecision d = right.OnJobFailure(infra);
  EXPECT_TRUE(d.drain_node && d.restart_from_checkpoint);
  d = right.OnJobFailure(user);
  EXPECT_FALSE(d.drain_node || d.restart_from_checkpoint);
  d = wrong.OnJobFailure(infra);
  EXPECT_FALSE(d.drain_node || d.restart_from_checkpoint);
  d = wrong.OnJobFailure(user);
  EXPECT_TRUE(d.drain_node);
  EXPECT_FALSE(d.restart_from_checkpoint);
  EXPECT_EQ(wrong.wrong(), 2);
  NoisyOracleRecovery some(0.3, 7);
  for (int i = 0; i < 1000; ++i) {
    infra.job_id = "j" + std::to_string(i);
    some.OnJobFailure(infra);
  }
  EXPECT_NEAR(static_cast<double>(some.wrong()) / 1000, 0.3, 0.05);
}

TEST(SimFailuresTest, NodeFaultsFailTheJobsOnTheirNode) {
  Trace t;
  t.jobs = {Job("long", 0, 8, 100000)};
  RecordingPolicy policy;
  FixedHook hook({true, true});
  SimOptions o;
  o.failures = Params(FailureCategory::kUserScript);
  o.failures->node_fault_rate_per_node_hour = 3.6;  // one every ~1000 s per node
  o.failures->replacement_delay_s = 10;
  o.failures->checkpoint_interval_s = 10;
  o.failures->restore_s = 0;
  o.recovery = &hook;
  auto r = Simulate(t, Pool(2), policy, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_GT(r->failures.node_faults, 100);
  EXPECT_GT(r->jobs[0].failures, 0);
  EXPECT_EQ(r->failures.infrastructure, r->jobs[0].failures);
  ASSERT_FALSE(hook.seen.empty());
  EXPECT_TRUE(hook.seen[0].node_broken);
  EXPECT_GE(r->jobs[0].finish_s, 100000);
  // Same seed, same run.
  RecordingPolicy again;
  FixedHook hook2({true, true});
  o.recovery = &hook2;
  auto r2 = Simulate(t, Pool(2), again, o);
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->jobs[0].finish_s, r->jobs[0].finish_s);
}

}  // namespace
}  // namespace schedmate

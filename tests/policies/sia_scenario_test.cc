// Scenarios of Sia's round loop and policy on a small two-type cluster:
// allocation options, doubling cap, restart factor and delay, capacity,
// a failed solve, and the bootstrap profile vs an injected model.
#include <gtest/gtest.h>

#include <cmath>

#include "policies/sia/sia_policy.h"
#include "policies/sia/sia_simulator.h"
#include "sia_test_profile.h"
#include "solver/cbc_solver.h"

namespace schedmate::sia {
namespace {

SiaCluster TwoTypes() {
  SiaCluster c;
  c.types = {{"fast", 2, 8, 2}, {"slow", 2, 4, 2}};
  return c;
}

SiaJob MakeJob(const std::string& name, int64_t submit = 0, const std::string& app = "cifar10") {
  std::vector<AppModel> apps;
  for (const char* t : {"fast", "slow"}) apps.push_back(*AppModel::Create(TestProfile(app), t, 100));
  return SiaJob(name, submit, 1024, std::move(apps), *LookupAppConstants(app));
}

class FailingSolver : public MilpSolver {
 public:
  Result<MilpSolution> Solve(const MilpProblem&, const MilpOptions&) override {
    return Status(StatusCode::kDeadlineExceeded, "cbc: no feasible solution within 0.1 s");
  }
};

TEST(SiaScenarioTest, DefaultClusterOptionsArePowersOfTwoThenWholeNodes) {
  SiaCluster c = DefaultSiaCluster();
  EXPECT_EQ(c.TotalGpus(), 64);
  std::vector<AllocOption> o = AllocationOptions(c);
  ASSERT_EQ(o.size(), 8u + 5u + 6u);  // aws 1,2,4,8..24; dgx-ext 1,2,4,8,16; rtx 1,2,4,8,16,24
  EXPECT_EQ(o[3].gpus, 8);
  EXPECT_EQ(o[3].nodes, 2);
  EXPECT_EQ(o.back().gpus, 24);
  EXPECT_EQ(o.back().nodes, 3);
}

TEST(SiaScenarioTest, GoodputRowIsCappedAtDoubleTheObservedReplicas) {
  CbcSolver cbc;
  SiaPolicy policy(TwoTypes(), {}, &cbc);
  SiaJob job = MakeJob("cifar10-0");
  job.Seed({{{{1, 2, 64, 0.08, 0.005}}, {}}, {1, 4}});  // observed 2 GPUs on "fast"
  std::vector<double> row = policy.GoodputRow(job);
  for (size_t j = 0; j < row.size(); ++j) {
    const AllocOption& o = policy.options()[j];
    if (o.gpus > 4) EXPECT_DOUBLE_EQ(row[j], SiaParams{}.zero_gain) << "option " << j;
    else EXPECT_GE(row[j], 1.0 - 1e-9) << "option " << j;
  }
}

TEST(SiaScenarioTest, UnseenJobOffersOneGpuOnEveryTypeAtUtilityOne) {
  CbcSolver cbc;
  SiaPolicy policy(TwoTypes(), {}, &cbc);
  std::vector<double> row = policy.GoodputRow(MakeJob("cifar10-0"));
  for (size_t j = 0; j < row.size(); ++j)
    EXPECT_DOUBLE_EQ(row[j], policy.options()[j].gpus == 1 ? 1.0 : SiaParams{}.zero_gain);
}

TEST(SiaScenarioTest, RestartFactorFollowsEquationTwo) {
  SiaJob job = MakeJob("imagenet-0", 0, "imagenet");  // penalty 250 s
  EXPECT_DOUBLE_EQ(SiaPolicy::RestartFactor(job, 100), 1.0);  // younger than the penalty
  job.Reallocate(0, {1});
  job.Reallocate(0, {2});
  job.Reallocate(0, {4});  // first start + two restarts
  EXPECT_NEAR(SiaPolicy::RestartFactor(job, 1000), (1000.0 - 2 * 250) / (1000 + 250), 1e-12);
}

TEST(SiaScenarioTest, RestartDelayHoldsGpusWithoutProgress) {
  SiaJob job = MakeJob("bert-0", 0, "bert");  // restart delay 120 s
  job.Reallocate(0, {2});
  job.Step(0, 60);
  EXPECT_TRUE(job.restarting());
  EXPECT_DOUBLE_EQ(job.progress(), 0);
  EXPECT_DOUBLE_EQ(job.restart_gpu_seconds(), 120);  // 60 s × 2 GPUs
  job.Step(60, 60);
  EXPECT_FALSE(job.restarting());
  EXPECT_DOUBLE_EQ(job.progress(), 0);
  job.Step(120, 60);
  EXPECT_GT(job.progress(), 0);
  EXPECT_DOUBLE_EQ(job.restart_gpu_seconds(), 240);
  // Same shape elsewhere: no new delay; another shape: a new delay.
  job.Reallocate(0, {2});
  EXPECT_FALSE(job.restarting());
  job.Reallocate(1, {2});
  EXPECT_TRUE(job.restarting());
  EXPECT_EQ(job.num_restarts(), 1);
}

TEST(SiaScenarioTest, DecisionsNeverExceedCapacity) {
  CbcSolver cbc;
  SiaPolicy policy(TwoTypes(), {}, &cbc);
  std::vector<SiaJob> jobs;
  for (int i = 0; i < 40; ++i) jobs.push_back(MakeJob("cifar10-" + std::to_string(i)));
  for (auto& j : jobs) j.Seed({{{{1, 1, 64, 0.074, 0}, {1, 8, 64, 0.1, 0.02}}, {{1, 1, 64, 0.15, 0}}}, {1, 4}});
  std::vector<const SiaJob*> views;
  for (const auto& j : jobs) views.push_back(&j);
  RoundDecision d = policy.Decide(views, {16, 8}, 0);
  ASSERT_TRUE(d.solved) << d.note;
  std::vector<int> used(2, 0);
  int allocated = 0;
  for (const auto& [name, c] : d.choice)
    if (c >= 0) used[policy.options()[c].type] += policy.options()[c].gpus, ++allocated;
  EXPECT_LE(used[0], 16);
  EXPECT_LE(used[1], 8);
  EXPECT_GT(allocated, 0);
  EXPECT_LT(allocated, 40);  // more jobs than GPUs: some wait
}

// Solves with CBC and keeps the last problem it was given.
class CapturingSolver : public MilpSolver {
 public:
  Result<MilpSolution> Solve(const MilpProblem& p, const MilpOptions& o) override {
    last = p;
    return cbc.Solve(p, o);
  }
  CbcSolver cbc;
  MilpProblem last;
};

// Whether some option of the first job's row costs exactly half a rounding
// step less than an option of the second's (rows 0 and 1: one per job).
bool HalfStepApart(const MilpProblem& p) {
  for (int a : p.rows[0].cols)
    for (int b : p.rows[1].cols)
      if (std::abs(p.objective[a] - (p.objective[b] - 0.005)) < 1e-9) return true;
  return false;
}

// Two identical jobs tie on every option; A already runs. With
// prefer_current, A's current option costs half a rounding step less than the
// same option of B (minimising G^p), so the solver keeps A rather than
// suspending it for its twin; without it the two are exact equals.
TEST(SiaScenarioTest, PreferCurrentBreaksTiesForTheCurrentAllocation) {
  for (bool prefer : {false, true}) {
    CapturingSolver solver;
    SiaParams params;
    params.prefer_current = prefer;
    SiaPolicy policy(TwoTypes(), params, &solver);
    SiaJob a = MakeJob("cifar10-0"), b = MakeJob("cifar10-1");
    for (SiaJob* j : {&a, &b}) j->Seed({{{{1, 1, 64, 0.074, 0}, {1, 8, 64, 0.1, 0.02}}, {{1, 1, 64, 0.15, 0}}}, {1, 4}});
    RoundDecision first = policy.Decide({&a}, {16, 8}, 0);
    ASSERT_TRUE(first.solved) << first.note;
    ASSERT_GE(first.choice["cifar10-0"], 0);
    RoundDecision second = policy.Decide({&a, &b}, {16, 8}, 60);
    ASSERT_TRUE(second.solved) << second.note;
    ASSERT_GE(solver.last.rows.size(), 2u);
    EXPECT_EQ(HalfStepApart(solver.last), prefer) << "prefer_current " << prefer;
  }
}

TEST(SiaScenarioTest, FailedSolveKeepsThePreviousAllocationAndSaysSo) {
  CbcSolver cbc;
  FailingSolver failing;
  SiaJob a = MakeJob("cifar10-0"), b = MakeJob("cifar10-1");
  SiaPolicy policy(TwoTypes(), {}, &cbc);
  RoundDecision first = policy.Decide({&a}, {16, 8}, 0);
  ASSERT_TRUE(first.solved);
  int held = first.choice["cifar10-0"];
  ASSERT_GE(held, 0);
  // The same policy state, now with a solver that times out.
  SiaPolicy broken = policy.WithSolver(&failing);
  RoundDecision kept = broken.Decide({&a, &b}, {16, 8}, 60);
  EXPECT_FALSE(kept.solved);
  EXPECT_NE(kept.note.find("DEADLINE_EXCEEDED"), std::string::npos);
  EXPECT_EQ(kept.choice["cifar10-0"], held);
  EXPECT_EQ(kept.choice["cifar10-1"], -1);  // a new job gets nothing this round
}

TEST(SiaScenarioTest, NewJobsProfileEveryTypeUnlessAModelIsKnown) {
  CbcSolver cbc;
  std::map<std::string, AppProfile> profiles = {{"cifar10", TestProfile()}};
  std::vector<SiaJobInput> jobs = {{"cifar10-0", "cifar10", 0, 1024}, {"cifar10-1", "cifar10", 30, 1024}};
  SiaSimOptions plain;
  auto r = RunSia(TwoTypes(), profiles, jobs, {}, plain, &cbc);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  for (const auto& j : r->jobs) {
    EXPECT_DOUBLE_EQ(j.profile_gpu_s, 2 * 20.0);  // 20 s on one GPU of each of two types
    EXPECT_FALSE(j.seeded);
    EXPECT_GT(j.completion_s, j.submit_s);
  }
  SiaSimOptions known = plain;
  known.known_model = [](const SiaJob&) {
    return std::optional<PerfSeed>(PerfSeed{{{{1, 1, 64, 0.074, 0}}, {{1, 1, 64, 0.148, 0}}}, {1, 4}});
  };
  auto s = RunSia(TwoTypes(), profiles, jobs, {}, known, &cbc);
  ASSERT_TRUE(s.ok());
  for (size_t i = 0; i < s->jobs.size(); ++i) {
    EXPECT_DOUBLE_EQ(s->jobs[i].profile_gpu_s, 0);
    EXPECT_TRUE(s->jobs[i].seeded);
    // Skipping the profile round starts training a round earlier.
    EXPECT_LT(s->jobs[i].completion_s, r->jobs[i].completion_s);
  }
}

TEST(SiaScenarioTest, DecisionAtMostDoublesTheObservedReplicas) {
  CbcSolver cbc;
  SiaPolicy policy(TwoTypes(), {}, &cbc);
  SiaJob job = MakeJob("cifar10-0");
  // Seen on 1 and 2 GPUs of "fast"; the whole cluster (24 GPUs) is free and
  // more GPUs would help, yet this round offers at most 4.
  job.Seed({{{{1, 1, 64, 0.074, 0}, {1, 2, 64, 0.075, 0.001}}, {}}, {1, 4}});
  RoundDecision d = policy.Decide({&job}, {16, 8}, 0);
  ASSERT_TRUE(d.solved) << d.note;
  ASSERT_GE(d.choice["cifar10-0"], 0);
  EXPECT_EQ(policy.options()[d.choice["cifar10-0"]].gpus, 4);
}

// Jobs with different observed models, so rows differ and options tie and dominate.
std::vector<SiaJob> MixedJobs(int n) {
  std::vector<SiaJob> jobs;
  for (int i = 0; i < n; ++i) {
    SiaJob j = MakeJob("cifar10-" + std::to_string(i), 30 * i);
    double slow = 1 + 0.1 * (i % 7);
    j.Seed({{{{1, 1, 64, 0.074 * slow, 0}, {1, 4, 64, 0.08 * slow, 0.01 * (i % 3)}},
             {{1, 1, 64, 0.15 * slow, 0}, {1, 2, 64, 0.16, 0.02 * (i % 4)}}},
            {1.0 + i % 5, 4.0 + i % 3}});
    jobs.push_back(std::move(j));
  }
  return jobs;
}

TEST(SiaScenarioTest, FasterFormulationsReachTheSameObjectiveEveryRound) {
  // Pruning dominated options, the previous round as a start and CBC's
  // preprocessing off change how the round solves, not what is optimal.
  CbcSolver cbc;
  SiaParams before;
  before.milp.preprocess = true;
  before.prune_dominated = false;
  before.warm_start = false;
  SiaPolicy slow(TwoTypes(), before, &cbc), fast(TwoTypes(), {}, &cbc);
  std::vector<SiaJob> jobs = MixedJobs(30);
  std::vector<const SiaJob*> views;
  for (const auto& j : jobs) views.push_back(&j);
  for (int round = 0; round < 5; ++round) {
    const int64_t now = 1200 + 60 * round;
    RoundDecision a = slow.Decide(views, {16, 8}, now), b = fast.Decide(views, {16, 8}, now);
    ASSERT_TRUE(a.solved && b.solved) << a.note << b.note;
    EXPECT_NEAR(a.objective, b.objective, 2e-4 * std::abs(a.objective)) << "round " << round;
    std::vector<int> used(2, 0);
    for (const auto& [name, c] : b.choice)
      if (c >= 0) used[fast.options()[c].type] += fast.options()[c].gpus;
    EXPECT_LE(used[0], 16);
    EXPECT_LE(used[1], 8);
  }
}

}  // namespace
}  // namespace schedmate::sia

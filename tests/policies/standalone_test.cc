// The standalone policy: SJF on the advice's estimate, the fallback estimator
// when the advice has no match, one question per job even across failures,
// and write-back only for jobs that ended for good.
#include <gtest/gtest.h>

#include <map>

#include "policies/standalone/standalone.h"
#include "sim/engine.h"

namespace schedmate {
namespace {

JobSpec Job(std::string id, int64_t submit, int32_t gpus, int64_t dur) {
  JobSpec j;
  j.id = std::move(id);
  j.submit_s = submit;
  j.gpus = gpus;
  j.duration_s = dur;
  return j;
}

class FakeAdvice final : public DurationAdvice {
 public:
  explicit FakeAdvice(std::map<std::string, double> known) : known_(std::move(known)) {}
  std::optional<AdvisedDuration> AtSubmit(const SimJob& job, int64_t) override {
    ++asked[job.spec->id];
    auto it = known_.find(job.spec->id);
    if (it == known_.end()) return std::nullopt;
    auto sp = spreads.find(job.spec->id);
    return AdvisedDuration{it->second, sp == spreads.end() ? 0.0 : sp->second};
  }
  void AtEnd(const SimJob& job, int64_t) override { ++ended[job.spec->id]; }
  std::map<std::string, int> asked, ended;
  std::map<std::string, double> spreads;  // relative spread per job id (default 0)

 private:
  std::map<std::string, double> known_;
};

// A fixed answer per job id: the fallback, without learning.
class FakeFallback final : public DurationEstimator {
 public:
  explicit FakeFallback(std::map<std::string, double> e) : e_(std::move(e)) {}
  std::string_view Name() const override { return "fake"; }
  double Estimate(const JobSpec& job, int64_t) override { return e_.at(job.id); }

 private:
  std::map<std::string, double> e_;
};

std::unique_ptr<StandalonePolicy> Make(FakeAdvice* advice, std::map<std::string, double> fallback,
                                       BackfillOptions backfill = {}) {
  auto placer = MakePlacer("consolidate");
  EXPECT_TRUE(placer.ok());
  return std::make_unique<StandalonePolicy>(std::move(placer).value(), std::make_unique<FakeFallback>(std::move(fallback)),
                                            advice, backfill);
}

// One 8-GPU node. Busy (0 s, 8 GPUs, 100 s) holds it; at 10 s X, Y, Z arrive.
// True durations Y 20 < Z 50 < X 300; the advice says X 10, Y 500; Z has no
// match and falls back to 200. Order X, Z, Y: X 100-400, Z 400-450, Y 450-470
// (SJF on the true durations would run Y, Z, X).
TEST(StandaloneTest, OrdersByTheAdviceAndFallsBackWithoutAMatch) {
  Trace t;
  t.jobs = {Job("busy", 0, 8, 100), Job("X", 10, 8, 300), Job("Y", 10, 8, 20), Job("Z", 10, 8, 50)};
  FakeAdvice advice({{"X", 10}, {"Y", 500}});
  auto policy = Make(&advice, {{"busy", 1}, {"X", 1}, {"Y", 1}, {"Z", 200}});
  auto r = Simulate(t, ClusterSpec{{{"", 1}}, 8, "V100"}, *policy);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->jobs[1].first_start_s, 100);  // X
  EXPECT_EQ(r->jobs[3].first_start_s, 400);  // Z, by the fallback
  EXPECT_EQ(r->jobs[2].first_start_s, 450);  // Y
  EXPECT_EQ(policy->stats().from_history, 2);
  EXPECT_EQ(policy->stats().fallbacks, 2);
  for (const char* id : {"busy", "X", "Y", "Z"}) EXPECT_EQ(advice.ended[id], 1) << id;
}

TEST(StandaloneTest, WithoutAdviceEveryJobFallsBack) {
  Trace t;
  t.jobs = {Job("busy", 0, 8, 100), Job("X", 10, 8, 300), Job("Y", 10, 8, 20)};
  auto policy = Make(nullptr, {{"busy", 1}, {"X", 5}, {"Y", 50}});
  auto r = Simulate(t, ClusterSpec{{{"", 1}}, 8, "V100"}, *policy);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->jobs[1].first_start_s, 100);  // X (fallback 5) before Y (50)
  EXPECT_EQ(r->jobs[2].first_start_s, 400);
  EXPECT_EQ(policy->stats().fallbacks, 3);
}

// A job that fails and is resubmitted is asked about once, and written back
// once: when it ends for good, not after the failed attempt.
TEST(StandaloneTest, AsksOnceAndRecordsOnlyFinalEndsAcrossFailures) {
  Trace t;
  t.jobs = {Job("F", 0, 8, 100), Job("G", 10, 8, 50)};
  t.jobs[0].state = EndState::kFailed;
  t.jobs[1].state = EndState::kCompleted;
  FakeAdvice advice({{"F", 100}, {"G", 50}});
  auto policy = Make(&advice, {});
  SimOptions so;
  FailureParams fp;
  fp.resubmit_prob_infrastructure = fp.resubmit_prob_own_fault = 1;
  fp.node_fault_rate_per_node_hour = 0;
  so.failures = fp;
  auto r = Simulate(t, ClusterSpec{{{"", 1}}, 8, "V100"}, *policy, so);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_GE(r->jobs[0].failures, 1);
  EXPECT_EQ(advice.asked["F"], 1);
  EXPECT_EQ(advice.ended["F"], 1);
  EXPECT_EQ(advice.ended["G"], 1);
}

// EASY on the Advisor's estimates, with and without their spread. One
// 8-GPU node: "run" (4 GPUs, advised 1000 s) holds half of it; at 10 s the
// head "wide" (8 GPUs, advised 50 s) waits for a reservation at 1000 s, and
// "small" (4 GPUs, advised 400 s from runs that spread 2.0) fits before it
// by its estimate (410 < 1000) but not once widened (10 + 1200 > 1000).
TEST(StandaloneTest, BackfillOnTheAdvisorsSpreadKeepsTheHeadsReservation) {
  Trace t;
  t.jobs = {Job("run", 0, 4, 1000), Job("wide", 10, 8, 50), Job("small", 10, 4, 400)};
  auto start_of_small = [&](BackfillEstimate source) {
    FakeAdvice advice({{"run", 1000}, {"wide", 50}, {"small", 400}});
    advice.spreads["small"] = 2.0;
    BackfillOptions b;
    b.mode = BackfillMode::kEasy;
    b.estimate = source;
    auto policy = Make(&advice, {}, b);
    auto r = Simulate(t, ClusterSpec{{{"", 1}}, 8, "V100"}, *policy);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->jobs[2].first_start_s : -1;
  };
  EXPECT_EQ(start_of_small(BackfillEstimate::kAdvisor), 10);        // backfilled
  EXPECT_EQ(start_of_small(BackfillEstimate::kAdvisorSpread), 1050);  // after wide (1000-1050)
}

}  // namespace
}  // namespace schedmate

#include "sim/engine.h"

#include <deque>

#include <gtest/gtest.h>

#include "sim/metrics.h"
#include "sim/placement.h"

namespace schedmate {
namespace {

// Minimal FIFO without blocking, to test the engine alone.
class GreedyPolicy : public Policy {
 public:
  std::string_view Name() const override { return "greedy"; }
  void OnArrival(JobIndex j, const SimState&) override { queue_.push_back(j); }
  Status Schedule(VcIndex vc, const SimState& s, SchedulingActions& a) override {
    for (auto it = queue_.begin(); it != queue_.end();) {
      if (s.Job(*it).vc != vc) { ++it; continue; }
      auto alloc = placer_.Place(s.cluster(), vc, s.Job(*it).gpus);
      if (!alloc) { ++it; continue; }
      RETURN_IF_ERROR(a.Start(*it, *alloc));
      it = queue_.erase(it);
    }
    return Status::Ok();
  }
  std::deque<JobIndex> queue_;
  ConsolidatePlacer placer_;
};

JobSpec Job(std::string id, int64_t submit, int32_t gpus, int64_t dur,
            std::string vc = "") {
  JobSpec j;
  j.id = std::move(id);
  j.submit_s = submit;
  j.gpus = gpus;
  j.duration_s = dur;
  j.vc = std::move(vc);
  return j;
}

ClusterSpec OnePool(int32_t nodes) { return {{{"", nodes}}, 8, "V100"}; }

TEST(EngineTest, RunsJobsAndComputesMetrics) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100), Job("b", 0, 8, 50), Job("c", 30, 4, 10)};
  GreedyPolicy p;
  auto r = Simulate(t, OnePool(1), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // a: 0-100; b waits for a: 100-150; c fits nowhere until 100 (node full),
  // then b takes all 8: c runs 150-160.
  EXPECT_EQ(r->jobs[0].finish_s, 100);
  EXPECT_EQ(r->jobs[1].first_start_s, 100);
  EXPECT_EQ(r->jobs[1].finish_s, 150);
  EXPECT_EQ(r->jobs[2].first_start_s, 150);
  EXPECT_EQ(r->jobs[2].queued_s, 120);
  SimSummary s = Summarize(*r);
  EXPECT_EQ(s.jobs, 3);
  EXPECT_DOUBLE_EQ(s.avg_jct_s, (100 + 150 + 130) / 3.0);
  EXPECT_DOUBLE_EQ(s.avg_queue_s, (0 + 100 + 120) / 3.0);
  EXPECT_DOUBLE_EQ(s.makespan_s, 160);
  EXPECT_DOUBLE_EQ(s.gpu_utilization, (800 + 400 + 40) / (8.0 * 160));
  EXPECT_DOUBLE_EQ(s.median_jct_s, 130);
}

TEST(EngineTest, TimeSeriesSamplesTheStateEveryPeriod) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100), Job("b", 10, 4, 50)};
  GreedyPolicy p;
  auto r = Simulate(t, OnePool(1), p);
  ASSERT_TRUE(r.ok());
  ASSERT_GE(r->series.size(), 3u);
  EXPECT_EQ(r->series[0].t, 0);
  EXPECT_EQ(r->series[0].busy_gpus, 8);
  EXPECT_EQ(r->series[1].t, 60);
  EXPECT_EQ(r->series[1].pending_jobs, 1);
  EXPECT_EQ(r->series[1].pending_gpus, 4);
  EXPECT_EQ(r->series[2].t, 120);
  EXPECT_EQ(r->series[2].busy_gpus, 4);
  EXPECT_EQ(r->series[2].pending_jobs, 0);
}

TEST(EngineTest, ImpossibleJobsAreRejectedNotBlocking) {
  Trace t;
  t.jobs = {Job("huge", 0, 64, 10, "a"), Job("lost", 0, 1, 10, "zz"),
            Job("cpu", 0, 0, 10, "a"), Job("ok", 1, 8, 10, "a")};
  GreedyPolicy p;
  auto r = Simulate(t, ClusterSpec{{{"a", 2}}, 8, ""}, p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rejected, 3);
  EXPECT_EQ(r->jobs[0].phase, JobPhase::kRejected);
  EXPECT_NE(r->jobs[0].reject_reason.find("needs 64 GPUs"), std::string::npos);
  EXPECT_NE(r->jobs[1].reject_reason.find("unknown VC 'zz'"), std::string::npos);
  EXPECT_EQ(r->jobs[3].finish_s, 11);
  SimOptions strict;
  strict.unknown_vc_is_error = true;
  GreedyPolicy p2;
  EXPECT_FALSE(Simulate(t, ClusterSpec{{{"a", 2}}, 8, ""}, p2, strict).ok());
}

TEST(EngineTest, UnknownDurationsAndUnsortedTracesAreErrors) {
  Trace t;
  t.jobs = {Job("a", 0, 1, -1)};
  GreedyPolicy p;
  auto r = Simulate(t, OnePool(1), p);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no duration"), std::string::npos);
  t.jobs = {Job("a", 5, 1, 1), Job("b", 0, 1, 1)};
  EXPECT_FALSE(Simulate(t, OnePool(1), p).ok());
}

TEST(EngineTest, ZeroDurationJobsFinishAtSubmit) {
  Trace t;
  t.jobs = {Job("a", 7, 1, 0)};
  GreedyPolicy p;
  auto r = Simulate(t, OnePool(1), p);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->jobs[0].finish_s, 7);
}

// A policy that never starts anything must end in an error, not a hang.
class LazyPolicy : public Policy {
 public:
  std::string_view Name() const override { return "lazy"; }
  Status Schedule(VcIndex, const SimState&, SchedulingActions&) override {
    return Status::Ok();
  }
  std::optional<int64_t> NextWakeup(VcIndex, const SimState& s) const override {
    return s.Now() + 60;
  }
};

TEST(EngineTest, StalledPolicyIsReported) {
  Trace t;
  t.jobs = {Job("a", 0, 1, 10)};
  LazyPolicy p;
  auto r = Simulate(t, OnePool(1), p);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("stalled"), std::string::npos);
}

// A policy that asks for something impossible gets an error, not a crash.
class BadPolicy : public Policy {
 public:
  std::string_view Name() const override { return "bad"; }
  Status Schedule(VcIndex, const SimState&, SchedulingActions& a) override {
    Allocation al;
    al.parts.emplace_back(NodeIndex(0), 8);
    RETURN_IF_ERROR(a.Start(JobIndex(0), al));
    return a.Start(JobIndex(0), al);  // twice
  }
};

TEST(EngineTest, ImpossibleDecisionsAreErrors) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 10)};
  BadPolicy p;
  auto r = Simulate(t, OnePool(1), p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_NE(r.status().message().find("not pending"), std::string::npos);
}

TEST(MetricsTest, PercentileInterpolatesLikeNumpy) {
  EXPECT_DOUBLE_EQ(Percentile({1, 2, 3, 4}, 50), 2.5);
  EXPECT_DOUBLE_EQ(Percentile({1, 2, 3, 4}, 99), 3.97);
  EXPECT_DOUBLE_EQ(Percentile({5}, 99), 5);
}

// Packs every arrival onto the first running job of its size at the given
// rates; `evict_at` evicts the guest at that time; `move_to` sends arrivals
// to another VC first.
class PackingPolicy : public Policy {
 public:
  std::string_view Name() const override { return "packing"; }
  void OnArrival(JobIndex j, const SimState&) override { queue_.push_back(j); }
  Status Schedule(VcIndex vc, const SimState& s, SchedulingActions& a) override {
    if (evict_at >= 0 && s.Now() == evict_at && guest) {
      RETURN_IF_ERROR(a.Preempt(*guest, 0));
      std::erase(running_, *guest);
      queue_.push_back(*guest);
      evicted = guest;
    }
    for (auto it = queue_.begin(); it != queue_.end();) {
      const SimJob& j = s.Job(*it);
      if (move_to && j.vc != *move_to) {
        RETURN_IF_ERROR(a.MoveToVc(*it, *move_to));
        ++it;
        continue;
      }
      if (j.vc != vc) { ++it; continue; }
      std::optional<JobIndex> host;
      for (JobIndex r : running_)
        if (s.Job(r).phase == JobPhase::kRunning && !s.Job(r).partner && s.Job(r).gpus == j.gpus) host = r;
      if (host && evicted != *it) {
        RETURN_IF_ERROR(a.Pack(*it, *host, guest_rate, host_rate));
        guest = *it;
      } else if (auto alloc = placer_.Place(s.cluster(), vc, j.gpus)) {
        RETURN_IF_ERROR(a.Start(*it, *alloc));
      } else {
        ++it;
        continue;
      }
      running_.push_back(*it);
      it = queue_.erase(it);
    }
    return Status::Ok();
  }
  std::optional<int64_t> NextWakeup(VcIndex, const SimState& s) const override {
    if (evict_at > s.Now()) return evict_at;
    return std::nullopt;
  }
  double guest_rate = 0.5, host_rate = 0.8;
  int64_t evict_at = -1;
  std::optional<JobIndex> guest, evicted;
  std::optional<VcIndex> move_to;
  std::deque<JobIndex> queue_;
  std::vector<JobIndex> running_;
  ConsolidatePlacer placer_;
};

TEST(EngineTest, PackedJobsRunAtTheirRatesAndRecoverWhenThePartnerLeaves) {
  Trace t;
  t.jobs = {Job("host", 0, 8, 100), Job("guest", 10, 8, 100)};
  PackingPolicy p;
  auto r = Simulate(t, OnePool(1), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // host: 10 s alone, then 0.8: 90 s of work at 0.8 = 112.5 s → ends at 123
  // (ceil). guest: from 10 at 0.5 until 123 (56.5 s of work done), then 43.5
  // left alone → ends at ~167.
  EXPECT_EQ(r->jobs[0].finish_s, 123);
  EXPECT_NEAR(static_cast<double>(r->jobs[1].finish_s), 167, 1);
  EXPECT_EQ(r->jobs[1].first_start_s, 10);
  EXPECT_EQ(r->jobs[1].packs, 1);
  EXPECT_EQ(r->packs, 1);
  SimSummary s = Summarize(*r);
  EXPECT_EQ(s.packs, 1);
  // One node busy 0..167 at most: the guest's shared seconds are not counted twice.
  EXPECT_LE(s.gpu_utilization, 1.0 + 1e-9);
}

TEST(EngineTest, EvictingAGuestRestoresTheHostAndRequeuesTheGuest) {
  Trace t;
  t.jobs = {Job("host", 0, 8, 100), Job("guest", 0, 8, 50)};
  PackingPolicy p;
  p.evict_at = 20;
  p.host_rate = 0.5;
  p.guest_rate = 0.5;
  auto r = Simulate(t, OnePool(1), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // 0..20 both at 0.5: host did 10 s, guest 10 s. Host alone: 90 s → ends 110.
  EXPECT_EQ(r->jobs[0].finish_s, 110);
  EXPECT_EQ(r->jobs[1].preemptions, 1);
  // The guest waits for the GPUs and runs its last 40 s alone: 110..150.
  EXPECT_EQ(r->jobs[1].last_start_s, 110);
  EXPECT_EQ(r->jobs[1].finish_s, 150);
  EXPECT_EQ(r->jobs[1].queued_s, 90);
}

TEST(EngineTest, ReservedGpusAreNotGivenToJobs) {
  Trace t;
  t.jobs = {Job("a", 0, 4, 100), Job("b", 0, 4, 100), Job("c", 0, 8, 10)};
  GreedyPolicy p;
  ClusterSpec spec{{{"", 2, 1}}, 8, "V100"};  // 16 GPUs, 1 held
  auto r = Simulate(t, spec, p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // a and b share the first node; c needs a whole node but the second has 7 free.
  EXPECT_EQ(r->jobs[2].phase, JobPhase::kDone);
  EXPECT_EQ(r->jobs[2].first_start_s, 100);
  ClusterSpec bad{{{"", 1, 8}}, 8, "V100"};
  EXPECT_FALSE(Simulate(t, bad, p).ok());
}

TEST(EngineTest, MoveToVcRunsAJobInAnotherVc) {
  Trace t;
  t.jobs = {Job("a", 0, 8, 100, "x")};
  PackingPolicy p;
  p.move_to = VcIndex(1);
  ClusterSpec spec{{{"x", 1}, {"y", 1}}, 8, "V100"};
  auto r = Simulate(t, spec, p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->jobs[0].vc.value, 1);
  EXPECT_EQ(r->jobs[0].finish_s, 100);
}

}  // namespace
}  // namespace schedmate

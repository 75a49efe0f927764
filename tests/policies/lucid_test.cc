// Lucid's rules, one scenario each, with times worked out by hand: the
// profiler (limit, least-GPU-first, finishing inside it, the run not
// credited), priorities, head-of-line blocking without packing, the
// indolent-packing switch, every affine-pair rule, co-run speeds, and the
// three schedmate consumption points through fake hooks.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/random.h"
#include "policies/lucid/lucid.h"
#include "policies/lucid/main_queue.h"
#include "policies/lucid/synthetic_workload_model.h"
#include "policies/lucid/workload_estimator.h"
#include "sim/engine.h"

namespace schedmate {
namespace {

JobSpec Job(std::string id, int64_t submit, int32_t gpus, int64_t dur) {
  JobSpec j;
  j.id = std::move(id);
  j.vc = "main";
  j.submit_s = submit;
  j.gpus = gpus;
  j.duration_s = dur;
  return j;
}

class TestModel final : public LucidWorkloadModel {
 public:
  JobProfile Profile(const SimJob& j) const override {
    auto it = profiles.find(j.spec->id);
    return it == profiles.end() ? JobProfile{0.3, 4000, 0.99} : it->second;
  }
  std::pair<double, double> CoRunRates(const SimJob&, const SimJob&) const override { return rates; }
  std::map<std::string, JobProfile> profiles;
  std::pair<double, double> rates{0.5, 0.5};
};

class FakeHooks final : public LucidSemanticHooks {
 public:
  std::optional<HistoryFacts> AtSubmit(const SimJob& j, int64_t, int64_t* latency) override {
    *latency = latency_s;
    auto it = facts.find(j.spec->id);
    if (it == facts.end()) return std::nullopt;
    return it->second;
  }
  std::optional<int64_t> PackCheckAfter(const SimJob&, const SimJob&) override { return check_after; }
  std::optional<double> PackSlowdown(const SimJob&, const SimJob&, int64_t, int64_t) override {
    ++checks;
    return ratio;
  }
  void AtEnd(const SimJob& j, int64_t) override { ended.push_back(j.spec->id); }
  std::map<std::string, HistoryFacts> facts;
  int64_t latency_s = 0;
  std::optional<int64_t> check_after = 30;
  std::optional<double> ratio;
  int checks = 0;
  std::vector<std::string> ended;
};

ClusterSpec Spec(int main_nodes, int profiler_nodes) {
  ClusterSpec c{{{"main", main_nodes}}, 8, "A100"};
  if (profiler_nodes > 0) c.vcs.push_back({"lucid-profiler", profiler_nodes});
  return c;
}

LucidOptions NoIndolence() {
  LucidOptions o;
  o.indolent_packing = false;  // packing always on
  return o;
}

Result<SimResult> Replay(const Trace& t, const ClusterSpec& c, LucidPolicy& p) { return Simulate(t, c, p); }

const SimJob& J(const SimResult& r, const std::string& id) {
  for (const auto& j : r.jobs)
    if (j.spec->id == id) return j;
  static SimJob none;
  ADD_FAILURE() << "no job " << id;
  return none;
}

TEST(Lucid, ShortJobsFinishInTheProfilerLongOnesRestartInTheMainCluster) {
  Trace t;
  t.jobs = {Job("short", 0, 1, 50), Job("long", 0, 1, 1000), Job("big", 0, 16, 100)};
  TestModel m;
  LucidOptions o;
  o.profile_time_limit_s = 200;
  o.profile_gpu_limit = 8;
  LucidPolicy p(o, &m);
  auto r = Replay(t, Spec(2, 1), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(J(*r, "short").finish_s, 50);  // inside the profiler
  // Profiled 0..200, not credited: 1000 s more in the main cluster.
  EXPECT_EQ(J(*r, "long").finish_s, 1200);
  EXPECT_EQ(J(*r, "big").first_start_s, 0);  // above the profiling GPU limit: straight in
  EXPECT_EQ(p.stats().profiled, 2);
  EXPECT_EQ(p.stats().finished_in_profiler, 1);
  EXPECT_EQ(p.stats().profiler_gpu_s, 50 + 200);
  LucidOptions credit = o;
  credit.credit_profiled_progress = true;
  LucidPolicy q(credit, &m);
  auto c = Replay(t, Spec(2, 1), q);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(J(*c, "long").finish_s, 1000);
}

TEST(Lucid, ProfilerIsLeastGpuFirst) {
  Trace t;  // the profiler (8 GPUs) is full until 100; then 4-, 1- and 2-GPU jobs wait
  t.jobs = {Job("hog", 0, 8, 100), Job("four", 10, 4, 50), Job("one", 20, 1, 50), Job("two", 30, 2, 50),
            Job("six", 40, 6, 50)};
  TestModel m;
  LucidPolicy p(LucidOptions{}, &m);
  auto r = Replay(t, Spec(1, 1), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // At 100: one (1), two (2), four (4) start — 7 GPUs; six waits for 150.
  EXPECT_EQ(J(*r, "one").first_start_s, 100);
  EXPECT_EQ(J(*r, "two").first_start_s, 100);
  EXPECT_EQ(J(*r, "four").first_start_s, 100);
  EXPECT_EQ(J(*r, "six").first_start_s, 150);
}

TEST(Lucid, WholeNodeProfilingRunsOneJobPerProfilerNode) {
  Trace t;
  t.jobs = {Job("a", 0, 1, 50), Job("b", 0, 1, 500), Job("c", 0, 1, 500)};
  TestModel m;
  LucidOptions o;
  o.profile_whole_node = true;
  o.profile_time_limit_s = 100;
  LucidPolicy p(o, &m);
  auto r = Replay(t, Spec(2, 1), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(J(*r, "a").finish_s, 50);          // profiled alone, finished inside
  EXPECT_EQ(J(*r, "b").first_start_s, 50);     // waited for the node
  EXPECT_EQ(J(*r, "c").first_start_s, 150);    // after b's 100 s
  EXPECT_EQ(J(*r, "c").finish_s, 250 + 500);   // then its full run in the main cluster
}

TEST(Lucid, PriorityIsEstimateTimesGpusAndWithoutPackingTheHeadBlocks) {
  Trace t;
  t.jobs = {Job("run6", 0, 6, 1000), Job("head4", 10, 4, 100), Job("tail1", 20, 1, 100)};
  TestModel m;
  FakeHooks h;  // history gives the estimates: head4 → 10 s × 4 GPUs, tail1 → 1000 s × 1
  h.facts["head4"] = {10, {0.3, 4000, 0.99}};
  h.facts["tail1"] = {1000, {0.3, 4000, 0.99}};
  h.facts["run6"] = {1000, {0.3, 4000, 0.99}};
  LucidOptions o;  // indolent: 3 arrivals in the last half hour → packing off
  LucidPolicy p(o, &m, &h);
  auto r = Replay(t, Spec(1, 0), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(J(*r, "head4").first_start_s, 1000);  // 4 do not fit beside run6
  EXPECT_EQ(J(*r, "tail1").first_start_s, 1000);  // would fit, but the head blocks
  EXPECT_FALSE(p.PackingOn(500));
}

TEST(Lucid, IndolentPackingFollowsTheForecastSubmissionRate) {
  Trace t;
  for (int i = 0; i < 40; ++i) t.jobs.push_back(Job("j" + std::to_string(i), i * 60, 1, 10));
  TestModel m;
  LucidPolicy p(LucidOptions{}, &m);
  ASSERT_TRUE(Replay(t, Spec(1, 0), p).ok());
  // One job a minute = 10 per 10 minutes > 2: on once half an hour of arrivals is seen.
  EXPECT_TRUE(p.PackingOn(1800));
  EXPECT_FALSE(p.PackingOn(100));  // too few arrivals seen yet
  EXPECT_FALSE(p.PackingOn(40 * 60 + 1800));  // long after the last arrival
}

struct PairCase {
  const char* what;
  JobProfile host, guest;
  double host_est, guest_est;
  int32_t guest_gpus;
  bool packs;
};

TEST(Lucid, AffinePairRules) {
  const JobProfile light{0.3, 4000, 0.99};  // sharescore 0
  const JobProfile heavy{0.9, 4000, 0.80};  // sharescore 2
  const JobProfile medium{0.6, 4000, 0.90};  // sharescore 1
  const PairCase cases[] = {
      {"compatible", light, light, 1000, 1000, 8, true},
      {"other GPU count", light, light, 1000, 1000, 4, false},
      {"memory over 24576 MiB", {0.3, 12000, 0.99}, {0.3, 12576, 0.99}, 1000, 1000, 8, false},
      {"memory just under", {0.3, 12000, 0.99}, {0.3, 12575, 0.99}, 1000, 1000, 8, true},
      {"sharescores 2 + 1 > 2", heavy, medium, 1000, 1000, 8, false},
      {"sharescores 1 + 1 = 2", medium, medium, 1000, 1000, 8, true},
      {"guest priority > 2 x host's", light, light, 1000, 2001, 8, false},
      {"guest priority = 2 x host's", light, light, 1000, 2000, 8, true},
  };
  for (const PairCase& c : cases) {
    Trace t;
    t.jobs = {Job("host", 0, 8, 5000), Job("guest", 10, c.guest_gpus, 1000)};
    TestModel m;
    FakeHooks h;
    h.check_after.reset();
    h.facts["host"] = {c.host_est, c.host};
    h.facts["guest"] = {c.guest_est, c.guest};
    LucidPolicy p(NoIndolence(), &m, &h);
    auto r = Replay(t, Spec(1, 0), p);
    ASSERT_TRUE(r.ok()) << c.what << ": " << r.status().ToString();
    EXPECT_EQ(J(*r, "guest").packs == 1, c.packs) << c.what;
    EXPECT_EQ(J(*r, "guest").first_start_s == 10, c.packs) << c.what;
  }
}

TEST(Lucid, PacksOntoTheFirstRunningJobAloneAndUsesTheCoRunSpeeds) {
  Trace t;  // packing is tried before free GPUs, onto the first job in run order that is alone
  t.jobs = {Job("a", 0, 4, 1000), Job("b", 1, 4, 1000), Job("g", 10, 4, 100), Job("g2", 20, 4, 100)};
  TestModel m;
  m.rates = {0.5, 0.8};  // (guest, host)
  LucidPolicy p(NoIndolence(), &m);
  auto r = Replay(t, Spec(1, 0), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(J(*r, "b").packs, 1);   // onto a, although 4 GPUs were free
  EXPECT_EQ(J(*r, "g").packs, 0);   // a is taken: g runs alone on the free GPUs
  EXPECT_EQ(J(*r, "g2").packs, 1);  // g is the first job alone in run order
  // a: 1 s alone, then 999 s of work at 0.8 → 1249 s → 1250.
  EXPECT_EQ(J(*r, "a").finish_s, 1250);
  // b: 1249 s at 0.5 (624.5 done), 375.5 alone → 1626 (rounding: ±1).
  EXPECT_NEAR(static_cast<double>(J(*r, "b").finish_s), 1626, 1);
  // g: 10 s alone, 90 s of work at 0.8 → 112.5 s → 133; g2 then alone.
  EXPECT_EQ(J(*r, "g").finish_s, 133);
  EXPECT_NEAR(static_cast<double>(J(*r, "g2").finish_s), 20 + 113 + 43.5, 1);
  EXPECT_EQ(p.stats().packs, 2);
}

TEST(Lucid, TrackerUndoesAHarmfulPackAndTheGuestNeverPacksAgain) {
  Trace t;
  t.jobs = {Job("host", 0, 8, 2000), Job("guest", 10, 8, 500), Job("host2", 3000, 8, 100)};
  TestModel m;
  FakeHooks h;
  h.ratio = 0.3;  // TP_after / TP_before
  LucidOptions o = NoIndolence();
  o.profiler_vc.clear();
  LucidPolicy p(o, &m, &h);
  auto r = Replay(t, Spec(1, 0), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(p.stats().evictions, 1);
  EXPECT_EQ(h.checks, 1);
  const SimJob& g = J(*r, "guest");
  EXPECT_EQ(g.packs, 1);
  EXPECT_EQ(g.preemptions, 1);
  // Evicted at 40 after 30 s at 0.5 (15 s of work): 485 + 40 s overhead left,
  // run alone once the host ends (host: 10 + 30 at 0.5 → 1975 left → 2015).
  EXPECT_EQ(J(*r, "host").finish_s, 2015);
  EXPECT_EQ(g.last_start_s, 2015);
  EXPECT_EQ(g.finish_s, 2015 + 525);
  EXPECT_EQ(h.ended.size(), 3u);

  FakeHooks keep;
  keep.ratio = 0.7;
  LucidPolicy p2(o, &m, &keep);
  ASSERT_TRUE(Replay(t, Spec(1, 0), p2).ok());
  EXPECT_EQ(p2.stats().evictions, 0);
  FakeHooks unreadable;  // no throughput in the host's log: the check is skipped
  LucidPolicy p3(o, &m, &unreadable);
  ASSERT_TRUE(Replay(t, Spec(1, 0), p3).ok());
  EXPECT_EQ(p3.stats().evictions, 0);
  EXPECT_EQ(p3.stats().checks_skipped, 1);
}

TEST(Lucid, AHistoryMatchSkipsTheProfilerAfterTheAdvisorAnswers) {
  Trace t;
  t.jobs = {Job("known", 0, 1, 1000), Job("new", 0, 1, 1000)};
  TestModel m;
  FakeHooks h;
  h.latency_s = 9;
  h.facts["known"] = {1000, {0.5, 8000, 0.9}};
  LucidPolicy p(LucidOptions{}, &m, &h);
  auto r = Replay(t, Spec(1, 1), p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(J(*r, "known").first_start_s, 9);
  EXPECT_EQ(J(*r, "known").finish_s, 1009);
  EXPECT_EQ(J(*r, "new").finish_s, 9 + 200 + 1000);  // advisor miss: profiled as usual
  EXPECT_EQ(p.stats().history_hits, 1);
  EXPECT_EQ(p.stats().skipped_profiler, 1);
  EXPECT_EQ(p.stats().advice_wait_s, 18);
}

// Random traces through every mechanism at once (profiling, packing,
// evictions by a random Tracker, history hits): every job ends, none faster
// than its own duration, and the GPU accounting never goes wrong.
class RandomHooks final : public LucidSemanticHooks {
 public:
  explicit RandomHooks(uint64_t seed) : rng_(seed) {}
  std::optional<HistoryFacts> AtSubmit(const SimJob& j, int64_t, int64_t* latency) override {
    *latency = static_cast<int64_t>(rng_.Below(3)) * 9;
    if (rng_.Uniform() < 0.5) return std::nullopt;
    return HistoryFacts{static_cast<double>(j.spec->duration_s) * rng_.Uniform(0.5, 2), {rng_.Uniform(0.2, 0.9), rng_.Uniform(1000, 20000), rng_.Uniform(0.7, 1)}};
  }
  std::optional<int64_t> PackCheckAfter(const SimJob&, const SimJob&) override {
    return rng_.Uniform() < 0.8 ? std::optional<int64_t>(1 + rng_.Below(100)) : std::nullopt;
  }
  std::optional<double> PackSlowdown(const SimJob&, const SimJob&, int64_t, int64_t) override {
    return rng_.Uniform() < 0.9 ? std::optional<double>(rng_.Uniform(0.1, 1)) : std::nullopt;
  }
  void AtEnd(const SimJob&, int64_t) override {}

 private:
  Rng rng_;
};

TEST(Lucid, RandomTracesAlwaysFinishAndNeverRunFasterThanAlone) {
  int64_t packs = 0, evictions = 0, profiled = 0, hits = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Rng rng(seed);
    Trace t;
    int64_t now = 0;
    for (int i = 0; i < 60; ++i) {
      now += static_cast<int64_t>(rng.Below(300));
      static const int32_t kGpus[] = {1, 1, 1, 2, 4, 8, 16};
      t.jobs.push_back(Job("j" + std::to_string(i), now, kGpus[rng.Below(7)], 1 + static_cast<int64_t>(rng.Below(5000))));
    }
    SyntheticWorkloadModel model(seed);
    RandomHooks hooks(seed);
    LucidOptions o;
    o.indolent_packing = rng.Uniform() < 0.5;
    o.profile_whole_node = rng.Uniform() < 0.3;
    o.credit_profiled_progress = rng.Uniform() < 0.3;
    LucidPolicy p(o, &model, seed % 2 ? &hooks : nullptr);
    auto r = Replay(t, Spec(2, seed % 3 ? 1 : 0), p);
    ASSERT_TRUE(r.ok()) << "seed " << seed << ": " << r.status().ToString();
    for (const SimJob& j : r->jobs) {
      ASSERT_EQ(j.phase, JobPhase::kDone) << "seed " << seed << " job " << j.spec->id;
      EXPECT_GE(j.finish_s - j.submit_s, j.spec->duration_s) << "seed " << seed << " job " << j.spec->id;
      EXPECT_FALSE(j.partner.has_value());
    }
    packs += p.stats().packs, evictions += p.stats().evictions, profiled += p.stats().profiled, hits += p.stats().history_hits;
  }
  // The mechanisms were all exercised.
  EXPECT_GT(packs, 50);
  EXPECT_GT(evictions, 5);
  EXPECT_GT(profiled, 100);
  EXPECT_GT(hits, 100);
}

TEST(LucidEstimator, LearnsFromHistoryOnly) {
  WorkloadEstimator e;
  LucidFeatures short_user{"alice", "vc", 1, 0, 0.3, 4000}, long_user{"bob", "vc", 8, 0, 0.9, 20000};
  EXPECT_DOUBLE_EQ(e.Estimate(short_user), WorkloadEstimatorOptions{}.cold_start_s);
  for (int i = 0; i < 200; ++i) {
    short_user.submit_s = long_user.submit_s = i * 3600;
    e.Observe(short_user, 100 + i % 7);
    e.Observe(long_user, 50000 + 100 * (i % 5));
  }
  EXPECT_DOUBLE_EQ(e.Estimate(short_user), WorkloadEstimatorOptions{}.cold_start_s);  // not retrained yet
  e.Retrain();
  EXPECT_NEAR(e.Estimate(short_user), 103, 10);
  EXPECT_NEAR(e.Estimate(long_user), 50200, 2000);
}

TEST(LucidEstimator, AdjacentFeatureValuesNeverGiveAnEmptyLeaf) {
  // Regression: utilisations averaged from history differ in the last bit;
  // the split midpoint rounded onto one of them and left a leaf with no
  // jobs, whose estimate was NaN (the job then vanished from the queue).
  WorkloadEstimator e;
  const double u = 0.7;
  const double next = std::nextafter(u, 1.0);
  for (int i = 0; i < 100; ++i) {
    LucidFeatures f{"alice", "vc", 1, 0, i < 50 ? u : next, 4000};
    e.Observe(f, i < 50 ? 100 : 10000);
  }
  e.Retrain();
  for (double x : {u, next, 0.1, 0.99}) {
    double est = e.Estimate(LucidFeatures{"alice", "vc", 1, 0, x, 4000});
    EXPECT_TRUE(std::isfinite(est)) << x;
    EXPECT_GT(est, 0) << x;
  }
}

TEST(Lucid, SyntheticModelIsDeterministicAndBounded) {
  JobSpec spec = Job("x", 0, 1, 1);
  SimJob j;
  j.spec = &spec;
  SyntheticWorkloadModel m(3);
  JobProfile a = m.Profile(j), b = m.Profile(j);
  EXPECT_EQ(a.sm_util, b.sm_util);
  EXPECT_GE(a.sm_util, 0.2);
  EXPECT_LE(a.sm_util, 0.95);
  EXPECT_GT(AveragePairSpeed(0.2), AveragePairSpeed(0.9));
  EXPECT_EQ(UtilisationPairSpeeds(0.3, 0.4).first, 0.95);
  EXPECT_NEAR(UtilisationPairSpeeds(0.9, 0.9).first, 0.95 / 1.8, 1e-12);
}

// The main queue keeps (priority, job) order as the set it replaces did:
// ties broken by job, a repeated key ignored, erasing returns the next job.
TEST(LucidMainQueue, OrderedByPriorityThenJobLikeASet) {
  LucidMainQueue q;
  q.Insert({30.0, 4, 8, 0, 1000});
  q.Insert({10.0, 7, 1, 2, 2000});
  q.Insert({30.0, 2, 2, 1, 3000});
  q.Insert({10.0, 7, 1, 2, 2000});  // again: ignored
  q.Insert({5.0, 9, 4, 0, 4000});
  std::vector<int32_t> order;
  for (const QueuedJob& j : q) order.push_back(j.job);
  EXPECT_EQ(order, (std::vector<int32_t>{9, 7, 2, 4}));
  auto it = q.begin() + 1;  // job 7
  it = q.erase(it);
  ASSERT_NE(it, q.end());
  EXPECT_EQ(it->job, 2);
  EXPECT_EQ(it->gpus, 2);
  EXPECT_EQ(it->sharescore, 1);
  EXPECT_DOUBLE_EQ(it->gmem_mib, 3000);
  EXPECT_EQ(q.size(), 3u);
}

}  // namespace
}  // namespace schedmate

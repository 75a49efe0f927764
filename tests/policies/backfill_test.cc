// Backfilling on time estimates (policies/common/backfill.h): the planner's
// guarantees on random queues (EASY never delays the head's reservation,
// conservative never delays an earlier one), hand-worked scenarios under
// FIFO and Lucid, strict = the policies' old decisions, and the user-limit
// model's contract.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/random.h"
#include "policies/common/backfill.h"
#include "policies/common/user_limit_model.h"
#include "policies/lucid/lucid.h"
#include "policies/registry.h"
#include "sim/engine.h"

namespace schedmate {
namespace {

JobSpec Job(std::string id, int64_t submit, int32_t gpus, int64_t dur) {
  JobSpec j;
  j.id = std::move(id);
  j.name = j.id;
  j.vc = "main";
  j.submit_s = submit;
  j.gpus = gpus;
  j.duration_s = dur;
  return j;
}

struct Queued {
  int32_t gpus;
  int64_t run_s;
};

struct PassOutcome {
  std::vector<int32_t> started;  // positions in the queue
  std::vector<std::pair<int32_t, int64_t>> reservations;
  size_t looked_at = 0;  // jobs walked before the pass was over
};

// Walks `queue` as a policy does, with count placement: a job the pass
// allows starts when enough GPUs are free now.
PassOutcome Walk(BackfillMode mode, int64_t now, int32_t free_now, const std::vector<GpuRelease>& running,
                 const std::vector<Queued>& queue) {
  BackfillOptions o;
  o.mode = mode;
  o.max_candidates = 1000;
  BackfillPass pass(o, now, free_now, running);
  PassOutcome out;
  int32_t free = free_now;
  for (size_t i = 0; i < queue.size() && !pass.Over(); ++i) {
    const Queued& q = queue[i];
    ++out.looked_at;
    if (pass.MayStart(q.gpus, q.run_s) && q.gpus <= free) {
      pass.Started(q.gpus, q.run_s);
      free -= q.gpus;
      out.started.push_back(static_cast<int32_t>(i));
    } else {
      pass.Waits(q.gpus, q.run_s);
    }
  }
  out.reservations = pass.reservations();
  return out;
}

// Whether every started job and every reservation can hold its GPUs at once
// (no instant needs more GPUs than the running jobs leave free): then no
// job that started delayed any reservation.
bool AllHold(int64_t now, int32_t free_now, const std::vector<GpuRelease>& running, const std::vector<Queued>& queue,
             const PassOutcome& o) {
  FreeGpuProfile p(now, free_now, running);
  for (int32_t i : o.started) p.Reserve(now, queue[i].gpus, queue[i].run_s);
  for (auto [i, at] : o.reservations) p.Reserve(at, queue[i].gpus, queue[i].run_s);
  std::set<int64_t> instants{now};
  for (const GpuRelease& r : running) instants.insert(r.at_s);
  for (int32_t i : o.started) instants.insert(now + queue[i].run_s);
  for (auto [i, at] : o.reservations) instants.insert({at, at + queue[i].run_s});
  for (int64_t t : instants)
    if (p.FreeAt(t) < 0) return false;
  return true;
}

struct RandomCase {
  int64_t now = 1000;
  int32_t free_now = 0;
  std::vector<GpuRelease> running;
  std::vector<Queued> queue;
};

RandomCase Draw(Rng& rng) {
  RandomCase c;
  const int32_t total = 16;
  int32_t used = 0;
  while (used < total && rng.Uniform() < 0.8) {
    int32_t g = 1 + static_cast<int32_t>(rng.Below(static_cast<uint64_t>(total - used)));
    c.running.push_back({c.now + 1 + static_cast<int64_t>(rng.Below(500)), g});
    used += g;
  }
  c.free_now = total - used;
  for (int i = 0; i < 12; ++i) c.queue.push_back({1 + static_cast<int32_t>(rng.Below(total)), 1 + static_cast<int64_t>(rng.Below(600))});
  return c;
}

TEST(BackfillPlanner, EasyNeverDelaysTheHeadsReservation) {
  Rng rng(7);
  int with_backfill = 0;
  for (int round = 0; round < 500; ++round) {
    RandomCase c = Draw(rng);
    PassOutcome o = Walk(BackfillMode::kEasy, c.now, c.free_now, c.running, c.queue);
    ASSERT_LE(o.reservations.size(), 1u);
    ASSERT_TRUE(AllHold(c.now, c.free_now, c.running, c.queue, o)) << "round " << round;
    if (!o.reservations.empty()) {
      // The head's reservation is where strict would start it: the first
      // time the running jobs (and the jobs started ahead of it) leave room.
      const int32_t head = o.reservations[0].first;
      FreeGpuProfile ahead(c.now, c.free_now, c.running);
      for (int32_t i : o.started)
        if (i < head) ahead.Reserve(c.now, c.queue[i].gpus, c.queue[i].run_s);
      EXPECT_EQ(ahead.EarliestStart(c.queue[head].gpus, c.queue[head].run_s, c.now), o.reservations[0].second);
      with_backfill += o.started.size() > 0 && o.started.back() > head;
    }
  }
  EXPECT_GT(with_backfill, 20);  // the property was exercised, not vacuous
}

TEST(BackfillPlanner, ConservativeNeverDelaysAnEarlierReservation) {
  Rng rng(11);
  int with_backfill = 0;
  for (int round = 0; round < 500; ++round) {
    RandomCase c = Draw(rng);
    PassOutcome o = Walk(BackfillMode::kConservative, c.now, c.free_now, c.running, c.queue);
    ASSERT_TRUE(AllHold(c.now, c.free_now, c.running, c.queue, o)) << "round " << round;
    // Every job walked that did not start holds a reservation (the walk
    // ends early only once no GPU is free now).
    EXPECT_EQ(o.reservations.size() + o.started.size(), o.looked_at);
    if (!o.reservations.empty() && !o.started.empty() && o.started.back() > o.reservations[0].first) ++with_backfill;
  }
  EXPECT_GT(with_backfill, 20);
}

TEST(BackfillPlanner, StrictStopsAtTheFirstJobThatWaits) {
  PassOutcome o = Walk(BackfillMode::kStrict, 0, 4, {{100, 4}}, {{2, 10}, {8, 10}, {1, 1}});
  EXPECT_EQ(o.started, std::vector<int32_t>{0});
  EXPECT_TRUE(o.reservations.empty());
}

TEST(BackfillPlanner, ProfileFindsTheEarliestWindowLongEnough) {
  // 2 free now; +2 at 100; +4 at 200; a reservation takes 6 in [300, 400).
  FreeGpuProfile p(0, 2, {{100, 2}, {200, 4}});
  p.Reserve(300, 6, 100);
  EXPECT_EQ(p.EarliestStart(4, 50, 0), 100);
  EXPECT_EQ(p.EarliestStart(4, 250, 0), 400);  // [100, 350) would cross the reservation
  EXPECT_EQ(p.EarliestStart(8, 1, 0), 200);
  EXPECT_EQ(p.EarliestStart(9, 1, 0), std::nullopt);
  EXPECT_EQ(p.FreeAt(350), 2);
}

Result<SimResult> RunFifo(const Trace& t, const std::string& backfill, const std::string& estimate = "oracle") {
  PolicyConfig pc{.name = "fifo", .placement = "count"};
  pc.backfill = backfill;
  pc.backfill_estimate = estimate;
  auto policy = MakePolicy(pc);
  if (!policy.ok()) return policy.status();
  return Simulate(t, ClusterSpec{{{"", 1}}, 8, "V100"}, **policy);
}

// One node of 8. A (4 GPUs) runs 0-100. H (8 GPUs) waits for it; S (4 GPUs,
// 50 s) fits beside A and ends before H's reservation at 100; L (4 GPUs,
// 500 s) would hold GPUs H needs at 100.
Trace HoleBeforeTheHead() {
  Trace t;
  t.jobs = {Job("A", 0, 4, 100), Job("H", 1, 8, 50), Job("S", 2, 4, 50), Job("L", 3, 4, 500)};
  return t;
}

TEST(BackfillFifo, AShortJobFillsTheHoleBeforeTheHeadsReservation) {
  auto strict = RunFifo(HoleBeforeTheHead(), "strict");
  auto easy = RunFifo(HoleBeforeTheHead(), "easy");
  ASSERT_TRUE(strict.ok() && easy.ok());
  EXPECT_EQ(strict->jobs[2].first_start_s, 150);  // S behind H
  EXPECT_EQ(easy->jobs[2].first_start_s, 2);      // S in the hole, done at 52
  EXPECT_EQ(easy->jobs[3].first_start_s, 150);    // L would delay H: it waits
  // With exact estimates the head starts no later than under strict.
  EXPECT_EQ(strict->jobs[1].first_start_s, 100);
  EXPECT_EQ(easy->jobs[1].first_start_s, 100);
}

TEST(BackfillFifo, UserLimitsDecideByTheLimitsNotTheDurations) {
  // H's reservation sits at A's limit (A runs 100 s, but the planner only
  // knows its limit); S backfills iff its limit ends by then.
  auto easy = RunFifo(HoleBeforeTheHead(), "easy", "user-limit");
  ASSERT_TRUE(easy.ok()) << easy.status().ToString();
  UserLimitModel limits(1);
  const int64_t a_limit = limits.LimitFor(HoleBeforeTheHead().jobs[0]);
  const int64_t s_limit = limits.LimitFor(HoleBeforeTheHead().jobs[2]);
  EXPECT_GE(a_limit, 100);
  EXPECT_EQ(easy->jobs[2].first_start_s, 2 + s_limit <= a_limit ? 2 : 150);
}

// 8 GPUs. A (6 GPUs) runs 0-100. H1 (6 GPUs, 100 s) is reserved [100, 200)
// and leaves 2 GPUs free then; H2 (8 GPUs, 100 s) fits from 200. X (2 GPUs,
// 250 s) does not delay H1 but would delay H2.
Trace TwoReservations() {
  Trace t;
  t.jobs = {Job("A", 0, 6, 100), Job("H1", 1, 6, 100), Job("H2", 2, 8, 100), Job("X", 3, 2, 250)};
  return t;
}

TEST(BackfillFifo, ConservativeProtectsEveryReservationEasyOnlyTheHeads) {
  auto easy = RunFifo(TwoReservations(), "easy");
  auto conservative = RunFifo(TwoReservations(), "conservative");
  ASSERT_TRUE(easy.ok() && conservative.ok());
  EXPECT_EQ(easy->jobs[3].first_start_s, 3);             // X backfills
  EXPECT_EQ(easy->jobs[1].first_start_s, 100);           // H1 on time
  EXPECT_EQ(easy->jobs[2].first_start_s, 253);           // H2 waits for X
  EXPECT_EQ(conservative->jobs[1].first_start_s, 100);
  EXPECT_EQ(conservative->jobs[2].first_start_s, 200);   // H2 on time
  EXPECT_EQ(conservative->jobs[3].first_start_s, 300);   // X after both
}

// A seeded random trace on 4 nodes: every queue policy decides the same
// with backfill strict, whatever the estimate source, as with no backfill
// setting at all (the policies' behaviour before backfill existed).
TEST(BackfillFifo, StrictMakesTheSameDecisionsAsNoBackfill) {
  Rng rng(3);
  Trace t;
  for (int i = 0; i < 300; ++i)
    t.jobs.push_back(Job("j" + std::to_string(i), i * 40, 1 << rng.Below(6), 10 + static_cast<int64_t>(rng.Below(4000))));
  for (const char* name : {"fifo", "sjf", "qssf"}) {
    PolicyConfig base{.name = name};
    auto p0 = MakePolicy(base);
    ASSERT_TRUE(p0.ok());
    auto r0 = Simulate(t, ClusterSpec{{{"", 4}}, 8, "V100"}, **p0);
    ASSERT_TRUE(r0.ok());
    for (const char* estimate : {"oracle", "user-limit", "advisor"}) {
      PolicyConfig pc = base;
      pc.backfill = "strict";
      pc.backfill_estimate = estimate;
      auto p = MakePolicy(pc);
      ASSERT_TRUE(p.ok());
      auto r = Simulate(t, ClusterSpec{{{"", 4}}, 8, "V100"}, **p);
      ASSERT_TRUE(r.ok());
      for (size_t i = 0; i < t.jobs.size(); ++i)
        ASSERT_EQ(r->jobs[i].first_start_s, r0->jobs[i].first_start_s) << name << " " << estimate << " job " << i;
    }
    PolicyConfig easy = base;
    easy.backfill = "easy";
    auto pe = MakePolicy(easy);
    ASSERT_TRUE(pe.ok());
    auto re = Simulate(t, ClusterSpec{{{"", 4}}, 8, "V100"}, **pe);
    ASSERT_TRUE(re.ok());
    int differ = 0;
    for (size_t i = 0; i < t.jobs.size(); ++i) differ += re->jobs[i].first_start_s != r0->jobs[i].first_start_s;
    EXPECT_GT(differ, 0) << name << ": the trace must exercise backfill for the check above to mean anything";
  }
}

TEST(BackfillConfig, ErrorsNameTheField) {
  PolicyConfig pc{.name = "fifo"};
  pc.backfill = "aggressive";
  auto p = MakePolicy(pc);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("backfill"), std::string::npos);
  pc.backfill = "easy";
  pc.backfill_estimate = "guess";
  p = MakePolicy(pc);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("backfill_estimate"), std::string::npos);
  PolicyConfig t{.name = "tiresias-lucid"};
  t.backfill = "easy";
  EXPECT_FALSE(MakePolicy(t).ok());
}

class FlatModel final : public LucidWorkloadModel {
 public:
  JobProfile Profile(const SimJob&) const override { return {0.3, 4000, 0.99}; }
  std::pair<double, double> CoRunRates(const SimJob&, const SimJob&) const override { return {0.5, 0.5}; }
};

class HistoryOnly final : public LucidSemanticHooks {
 public:
  std::optional<HistoryFacts> AtSubmit(const SimJob& j, int64_t, int64_t* latency) override {
    *latency = 0;
    auto sp = spreads.find(j.spec->id);
    return HistoryFacts{facts.at(j.spec->id), {0.3, 4000, 0.99}, sp == spreads.end() ? 0.0 : sp->second};
  }
  std::optional<int64_t> PackCheckAfter(const SimJob&, const SimJob&) override { return std::nullopt; }
  std::optional<double> PackSlowdown(const SimJob&, const SimJob&, int64_t, int64_t) override { return std::nullopt; }
  void AtEnd(const SimJob&, int64_t) override {}
  std::map<std::string, double> facts;
  std::map<std::string, double> spreads;  // of the matched durations, per job id (default 0)
};

// Lucid with packing off (3 arrivals in the last half hour): run6 holds 6 of
// 8 GPUs until 1000; head4 (history: 10 s x 4 GPUs) waits at the head;
// tail1 (1 GPU, 100 s) fits beside run6. Strict blocks it behind head4 (as
// LucidTest.PriorityIsEstimateTimesGpusAndWithoutPackingTheHeadBlocks);
// EASY starts it at once, and head4 still starts at 1000.
TEST(BackfillLucid, TheMainQueueBackfillsWhilePackingIsOff) {
  Trace t;
  t.jobs = {Job("run6", 0, 6, 1000), Job("head4", 10, 4, 100), Job("tail1", 20, 1, 100)};
  FlatModel model;
  for (BackfillMode mode : {BackfillMode::kStrict, BackfillMode::kEasy}) {
    HistoryOnly hooks;
    hooks.facts = {{"run6", 1000}, {"head4", 10}, {"tail1", 1000}};
    LucidOptions o;
    o.backfill.mode = mode;
    LucidPolicy p(o, &model, &hooks);
    auto r = Simulate(t, ClusterSpec{{{"main", 1}}, 8, "A100"}, p);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->jobs[1].first_start_s, 1000);
    EXPECT_EQ(r->jobs[2].first_start_s, mode == BackfillMode::kStrict ? 1000 : 20);
    EXPECT_EQ(p.stats().backfilled, mode == BackfillMode::kStrict ? 0 : 1);
  }
}

// Lucid's main queue plans with the Advisor's spread too: run6 holds 6 of 8
// GPUs until 1000 s, head8 waits for a reservation there, and tail1 (1 GPU,
// 100 s by history) backfills at 20 s unless its matches spread 20-fold
// (then it would still hold a GPU at 1000 s and delay head8: it waits).
TEST(BackfillLucid, AdvisorSpreadWidensLucidsHistoryEstimates) {
  Trace t;
  t.jobs = {Job("run6", 0, 6, 1000), Job("head8", 10, 8, 100), Job("tail1", 20, 1, 100)};
  FlatModel model;
  for (BackfillEstimate source : {BackfillEstimate::kAdvisor, BackfillEstimate::kAdvisorSpread}) {
    HistoryOnly hooks;
    hooks.facts = {{"run6", 1000}, {"head8", 10}, {"tail1", 100}};
    hooks.spreads["tail1"] = 20;
    LucidOptions o;
    o.backfill.mode = BackfillMode::kEasy;
    o.backfill.estimate = source;
    LucidPolicy p(o, &model, &hooks);
    auto r = Simulate(t, ClusterSpec{{{"main", 1}}, 8, "A100"}, p);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->jobs[1].first_start_s, 1000);
    EXPECT_EQ(r->jobs[2].first_start_s, source == BackfillEstimate::kAdvisor ? 20 : 1100);  // after head8 (1000-1100)
  }
}

// A running job past its planned end: "slack" expects it to end a minute
// from now, "age" to run as long again as it has run.
TEST(BackfillPlanner, OverdueJobsEndBySlackOrByAge) {
  JobSpec spec = Job("late", 0, 4, 5000);
  SimJob j;
  j.spec = &spec;
  j.gpus = 4;
  j.phase = JobPhase::kRunning;
  j.last_start_s = 0;
  BackfillOptions o;
  o.mode = BackfillMode::kEasy;
  o.estimate = BackfillEstimate::kAdvisor;
  EXPECT_EQ(PlannedEnd(j, o, 100, 50), 100);  // not overdue: its estimate
  EXPECT_EQ(PlannedEnd(j, o, 100, 1000), 1060);
  o.overdue = OverdueRule::kAge;
  EXPECT_EQ(PlannedEnd(j, o, 100, 50), 100);
  EXPECT_EQ(PlannedEnd(j, o, 100, 1000), 2000);
  EXPECT_EQ(PlannedEnd(j, o, 20, 30), 90);  // at least the slack
  ASSERT_TRUE(ParseOverdueRule("age").ok());
  EXPECT_FALSE(ParseOverdueRule("later").ok());
  EXPECT_NE(ParseOverdueRule("later").status().message().find("slack, age"), std::string::npos);
}

// advisor-spread plans with the estimate widened by its spread; an estimate
// without one (or a bad one) is used as it is.
TEST(BackfillPlanner, AdvisorSpreadWidensTheEstimate) {
  BackfillOptions o;
  o.estimate = BackfillEstimate::kAdvisorSpread;
  BackfillEstimates e(o);
  JobSpec a = Job("a", 0, 1, 10), b = Job("b", 0, 1, 10), c = Job("c", 0, 1, 10);
  SimJob ja, jb, jc;
  ja.spec = &a, ja.index = JobIndex(0);
  jb.spec = &b, jb.index = JobIndex(1);
  jc.spec = &c, jc.index = JobIndex(2);
  e.AtSubmit(ja, 400, 0.5);
  e.AtSubmit(jb, 400, 0);
  e.AtSubmit(jc, 400, std::nan(""));
  EXPECT_DOUBLE_EQ(e.Of(ja.index), 600);
  EXPECT_DOUBLE_EQ(e.Of(jb.index), 400);
  EXPECT_DOUBLE_EQ(e.Of(jc.index), 400);
  ASSERT_TRUE(ParseBackfillEstimate("advisor-spread").ok());
  EXPECT_EQ(BackfillEstimateName(BackfillEstimate::kAdvisorSpread), "advisor-spread");
}

TEST(UserLimitModel, NeverBelowTheDurationAndTheSameForTheSameJob) {
  UserLimitModel a(1), again(1), other(2);
  UserLimitParams p;
  int at_max = 0, differ = 0;
  for (int i = 0; i < 2000; ++i) {
    JobSpec j = Job("job-" + std::to_string(i), 0, 1, 1 + (static_cast<int64_t>(i) * 7919) % (9 * 86400));
    const int64_t limit = a.LimitFor(j);
    ASSERT_GE(limit, j.duration_s) << j.id;
    ASSERT_EQ(limit, again.LimitFor(j)) << j.id;
    differ += limit != other.LimitFor(j);
    at_max += limit == p.max_limit_s;
  }
  EXPECT_GT(differ, 100);                    // the seed matters
  EXPECT_GT(at_max, 2000 * p.max_limit_share * 0.8);  // the site maximum is popular
  // Short jobs get a round value from the popular list.
  JobSpec shortjob = Job("short", 0, 1, 100);
  const int64_t l = a.LimitFor(shortjob);
  EXPECT_TRUE(l == p.max_limit_s || std::count(p.popular_s.begin(), p.popular_s.end(), l) == 1) << l;
}

}  // namespace
}  // namespace schedmate

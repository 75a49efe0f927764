#include "traces/synthesizer.h"

#include <cmath>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "traces/trace_stats.h"

namespace schedmate {
namespace {

TEST(SynthesizerTest, ReproducibleForASeedAndDifferentAcrossSeeds) {
  SynthOptions o;
  o.jobs = 500;
  o.seed = 3;
  auto p = *FindProfile("philly");
  auto a = SynthesizeTrace(p, o), b = SynthesizeTrace(p, o);
  o.seed = 4;
  auto c = SynthesizeTrace(p, o);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->jobs, b->jobs);
  EXPECT_NE(a->jobs, c->jobs);
  EXPECT_TRUE(a->synthetic);
  EXPECT_NE(a->source.find("synthetic:philly"), std::string::npos);
}

// Every built-in profile is matched within a few percent on the statistics
// it publishes, at 2,000 jobs.
TEST(SynthesizerTest, CalibratedToEveryBuiltinProfile) {
  for (const auto& p : BuiltinProfiles()) {
    SynthOptions o;
    o.jobs = 2000;
    CalibrationReport r;
    auto t = SynthesizeTrace(p, o, &r);
    ASSERT_TRUE(t.ok()) << p.name;
    for (const auto& row : r.rows) {
      double tol = row.stat == "cancel_rate" ? 0.05 : 0.04;
      EXPECT_LT(std::fabs(row.RelativeError()), tol)
          << p.name << " " << row.stat << " target " << row.target
          << " generated " << row.generated;
    }
    for (const auto& j : t->jobs) {
      EXPECT_GE(j.duration_s, 1);
      EXPECT_LE(j.duration_s, p.max_duration_s);
      EXPECT_LE(j.gpus, p.max_gpus);
      EXPECT_EQ(j.gpus & (j.gpus - 1), 0) << "powers of two";
    }
  }
}

TEST(SynthesizerTest, TargetLoadSetsTheSpan) {
  SynthOptions o;
  o.jobs = 1000;
  o.cluster_gpus = 64;
  o.target_load = 0.8;
  o.max_gpus_cap = 64;
  CalibrationReport r;
  auto t = SynthesizeTrace(*FindProfile("seren"), o, &r);
  ASSERT_TRUE(t.ok());
  EXPECT_NEAR(r.offered_load, 0.8, 1e-9);
  double demand = 0;
  for (const auto& j : t->jobs) {
    demand += static_cast<double>(j.duration_s) * j.gpus;
    EXPECT_LE(j.gpus, 64);
  }
  EXPECT_NEAR(demand / (64 * r.span_s), 0.8, 1e-6);
}

TEST(SynthesizerTest, ProjectsShareNameUserAndGpusWithCorrelatedDurations) {
  SynthOptions o;
  o.jobs = 2000;
  auto t = SynthesizeTrace(*FindProfile("venus"), o);
  ASSERT_TRUE(t.ok());
  std::map<std::string, std::vector<const JobSpec*>> by_name;
  for (const auto& j : t->jobs) by_name[j.name].push_back(&j);
  EXPECT_LT(by_name.size(), t->jobs.size() / 2);
  // Within-project spread of log duration is far below the overall spread.
  double within = 0, overall = 0, mean_all = 0;
  int n_within = 0;
  for (const auto& j : t->jobs) mean_all += std::log(j.duration_s);
  mean_all /= t->jobs.size();
  for (const auto& j : t->jobs) overall += std::pow(std::log(j.duration_s) - mean_all, 2);
  overall /= t->jobs.size();
  for (const auto& [name, jobs] : by_name) {
    double m = 0;
    for (auto* j : jobs) m += std::log(j->duration_s);
    m /= jobs.size();
    for (auto* j : jobs) {
      within += std::pow(std::log(j->duration_s) - m, 2);
      ++n_within;
      EXPECT_EQ(j->user, jobs[0]->user);
      EXPECT_EQ(j->gpus, jobs[0]->gpus);
    }
  }
  within /= n_within;
  EXPECT_LT(within, overall / 4) << within << " vs " << overall;
}

TEST(SynthesizerTest, RejectsBadOptions) {
  SynthOptions o;
  o.jobs = 0;
  EXPECT_FALSE(SynthesizeTrace(*FindProfile("seren"), o).ok());
  o.jobs = 10;
  o.target_load = 0.5;  // without cluster_gpus
  EXPECT_FALSE(SynthesizeTrace(*FindProfile("seren"), o).ok());
  EXPECT_FALSE(FindProfile("mars").ok());
}

}  // namespace
}  // namespace schedmate

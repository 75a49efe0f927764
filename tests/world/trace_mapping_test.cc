// Mapping trace jobs to workloads: deterministic, projects share code,
// durations fit their project, failures follow the mix, the trace's own
// names and states are respected.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "traces/synthesizer.h"
#include "world/trace_mapping.h"

namespace schedmate {
namespace {

JobSpec Job(std::string id, std::string user, std::string name, int gpus, int64_t submit, int64_t duration,
            EndState state = EndState::kCompleted) {
  JobSpec j;
  j.id = std::move(id);
  j.user = std::move(user);
  j.name = std::move(name);
  j.gpus = gpus;
  j.submit_s = submit;
  j.duration_s = duration;
  j.state = state;
  return j;
}

Trace SyntheticTrace(int jobs) {
  SynthOptions o;
  o.jobs = jobs;
  o.seed = 4;
  auto t = SynthesizeTrace(*FindProfile("seren"), o);
  EXPECT_TRUE(t.ok());
  return *t;
}

WorkloadCatalog Catalog() { return WorkloadCatalog::Build(nullptr, nullptr); }

TEST(TraceMapping, DeterministicFromTheSeed) {
  Trace t = SyntheticTrace(500);
  WorkloadCatalog c = Catalog();
  WorldMap a = MapTrace(t, c), b = MapTrace(t, c);
  ASSERT_EQ(a.jobs.size(), t.jobs.size());
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].repo_key, b.jobs[i].repo_key);
    EXPECT_EQ(a.jobs[i].project, b.jobs[i].project);
  }
  MappingParams other;
  other.seed = 2;
  WorldMap d = MapTrace(t, c, other);
  int differ = 0;
  for (size_t i = 0; i < a.jobs.size(); ++i) differ += a.jobs[i].repo_key != d.jobs[i].repo_key;
  EXPECT_GT(differ, 400);
}

TEST(TraceMapping, ResubmissionsShareCodeUnlessRenamedOrEdited) {
  Trace t;
  for (int i = 0; i < 40; ++i) t.jobs.push_back(Job("j" + std::to_string(i), "alice", "sft", 8, i * 3600, 7200));
  MappingParams p;
  p.swap_model_prob = p.swap_dataset_prob = 0;
  p.rename_prob = 0;
  p.edit_prob = 0;
  WorldMap m = MapTrace(t, Catalog(), p);
  std::set<uint64_t> keys;
  for (const auto& j : m.jobs) keys.insert(j.repo_key);
  EXPECT_EQ(keys.size(), 1u);  // one project, one code base
  EXPECT_EQ(m.stats.projects, 1);
  EXPECT_EQ(m.jobs[5].job_name, "sft");
  EXPECT_EQ(m.jobs[5].truth.num_gpus, 8);
  p.rename_prob = 1;
  WorldMap r = MapTrace(t, Catalog(), p);
  keys.clear();
  for (const auto& j : r.jobs) keys.insert(j.repo_key);
  EXPECT_EQ(keys.size(), t.jobs.size());  // every member a renamed copy
  for (const auto& j : r.jobs) EXPECT_EQ(j.truth.model_name, r.jobs[0].truth.model_name);
}

TEST(TraceMapping, SameNameMayTrainAnotherModel) {
  Trace t;
  for (int i = 0; i < 200; ++i) t.jobs.push_back(Job("j" + std::to_string(i), "bob", "exp", 1, i * 60, 600));
  MappingParams p;
  p.swap_model_prob = 0.2;
  p.swap_dataset_prob = 0;
  WorldMap m = MapTrace(t, Catalog(), p);
  std::set<std::string> families;
  for (const auto& j : m.jobs) {
    families.insert(j.truth.family);
    EXPECT_EQ(j.job_name, "exp");
    // Each model's budget is in its own iteration type.
    if (j.truth.iteration_type == "step") EXPECT_EQ(j.total_steps, j.truth.iterations) << j.truth.family;
    else EXPECT_GE(j.total_steps, j.truth.iterations) << j.truth.family;
    EXPECT_NEAR(j.truth.seconds_per_iteration * static_cast<double>(j.truth.iterations), j.step_time_s * static_cast<double>(j.total_steps),
                1e-6 * j.step_time_s * static_cast<double>(j.total_steps));
  }
  EXPECT_GT(families.size(), 3u);
  EXPECT_GT(m.stats.swapped, 20);
}

TEST(TraceMapping, UnnamedJobsJoinProjectsWithFittingDurations) {
  Trace t;  // Philly-like: VC, no user, no name, no state
  for (int i = 0; i < 3000; ++i) {
    JobSpec j = Job("p" + std::to_string(i), "", "", 1 << (i % 3), i * 120, 60 + (i * 7919) % 20000, EndState::kUnknown);
    j.vc = "vc" + std::to_string(i % 4);
    t.jobs.push_back(j);
  }
  MappingParams p;
  WorldMap m = MapTrace(t, Catalog(), p);
  EXPECT_EQ(m.stats.drawn_states, 3000);
  EXPECT_NEAR(static_cast<double>(m.stats.failed) / 3000, p.unknown_fail_rate, 0.03);
  std::map<int, std::vector<size_t>> members;
  for (size_t i = 0; i < m.jobs.size(); ++i) members[m.jobs[i].project].push_back(i);
  EXPECT_LT(static_cast<int64_t>(members.size()), 3000 * 6 / 10);
  int checked = 0;
  for (const auto& [project, idx] : members) {
    std::vector<double> done;
    for (size_t i : idx) {
      const JobSpec& j = t.jobs[i];
      EXPECT_EQ(j.gpus, t.jobs[idx[0]].gpus);
      EXPECT_EQ(j.vc, t.jobs[idx[0]].vc);
      if (m.jobs[i].end_state == EndState::kCompleted) done.push_back(static_cast<double>(j.duration_s));
    }
    // Completed members stay within the tolerance of each other's typical duration (x2 either side → x4 span at most).
    if (done.size() >= 2) {
      ++checked;
      auto [lo, hi] = std::minmax_element(done.begin(), done.end());
      EXPECT_LE(*hi / *lo, p.duration_tolerance * p.duration_tolerance * 1.0001) << "project " << project;
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(TraceMapping, StepsAndBudgetsFitTheDuration) {
  Trace t = SyntheticTrace(400);
  WorldMap m = MapTrace(t, Catalog());
  for (size_t i = 0; i < m.jobs.size(); ++i) {
    const MappedJob& j = m.jobs[i];
    ASSERT_GT(j.step_time_s, 0);
    EXPECT_LE(j.steps_run, j.total_steps);
    EXPECT_LE(static_cast<double>(j.steps_run) * j.step_time_s, static_cast<double>(t.jobs[i].duration_s) + 1e-6);
    EXPECT_EQ(j.truth.num_gpus, std::max(t.jobs[i].gpus, 1));
    EXPECT_EQ(j.failure.has_value(), IsFailure(j.end_state) && j.end_state != EndState::kTimeout) << i;
  }
}

TEST(TraceMapping, FailureCausesFollowTheMix) {
  Trace t = SyntheticTrace(6000);
  WorldMap m = MapTrace(t, Catalog());
  std::map<std::string, int> causes;
  int failed = 0;
  for (const auto& j : m.jobs)
    if (j.failure) ++failed, ++causes[j.failure->category];
  ASSERT_GT(failed, 500);
  FailureMix mix;
  EXPECT_NEAR(causes["infrastructure"] / double(failed), mix.infrastructure, 0.04);
  EXPECT_NEAR(causes["framework"] / double(failed), mix.framework, 0.04);
  EXPECT_NEAR(causes["user_script"] / double(failed), mix.user_script, 0.04);
}

TEST(TraceMapping, GpuTimeBucketsAndSizeClasses) {
  EXPECT_EQ(GpuTimeBucket(1, 3599), 0);
  EXPECT_EQ(GpuTimeBucket(1, 3600), 1);
  EXPECT_EQ(GpuTimeBucket(8, 4 * 3600), 2);
  EXPECT_EQ(GpuTimeBucket(64, 2 * 3600), 3);
  EXPECT_EQ(SizeClassOf("qwen2.5-14b"), 2);
  EXPECT_EQ(SizeClassOf("clip"), 1);
  EXPECT_EQ(SizeClassOf("mobilenet"), 0);
  // Long multi-GPU jobs get more large models than short ones.
  Trace t = SyntheticTrace(4000);
  WorldMap m = MapTrace(t, Catalog());
  const auto& b = m.stats.bucket_class_projects;
  auto large_share = [&](int k) { return double(b[k][2]) / std::max<int64_t>(1, b[k][0] + b[k][1] + b[k][2]); };
  EXPECT_LT(large_share(0), large_share(2));
}

}  // namespace
}  // namespace schedmate

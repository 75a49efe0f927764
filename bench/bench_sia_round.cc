// Sia's policy time per round: goodput rows + MILP (CBC) + placement, on
// the default 64-GPU cluster with 30 active jobs and on the cluster scaled
// ×32 (2,048 GPUs) with 1,000 active jobs. Jobs cycle through the profiled
// applications of ../shared/traces/sia/profiles (skipped when absent); each
// has its 1-GPU bootstrap profile and two minutes of training on 2 GPUs, so
// its rows come from fitted models. Rounds run back to back on one policy,
// so the restart factor sees the previous round's choices.
// Issue 17 goal: ≤ 20 ms median at 64 GPUs, ≤ 300 ms at 2,048 (research:
// 96 ms median / 426 ms p95 at 64, about 1 s at 2,048).
// isolated=1 runs CBC in a forked child as `schedmate sia` does (solver/isolated_solver.h), so
// the two rows of a size give the cost of that isolation; variant (ParamsFor) is how the
// round solves, 0 as before the issue-17 speed-up, 3 Sia's default now, so one run gives the ratio.
// Wall time is the manual time; on a shared machine read the CPU column.
// Run: build/bin/bench_sia_round (per-round median and p95 in ms).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <tuple>

#include <benchmark/benchmark.h>

#include "policies/sia/sia_placement.h"
#include "policies/sia/sia_policy.h"
#include "solver/cbc_solver.h"
#include "solver/isolated_solver.h"
#include "experiments/sia_inputs.h"

namespace schedmate::sia {
namespace {

const std::string kProfiles = std::string(SCHEDMATE_SHARED_DIR) + "/traces/sia/profiles";

// A job of `app` after its bootstrap profile and 120 s on 2 GPUs of `type`;
// nullptr when the application has no constants or no profile on a type.
std::unique_ptr<SiaJob> TrainedJob(const SiaCluster& c, const AppProfile& app, int index, int type) {
  auto constants = LookupAppConstants(app.name);
  if (!constants.ok()) return nullptr;
  std::vector<AppModel> models;
  for (const auto& t : c.types) {
    auto m = AppModel::Create(app, t.name, constants->max_epochs);
    if (!m.ok()) return nullptr;
    models.push_back(std::move(*m));
  }
  auto job = std::make_unique<SiaJob>(app.name + "-" + std::to_string(index), 0, 0, std::move(models), *constants);
  PerfSeed seed;
  for (int t = 0; t < job->num_types(); ++t) {
    std::vector<PerfObservation> obs;
    for (const auto& s : job->app_on(t).OneGpuSamples()) obs.push_back({1, 1, s.local_bsz, s.step_time_s, s.sync_time_s});
    seed.by_type.push_back(std::move(obs));
  }
  seed.grad = job->app_on(0).GradAt(job->app_on(0).init_batch_size(), 0);
  job->Seed(seed);
  job->Reallocate(type, {2});
  job->Step(0, 120);
  return job;
}

struct Setup {
  SiaCluster cluster;
  std::vector<std::unique_ptr<SiaJob>> jobs;
  std::string error;
};

Setup MakeSetup(int scale, int num_jobs) {
  Setup s;
  s.cluster = ScaleCluster(DefaultSiaCluster(), scale);
  if (!std::filesystem::exists(kProfiles)) {
    s.error = kProfiles + " absent";
    return s;
  }
  auto loaded = LoadSiaAppProfiles(kProfiles);
  if (!loaded.ok()) {
    s.error = loaded.status().ToString();
    return s;
  }
  std::map<std::string, AppProfile>& profiles = *loaded;
  std::vector<const AppProfile*> apps;
  for (const auto& [name, p] : profiles) apps.push_back(&p);
  int num_types = static_cast<int>(s.cluster.types.size());
  for (int i = 0; static_cast<int>(s.jobs.size()) < num_jobs && i < num_jobs * 4; ++i) {
    auto job = TrainedJob(s.cluster, *apps[i % apps.size()], i, i % num_types);
    if (job) s.jobs.push_back(std::move(job));
  }
  if (s.jobs.empty()) s.error = "no application in " + kProfiles + " has constants";
  return s;
}

// One round: Decide, then place every type's chosen counts on its nodes.
void Round(SiaPolicy& policy, const std::vector<const SiaJob*>& jobs, const std::vector<int>& capacity,
           int64_t now_s) {
  RoundDecision d = policy.Decide(jobs, capacity, now_s);
  std::vector<std::vector<int>> gpus(capacity.size());
  for (const auto& [name, c] : d.choice)
    if (c >= 0) gpus[policy.options()[c].type].push_back(policy.options()[c].gpus);
  for (size_t t = 0; t < gpus.size(); ++t)
    benchmark::DoNotOptimize(PlaceOnType(policy.cluster().types[t], gpus[t]));
}

// How a round solves, to measure each change against the first
// (issue 17: CBC's integer preprocessing was most of a 2,048-GPU round).
//   0  as before: CBC's defaults, every useful column, no start
//   1  CBC's integer preprocessing off
//   2  1 + options dominated within a type left out
//   3  2 + started from the previous round's allocation (Sia's default)
SiaParams ParamsFor(int variant) {
  SiaParams p;
  p.milp.preprocess = variant < 1;
  p.prune_dominated = variant >= 2;
  p.warm_start = variant >= 3;
  return p;
}

// The jobs of one size, shared by the variants (their fits are the slow part of setting up).
const Setup& SetupFor(int scale, int num_jobs) {
  static std::map<std::pair<int, int>, std::unique_ptr<Setup>> setups;
  std::unique_ptr<Setup>& s = setups[{scale, num_jobs}];
  if (!s) s = std::make_unique<Setup>(MakeSetup(scale, num_jobs));
  return *s;
}

// The policy of one configuration, kept across repetitions so that each
// repetition is the next round of the same run.
struct Run {
  const Setup* setup = nullptr;
  CbcSolver solver;
  IsolatedSolver isolated{&solver};  // what `schedmate sia` uses: CBC in a forked child
  std::unique_ptr<SiaPolicy> policy;
  std::vector<const SiaJob*> views;
  std::vector<int> capacity;
  int64_t now_s = 3600;
};

Run& RunFor(int scale, int num_jobs, bool isolated, int variant) {
  static std::map<std::tuple<int, int, bool, int>, std::unique_ptr<Run>> runs;
  std::unique_ptr<Run>& r = runs[{scale, num_jobs, isolated, variant}];
  if (r) return *r;
  r = std::make_unique<Run>();
  r->setup = &SetupFor(scale, num_jobs);
  const SiaCluster& c = r->setup->cluster;
  r->policy = std::make_unique<SiaPolicy>(c, ParamsFor(variant),
                                          isolated ? static_cast<MilpSolver*>(&r->isolated) : &r->solver);
  for (const auto& j : r->setup->jobs) r->views.push_back(j.get());
  for (size_t t = 0; t < c.types.size(); ++t) r->capacity.push_back(c.TypeGpus(static_cast<int>(t)));
  return *r;
}

void BM_SiaRound(benchmark::State& state) {
  Run& r = RunFor(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), state.range(2) != 0,
                  static_cast<int>(state.range(3)));
  if (!r.setup->error.empty()) {
    state.SkipWithError(r.setup->error.c_str());
    return;
  }
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    Round(*r.policy, r.views, r.capacity, r.now_s);
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    r.now_s += 60;
  }
  state.counters["gpus"] = r.setup->cluster.TotalGpus();
  state.counters["jobs"] = static_cast<double>(r.views.size());
}

double Percentile95(const std::vector<double>& v) {
  std::vector<double> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  return sorted[static_cast<size_t>(0.95 * static_cast<double>(sorted.size() - 1))];
}

// Each repetition is one round, so the aggregates are per-round statistics.
BENCHMARK(BM_SiaRound)
    ->ArgNames({"scale", "jobs", "isolated", "variant"})
    ->Args({1, 30, 0, 0})
    ->Args({1, 30, 0, 3})
    ->Args({1, 30, 1, 3})
    ->Args({32, 1000, 0, 0})
    ->Args({32, 1000, 0, 1})
    ->Args({32, 1000, 0, 2})
    ->Args({32, 1000, 0, 3})
    ->Args({32, 1000, 1, 3})
    ->Iterations(1)
    ->Repetitions(40)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("p95", Percentile95)
    ->ReportAggregatesOnly();

// Variant `variant` beside variant 0 on the same jobs, round after round
// (each policy sees its own previous choices): rounds whose choices differ,
// the largest relative objective difference (ties or the 1e-4 gap), and the
// GPUs each hands out. Timing is not the point; one iteration.
void BM_SiaSameDecisions(benchmark::State& state) {
  const Setup& setup = SetupFor(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  if (!setup.error.empty()) {
    state.SkipWithError(setup.error.c_str());
    return;
  }
  CbcSolver solver;
  SiaPolicy before(setup.cluster, ParamsFor(0), &solver), after(setup.cluster, ParamsFor(static_cast<int>(state.range(2))), &solver);
  std::vector<const SiaJob*> views;
  for (const auto& j : setup.jobs) views.push_back(j.get());
  std::vector<int> capacity;
  for (size_t t = 0; t < setup.cluster.types.size(); ++t) capacity.push_back(setup.cluster.TypeGpus(static_cast<int>(t)));
  int differ = 0, rounds = 0;
  double max_rel = 0, gpus_before = 0, gpus_after = 0;
  for (auto _ : state) {
    for (int r = 0; r < 20; ++r, ++rounds) {
      int64_t now = 3600 + 60 * r;
      RoundDecision a = before.Decide(views, capacity, now), b = after.Decide(views, capacity, now);
      if (a.choice != b.choice) ++differ;
      max_rel = std::max(max_rel, std::abs(a.objective - b.objective) / std::max(1e-9, std::abs(a.objective)));
      for (const auto& [n, c] : a.choice) gpus_before += c >= 0 ? before.options()[c].gpus : 0;
      for (const auto& [n, c] : b.choice) gpus_after += c >= 0 ? after.options()[c].gpus : 0;
    }
  }
  state.counters["rounds"] = rounds;
  state.counters["differ"] = differ;
  state.counters["max_rel_obj"] = max_rel;
  state.counters["gpus_v0"] = gpus_before / rounds;
  state.counters["gpus_v"] = gpus_after / rounds;
}
BENCHMARK(BM_SiaSameDecisions)
    ->ArgNames({"scale", "jobs", "variant"})
    ->Args({1, 30, 1})
    ->Args({1, 30, 2})
    ->Args({1, 30, 3})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace schedmate::sia

BENCHMARK_MAIN();

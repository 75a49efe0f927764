// Mapping Philly's 82,247 jobs to workloads and materialising each job's
// metadata (workload truth, repository content key, launch command) — issue
// 6's target: <= 30 s. Beside it, in the same run: mapping alone, and the
// eager baseline that generates every job's repository instead of once per
// content key. Skips with a message when ../shared is absent.
#include <filesystem>
#include <string>

#include <benchmark/benchmark.h>

#include "traces/trace_loader.h"
#include "world/job_artifacts.h"
#include "world/trace_mapping.h"

namespace schedmate {
namespace {

const std::string kPhilly = std::string(SCHEDMATE_SHARED_DIR) + "/traces/philly/philly.csv";

struct Fixture {
  Trace trace;
  WorkloadCatalog catalog = WorkloadCatalog::FromSharedOrModel(SCHEDMATE_SHARED_DIR);
  bool ok = false;
  Fixture() {
    auto t = LoadTraceFile(kPhilly, TraceFormat::kPhilly);
    if (!t.ok()) return;
    trace = std::move(t).value();
    ok = true;
  }
};

Fixture& F() {
  static Fixture f;
  return f;
}

bool Skip(benchmark::State& state) {
  if (F().ok) return false;
  state.SkipWithError(("needs " + kPhilly + " (../shared absent)").c_str());
  return true;
}

void BM_MapPhilly(benchmark::State& state) {
  if (Skip(state)) return;
  for (auto _ : state) benchmark::DoNotOptimize(MapTrace(F().trace, F().catalog).stats.projects);
  state.counters["jobs"] = static_cast<double>(F().trace.jobs.size());
}

// Map, then every job's launch command through the content-keyed cache.
void BM_MapAndMetadataLazy(benchmark::State& state) {
  if (Skip(state)) return;
  size_t generated = 0, bytes = 0;
  for (auto _ : state) {
    WorldMap m = MapTrace(F().trace, F().catalog);
    RepoCache cache(4096);
    bytes = 0;
    for (const MappedJob& j : m.jobs) bytes += cache.Get(j).command.size();
    generated = cache.generated();
  }
  state.counters["repos_generated"] = static_cast<double>(generated);
  state.counters["command_bytes"] = static_cast<double>(bytes);
}

// Baseline: a repository generated for every job.
void BM_MapAndMetadataEager(benchmark::State& state) {
  if (Skip(state)) return;
  for (auto _ : state) {
    WorldMap m = MapTrace(F().trace, F().catalog);
    size_t bytes = 0;
    for (const MappedJob& j : m.jobs) bytes += GenerateRepo(j.truth, j.style, j.layout_seed).command.size();
    benchmark::DoNotOptimize(bytes);
  }
}

BENCHMARK(BM_MapPhilly)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_MapAndMetadataLazy)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_MapAndMetadataEager)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace schedmate

BENCHMARK_MAIN();

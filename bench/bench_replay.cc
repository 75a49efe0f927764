// Trace replay speed, every policy side by side in one run.
//  - Philly: the whole of ../shared/traces/philly/philly.csv on Philly's VCs
//    (skipped when absent). Targets: FIFO <= 2 s, tiresias-lucid <= 20 s.
//  - Synthetic: 100k Seren-like jobs on 256 GPUs at load 0.95 (contended).
//  - Loading: parsing philly.csv.
// Counters: events/s and jobs. Run: build/bin/bench_replay
#include <filesystem>

#include <benchmark/benchmark.h>

#include "policies/registry.h"
#include "sim/engine.h"
#include "traces/synthesizer.h"
#include "traces/trace_loader.h"
#include "traces/vc_config.h"

namespace schedmate {
namespace {

const std::string kPhilly = std::string(SCHEDMATE_SHARED_DIR) + "/traces/philly/";

struct Setup {
  Trace trace;
  ClusterSpec cluster;
  std::string error;
};

const Setup& Philly() {
  static const Setup s = [] {
    Setup s;
    if (!std::filesystem::exists(kPhilly + "philly.csv")) {
      s.error = kPhilly + "philly.csv absent";
      return s;
    }
    auto t = LoadTraceFile(kPhilly + "philly.csv", TraceFormat::kPhilly);
    auto vcs = LoadVcConfigFile(kPhilly + "philly_vc.csv");
    if (!t.ok() || !vcs.ok()) {
      s.error = "cannot load Philly";
      return s;
    }
    s.trace = std::move(t).value();
    for (auto& v : *vcs) s.cluster.vcs.push_back({v.name, v.nodes});
    return s;
  }();
  return s;
}

const Setup& Synthetic() {
  static const Setup s = [] {
    Setup s;
    SynthOptions o;
    o.jobs = 100000;
    o.cluster_gpus = 256;
    o.max_gpus_cap = 256;
    o.target_load = 0.95;
    s.trace = *SynthesizeTrace(*FindProfile("seren"), o);
    s.cluster.vcs = {{"", 32}};
    return s;
  }();
  return s;
}

void Replay(benchmark::State& state, const Setup& (*setup)(), std::string policy) {
  const Setup& s = setup();
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  int64_t events = 0, jobs = 0;
  for (auto _ : state) {
    PolicyConfig pc{.name = policy};
    if (policy == "qssf") pc.estimator = s.trace.jobs[0].name.empty() ? "helios-error-model" : "history";
    auto p = MakePolicy(pc);
    auto r = Simulate(s.trace, s.cluster, **p);
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      return;
    }
    events += r->events;
    jobs = static_cast<int64_t>(r->jobs.size());
  }
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["jobs"] = static_cast<double>(jobs);
}

void LoadPhilly(benchmark::State& state) {
  if (!std::filesystem::exists(kPhilly + "philly.csv")) {
    state.SkipWithError("philly.csv absent");
    return;
  }
  int64_t rows = 0;
  for (auto _ : state) {
    LoadReport r;
    auto t = LoadTraceFile(kPhilly + "philly.csv", TraceFormat::kPhilly, {}, &r);
    benchmark::DoNotOptimize(t);
    rows += r.rows;
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
}

void RegisterAll() {
  for (const char* p : {"fifo", "sjf", "qssf", "tiresias-original", "tiresias-lucid", "tiresias-pollux"}) {
    benchmark::RegisterBenchmark((std::string("PhillyReplay/") + p).c_str(),
                                 [p](benchmark::State& s) { Replay(s, Philly, p); })
        ->Unit(benchmark::kMillisecond)->Iterations(3);
    benchmark::RegisterBenchmark((std::string("Synthetic100kReplay/") + p).c_str(),
                                 [p](benchmark::State& s) { Replay(s, Synthetic, p); })
        ->Unit(benchmark::kMillisecond)->Iterations(3);
  }
  benchmark::RegisterBenchmark("LoadPhillyCsv", LoadPhilly)->Unit(benchmark::kMillisecond);
}

}  // namespace
}  // namespace schedmate

int main(int argc, char** argv) {
  schedmate::RegisterAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

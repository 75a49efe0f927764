// History retrieval (target: top-10 in <= 5 ms over 1 M records): the HNSW
// graph beside the exact scan over the same index, in one run. Fingerprints
// are 128-dimensional and clustered (10,000 "projects" with small per-job
// variation), like resubmissions and renamed copies; recall@10 of the graph
// against the exact answer is reported. Building the index takes minutes.
#include <cstdio>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "core/random.h"
#include "history/vector_index.h"

namespace schedmate {
namespace {

constexpr int kDim = 128;
constexpr int kRecords = 1000000;

std::vector<float> Near(Rng& rng, const std::vector<float>& centre, double noise) {
  std::vector<float> v(centre);
  for (float& x : v) x += static_cast<float>(noise * rng.Normal());
  return v;
}

struct Fixture {
  VectorIndex index;
  std::vector<std::vector<float>> queries;
  Fixture() : index(Options()) {
    Rng rng(42);
    std::vector<std::vector<float>> centres(10000, std::vector<float>(kDim));
    for (auto& c : centres)
      for (float& x : c) x = static_cast<float>(rng.Normal());
    for (int i = 0; i < kRecords; ++i) {
      (void)index.Add("job" + std::to_string(i), Near(rng, centres[rng.Below(centres.size())], 0.3), i);
      if (i % 100000 == 0) std::fprintf(stderr, "\rindexing %d/%d", i, kRecords);
    }
    std::fprintf(stderr, "\n");
    for (int q = 0; q < 200; ++q) queries.push_back(Near(rng, centres[rng.Below(centres.size())], 0.3));
    index.Search(queries[0], 10, kRecords + 1, -1.0f);  // builds the graph outside the timing
  }
  static VectorIndexOptions Options() {
    VectorIndexOptions o;
    o.dimension = kDim;
    o.ef_construction = 64;
    o.ef_search = 64;
    return o;
  }
};

Fixture& Get() {
  static Fixture f;
  return f;
}

void Top10Hnsw(benchmark::State& state) {
  Fixture& f = Get();
  size_t q = 0, hits = 0, total = 0;
  for (auto _ : state) {
    auto r = f.index.Search(f.queries[q++ % f.queries.size()], 10, kRecords + 1, -1.0f);
    benchmark::DoNotOptimize(r.data());
  }
  for (size_t i = 0; i < 50; ++i) {  // recall@10 against the exact scan
    auto h = f.index.Search(f.queries[i], 10, kRecords + 1, -1.0f);
    auto e = f.index.SearchExact(f.queries[i], 10, kRecords + 1, -1.0f);
    for (const auto& a : h)
      for (const auto& b : e) hits += a.job_id == b.job_id;
    total += e.size();
  }
  state.counters["recall@10"] = static_cast<double>(hits) / static_cast<double>(total);
  state.counters["records"] = static_cast<double>(f.index.size());
}
BENCHMARK(Top10Hnsw)->Unit(benchmark::kMillisecond);

void Top10ExactBaseline(benchmark::State& state) {
  Fixture& f = Get();
  size_t q = 0;
  for (auto _ : state) {
    auto r = f.index.SearchExact(f.queries[q++ % f.queries.size()], 10, kRecords + 1, -1.0f);
    benchmark::DoNotOptimize(r.data());
  }
}
BENCHMARK(Top10ExactBaseline)->Unit(benchmark::kMillisecond)->Iterations(20);

}  // namespace
}  // namespace schedmate

BENCHMARK_MAIN();

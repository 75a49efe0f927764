// The exact history scan (VectorIndex::SearchExact: eight partial sums per
// dot product) beside the same scan with one running sum (the baseline, the
// code it replaced), on 20,000 fingerprints of 256 floats — the size below
// which the index does not build an HNSW graph.
#include <cmath>
#include <queue>
#include <vector>

#include <benchmark/benchmark.h>

#include "core/random.h"
#include "history/vector_index.h"

namespace schedmate {
namespace {

constexpr int kDim = 256;
constexpr size_t kRows = 20000;

struct Data {
  std::vector<std::vector<float>> rows;
  std::vector<float> flat, query;
  VectorIndex index{[] {
    VectorIndexOptions o;
    o.dimension = kDim;
    o.hnsw_threshold = kRows + 1;  // exact scan only
    return o;
  }()};
  Data() {
    Rng rng(7);
    for (size_t i = 0; i < kRows; ++i) {
      std::vector<float> v(kDim);
      float norm = 0;
      for (float& x : v) x = static_cast<float>(rng.Normal()), norm += x * x;
      for (float& x : v) x /= std::sqrt(norm);
      (void)index.Add("r" + std::to_string(i), v, 1);
      flat.insert(flat.end(), v.begin(), v.end());
    }
    query = std::vector<float>(flat.begin(), flat.begin() + kDim);
  }
};

Data& D() {
  static Data d;
  return d;
}

void BM_ScanOneRunningSum(benchmark::State& state) {
  const Data& d = D();
  for (auto _ : state) {
    std::priority_queue<std::pair<float, size_t>, std::vector<std::pair<float, size_t>>, std::greater<>> heap;
    for (size_t i = 0; i < kRows; ++i) {
      const float* v = d.flat.data() + i * kDim;
      float dot = 0;
      for (int k = 0; k < kDim; ++k) dot += d.query[k] * v[k];
      if (heap.size() < 9) heap.push({dot, i});
      else if (dot > heap.top().first) heap.pop(), heap.push({dot, i});
    }
    benchmark::DoNotOptimize(heap.top());
  }
}

void BM_SearchExact(benchmark::State& state) {
  Data& d = D();
  for (auto _ : state) benchmark::DoNotOptimize(d.index.SearchExact(d.query, 9, 2, 0.0f));
}

BENCHMARK(BM_ScanOneRunningSum)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchExact)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace schedmate

BENCHMARK_MAIN();

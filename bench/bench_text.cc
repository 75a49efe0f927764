// Stage-1 log-line filter throughput (target: >= 1 M lines/s on one core),
// beside the cost of embedding alone. Lines are a realistic mix.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "text/line_classifier.h"

namespace schedmate {
namespace {

const std::vector<std::string>& Lines() {
  static const std::vector<std::string> lines = {
      "iter 1200: loss 2.3141, time 152.31ms, mfu 38.20%",
      "[2024-03-01 10:12:11,123] [INFO] [logging.py:96:log_dist] [Rank 0] step=1200, skipped=0, lr=[0.0001]",
      " 12%|█▏        | 230/1875 [05:01<35:54,  1.31s/it]",
      "NCCL INFO Channel 00/02 :    0   1   2   3   4   5   6   7",
      "/usr/lib/python3/site-packages/torch/utils/data/dataloader.py:557: UserWarning: workers",
      "{'loss': 1.6523, 'grad_norm': 0.83, 'learning_rate': 1.8e-05, 'epoch': 0.42}",
      "Saving model checkpoint to output/checkpoint-2000",
      "Epoch [4][200/1251]\tlr: 1.000e-01, eta: 1 day, 2:11:05, time: 0.512, data_time: 0.021, loss: 1.4321",
  };
  return lines;
}

void Stage1Filter(benchmark::State& state) {
  const auto& c = LineClassifier::Default();
  auto s = c.MakeScratch();
  const auto& lines = Lines();
  size_t i = 0, kept = 0;
  for (auto _ : state) {
    kept += c.MaybeProgress(lines[i++ % lines.size()], s);
  }
  benchmark::DoNotOptimize(kept);
  state.counters["lines/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(Stage1Filter);

void EmbedSparseOnly(benchmark::State& state) {
  HashedNgramEmbedder e;
  SparseVector v;
  std::vector<float> scratch(2 * e.Dimension(), 0.0f);
  const auto& lines = Lines();
  size_t i = 0;
  for (auto _ : state) {
    e.EmbedSparse(lines[i++ % lines.size()], &v, &scratch);
    benchmark::DoNotOptimize(v.data());
  }
  state.counters["lines/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(EmbedSparseOnly);

}  // namespace
}  // namespace schedmate

BENCHMARK_MAIN();

// The Metric Tracker on a 1 GB log (target: the latest N=10 samples in
// <= 100 ms): the reverse scan reads only the tail. Baseline in the same run:
// reading the whole file once, the least a forward-scanning tracker pays.
// The log is written once to $TMPDIR (default /tmp) and reused.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_files.h"

#include "tracker/tracker.h"

namespace schedmate {
namespace {

constexpr int64_t kLogBytes = int64_t{1} << 30;

const std::string& BigLog() {
  static const std::string path = BenchFile("schedmate_bench_1g.log", kLogBytes, [](std::ofstream& out) {
    std::string block;
    int64_t step = 0, written = 0;
    char buf[256];
    while (written < kLogBytes) {
      block.clear();
      for (int i = 0; i < 4096; ++i) {
        if (i % 8 == 0) {
          ++step;
          std::snprintf(buf, sizeof buf, "[2024-05-01 10:00:00,000] INFO iter %lld: loss %.4f, time %.2fms, 1234.5 samples/s\n",
                        (long long)step, 2.0 + (step % 100) * 0.001, 250.0 + (step % 7));
        } else {
          std::snprintf(buf, sizeof buf, "node-3:2231:2231 [0] NCCL INFO Channel %02d/32 : 0 1 2 3 4 5 6 7 (noise %d)\n",
                        i % 32, i);
        }
        block += buf;
      }
      out << block;
      written += static_cast<int64_t>(block.size());
    }
  });
  return path;
}

void TailScanLatest10(benchmark::State& state) {
  const std::string& path = BigLog();
  TrackOptions o;
  o.number_lines = false;
  int64_t bytes = 0;
  for (auto _ : state) {
    auto r = TrackFile(path, o);
    if (!r.ok() || r->report.step.value_or(0) == 0) state.SkipWithError("no progress found");
    bytes = r->bytes_read;
  }
  state.counters["bytes_read"] = static_cast<double>(bytes);
}
BENCHMARK(TailScanLatest10)->Unit(benchmark::kMillisecond);

void BaselineReadWholeFile(benchmark::State& state) {
  const std::string& path = BigLog();
  for (auto _ : state) benchmark::DoNotOptimize(ReadWholeFile(path));
}
BENCHMARK(BaselineReadWholeFile)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace schedmate

BENCHMARK_MAIN();

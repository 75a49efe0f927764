// The Failure Handler's locator on a 1 GB failed log (target: <= 200 ms,
// reading <= 5 % of the bytes), beside reading the whole file once — the
// least a tool that scans the log from its start pays. The log (training
// progress and NCCL chatter, then an IB fault and a 5,000-line cascade) is
// written to $TMPDIR once and reused.
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

#include "failure/diagnose.h"

namespace schedmate {
namespace {

constexpr int64_t kLogBytes = int64_t{1} << 30;

const std::string& FailedLog() {
  static const std::string path = BenchFile("schedmate_bench_failed_1g.log", kLogBytes, [](std::ofstream& out) {
    std::string block;
    char buf[256];
    int64_t written = 0, step = 0;
    while (written < kLogBytes) {
      block.clear();
      for (int i = 0; i < 4096; ++i) {
        if (i % 8 == 0) {
          ++step;
          std::snprintf(buf, sizeof buf, "iter %lld: loss %.4f, time 251.30ms\n", (long long)step, 2.0 + (step % 97) * 0.001);
        } else {
          std::snprintf(buf, sizeof buf, "node-3:2231:2231 [%d] NCCL INFO Channel %02d/32 : 0 1 2 3 4 5 6 7\n", i % 8, i % 32);
        }
        block += buf;
      }
      out << block;
      written += static_cast<int64_t>(block.size());
    }
    out << "node-48:34050:34121 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error\n";
    for (int i = 0; i < 5000; ++i)
      out << (i % 4 == 0 ? "W0330 api.py:897] Sending process 1550 closing signal SIGTERM\n"
                         : "[rank5]: RuntimeError: NCCL communicator was aborted on rank 5.\n");
  });
  return path;
}

void Locate1GB(benchmark::State& state) {
  auto source = OpenFileSource(FailedLog());
  if (!source.ok()) {
    state.SkipWithError("cannot open the log");
    return;
  }
  LocateOptions o;
  o.number_lines = false;
  int64_t bytes = 0;
  for (auto _ : state) {
    auto r = DiagnoseLog(**source, o);
    if (!r.ok() || r->diagnosis.faulty_component != "network") state.SkipWithError("wrong diagnosis");
    bytes = r->located.bytes_read;
  }
  state.counters["bytes_read"] = static_cast<double>(bytes);
  state.counters["fraction_read"] = static_cast<double>(bytes) / static_cast<double>((*source)->size());
}
BENCHMARK(Locate1GB)->Unit(benchmark::kMillisecond);

void BaselineReadWholeFile(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(ReadWholeFile(FailedLog()));
}
BENCHMARK(BaselineReadWholeFile)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace schedmate

BENCHMARK_MAIN();

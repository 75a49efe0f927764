#include "loggen/failure_logs.h"

#include <cstdio>

#include "core/random.h"
#include "loggen/noise_lines.h"

namespace schedmate {
namespace {

std::string ProgressLine(Rng& rng, int64_t step) {
  char buf[256];
  switch (rng.Below(3)) {
    case 0:
      std::snprintf(buf, sizeof buf, "iter %lld: loss %.4f, time %.2fms, mfu %.2f%%", (long long)step,
                    2.0 + rng.Uniform(-0.2, 0.2), rng.Uniform(240, 260), rng.Uniform(30, 40));
      break;
    case 1:
      std::snprintf(buf, sizeof buf, "[rank%d]: {'loss': %.4f, 'grad_norm': %.3f, 'learning_rate': 2e-05, 'epoch': %.2f}",
                    static_cast<int>(rng.Below(8)), 1.5 + rng.Uniform(-0.2, 0.2), rng.Uniform(0.2, 3), step / 1000.0);
      break;
    default:
      std::snprintf(buf, sizeof buf, " iteration %8lld/  500000 | elapsed time per iteration (ms): %.1f | lm loss: %.6E |",
                    (long long)step, rng.Uniform(900, 1100), 2.0 + rng.Uniform(-0.3, 0.3));
  }
  return buf;
}

}  // namespace

std::string CascadeLine(Rng& rng) {
  char buf[256];
  int rank = static_cast<int>(rng.Below(64));
  switch (rng.Below(6)) {
    case 0:
      std::snprintf(buf, sizeof buf, "W1202 10:%02d:%02d.%06d 1550 torch/distributed/elastic/multiprocessing/api.py:897] Sending process %d closing signal SIGTERM",
                    static_cast<int>(rng.Below(60)), static_cast<int>(rng.Below(60)), static_cast<int>(rng.Below(999999)),
                    1000 + rank);
      break;
    case 1:
      std::snprintf(buf, sizeof buf, "[rank%d]:[E1202 ProcessGroupNCCL.cpp:1515] [PG 0 Rank %d] Process group watchdog thread terminated with exception: NCCL communicator was aborted",
                    rank, rank);
      break;
    case 2:
      std::snprintf(buf, sizeof buf, "[rank%d]: Traceback (most recent call last):", rank);
      break;
    case 3:
      std::snprintf(buf, sizeof buf, "[rank%d]:   File \"/opt/conda/lib/python3.10/site-packages/torch/distributed/c10d_logger.py\", line %d, in wrapper",
                    rank, 50 + static_cast<int>(rng.Below(50)));
      break;
    case 4:
      std::snprintf(buf, sizeof buf, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:");
      break;
    default:
      std::snprintf(buf, sizeof buf, "srun: error: node-%d: task %d: Exited with exit code 1", static_cast<int>(rng.Below(64)), rank);
  }
  return buf;
}

std::string EmbedFailureExcerpt(const std::string& excerpt, int64_t excerpt_root_index, const EmbedOptions& o,
                                int64_t* root_index) {
  Rng rng(o.seed);
  std::string out;
  int64_t step = 1000 + static_cast<int64_t>(rng.Below(100000));
  for (int64_t i = 0; i < o.lines_before; ++i) {
    double u = rng.Uniform();
    out += u < 0.3 ? ProgressLine(rng, step++) : NoiseLine(rng);
    out += '\n';
  }
  *root_index = o.lines_before + excerpt_root_index;
  out += excerpt;
  if (!excerpt.empty() && excerpt.back() != '\n') out += '\n';
  for (int64_t i = 0; i < o.lines_after; ++i) {
    out += rng.Uniform() < 0.7 ? CascadeLine(rng) : NoiseLine(rng);
    out += '\n';
  }
  return out;
}

}  // namespace schedmate

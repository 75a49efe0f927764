#include "loggen/failure_logs.h"

#include <algorithm>
#include <cmath>

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

std::string FailureLookingLine(Rng& rng) {
  char buf[320];
  int k = static_cast<int>(rng.Below(8));
  int n = static_cast<int>(rng.Below(10000));
  switch (k) {
    case 0:
      std::snprintf(buf, sizeof buf, "WARNING: error reading shard_%04d.tar: Connection reset by peer; retrying (attempt 1/5)", n);
      break;
    case 1:
      std::snprintf(buf, sizeof buf, "[W socket.cpp:663] [c10d] The client socket has failed to connect to [node-%d]:29500 (errno: 99 - Cannot assign requested address).", n % 64);
      break;
    case 2:
      std::snprintf(buf, sizeof buf, "/opt/conda/lib/python3.10/site-packages/torch/utils/checkpoint.py:%d: UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly", 31 + n % 60);
      break;
    case 3:
      std::snprintf(buf, sizeof buf, "node-%d:%d:%d [%d] NCCL INFO Channel %02d/32 : 0[0] -> 1[1] via P2P/IPC", n % 64, 1000 + n, 1000 + n, n % 8, n % 32);
      break;
    case 4:
      std::snprintf(buf, sizeof buf, "ERROR:root:failed to push metrics to the tracking server (HTTP 503), will retry in %d s", 5 + n % 55);
      break;
    case 5:
      std::snprintf(buf, sizeof buf, "Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f%06x>", n);
      break;
    case 6:
      std::snprintf(buf, sizeof buf, "[rank%d]: warnings.warn(\"The given NumPy array is not writable\") # failed to copy, error ignored", n % 8);
      break;
    default:
      std::snprintf(buf, sizeof buf, "s3fs: timeout reading s3://bucket/data/part-%05d.parquet, retry %d of 3", n, 1 + n % 3);
  }
  return buf;
}

std::string EmbedFailureExcerpt(const std::string& excerpt, int64_t excerpt_root_index, const EmbedOptions& o,
                                int64_t* root_index) {
  Rng rng(o.seed);
  std::string out;
  int64_t step = 1000 + static_cast<int64_t>(rng.Below(100000));
  // Failure-looking lines come periodically: every `period` lines, a burst.
  int64_t period = o.failure_noise > 0 ? std::max<int64_t>(1, static_cast<int64_t>(std::lround(1.0 / o.failure_noise))) : 0;
  for (int64_t i = 0; i < o.lines_before; ++i) {
    double u = rng.Uniform();
    if (period > 0 && i % period == 0) out += FailureLookingLine(rng);
    else out += u < 0.3 ? ProgressLine(rng, step++) : NoiseLine(rng);
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

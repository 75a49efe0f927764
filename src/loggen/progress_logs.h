// Synthetic training logs with known truth, for evaluating the Metric
// Tracker beyond the handful of real logs we have (issue 3; the paper's
// synthetic set: 1,000 logs in many formats, half buried in noise).
//
// Each log imitates one real framework's output — tqdm/HF Trainer, Lightning
// (tqdm and rich), Keras 2 and 3, Megatron-LM, DeepSpeed, mmcv/mmengine,
// detectron2, fairseq, nanoGPT, torchtitan, TF-Slim, PaddleDetection, YOLO,
// MetricLogger — or one of many randomised custom layouts, with start-up
// noise, warnings, evaluation passes, checkpoints and multi-rank duplicates.
// "Noisy" logs interleave 3–30 unrelated lines per progress line (NCCL,
// HTTP access logs, pip, kernel messages, monitoring, config dumps, download
// bars). The truth describes the LAST training progress line, with the
// conventions of ../shared/realdata/README.md. Deterministic from the seed.
#ifndef SCHEDMATE_LOGGEN_PROGRESS_LOGS_H_
#define SCHEDMATE_LOGGEN_PROGRESS_LOGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

struct ProgressLogTruth {
  std::optional<int64_t> step, total_steps;
  std::optional<double> step_time_s, throughput, loss;  // loss NaN = "nan"
  std::optional<std::string> throughput_unit;
};

struct GeneratedProgressLog {
  std::string id, format;
  bool noisy = false;
  std::string text;  // the log, '\n'-separated (may hold '\r' refreshes)
  ProgressLogTruth truth;
};

struct ProgressLogOptions {
  int count = 1000;
  double noisy_fraction = 0.5;
  double missing_fraction = 0.05;  // logs that print no training progress
  uint64_t seed = 1;
};

std::vector<GeneratedProgressLog> GenerateProgressLogs(const ProgressLogOptions& options);

// The format names, in generation order.
const std::vector<std::string_view>& ProgressLogFormats();

}  // namespace schedmate

#endif  // SCHEDMATE_LOGGEN_PROGRESS_LOGS_H_

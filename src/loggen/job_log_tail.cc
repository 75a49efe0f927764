#include "loggen/job_log_tail.h"

#include <algorithm>

#include "core/random.h"
#include "core/str_format.h"
#include "loggen/failure_logs.h"
#include "loggen/noise_lines.h"

namespace schedmate {
namespace {

class LogWriter {
 public:
  void Line(const std::string& l) {
    out_.text += l;
    out_.text += '\n';
    ++out_.lines;
  }
  RenderedLog& out() { return out_; }

 private:
  RenderedLog out_;
};

void StartUp(const JobLogSpec& spec, Rng& rng, LogWriter& w) {
  w.Line("+ export NCCL_DEBUG=WARN OMP_NUM_THREADS=8");
  w.Line(StrFormat("Using %lld samples per step; total optimisation steps = %lld", (long long)spec.samples_per_step,
                   (long long)spec.total_steps));
  w.Line("/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py:558: UserWarning: This DataLoader will "
         "create 16 worker processes in total.");
  for (int i = 0, n = 2 + static_cast<int>(rng.Below(4)); i < n; ++i) w.Line(NoiseLine(rng));
}

// What other ranks of a multi-GPU job print between rank 0's progress lines.
std::string RankWarning(int ranks, Rng& rng) {
  static const char* const kWarnings[] = {
      "[W reducer.cpp:1389] Warning: find_unused_parameters=True was specified in DDP constructor, but did not find any "
      "unused parameters in the forward pass.",
      "/opt/conda/lib/python3.10/site-packages/torch/utils/checkpoint.py:460: UserWarning: torch.utils.checkpoint: the "
      "use_reentrant parameter should be passed explicitly.",
      "[W ProcessGroupNCCL.cpp:2291] Warning: 0NCCL_AVOID_RECORD_STREAMS=1 has no effect for point-to-point collectives.",
      "WARNING: tokenizers: The current process just got forked, after parallelism has already been used. Disabling "
      "parallelism to avoid deadlocks...",
      "[2026-12-01 10:00:00,000] [INFO] [real_accelerator.py:203:get_accelerator] Setting ds_accelerator to cuda (auto detect)",
  };
  return StrFormat("[rank%d]:%s", 1 + static_cast<int>(rng.Below(static_cast<uint64_t>(std::max(ranks - 1, 1)))),
                   kWarnings[rng.Below(std::size(kWarnings))]);
}

void Evaluation(const JobLogSpec& spec, int64_t step, Rng& rng, LogWriter& w) {
  double loss = spec.loss0 * 0.5 + 0.3 * rng.Uniform();
  switch (spec.format) {
    case JobLogFormat::kHfTqdm:
      w.Line("***** Running Evaluation *****");
      w.Line("  Num examples = 5000");
      w.Line(StrFormat("{'eval_loss': %.4f, 'eval_runtime': %.2f, 'eval_samples_per_second': %.3f, 'epoch': %.2f}", loss,
                       20 + 20 * rng.Uniform(), 100 + 100 * rng.Uniform(), static_cast<double>(step) / spec.total_steps));
      break;
    case JobLogFormat::kMmcv:
      w.Line(StrFormat("2026-12-01 10:00:00,000 - mmdet - INFO - Epoch(val) [1][%lld]\tbbox_mAP: %.4f, bbox_mAP_50: %.4f",
                       (long long)step, 0.3 + 0.1 * rng.Uniform(), 0.5 + 0.1 * rng.Uniform()));
      break;
    default:
      w.Line(StrFormat("step %lld: train loss %.4f, val loss %.4f", (long long)step, loss, loss + 0.05));
  }
}

void Completion(const JobLogSpec& spec, int64_t steps_run, Rng& rng, LogWriter& w) {
  if (spec.format == JobLogFormat::kHfTqdm)
    w.Line(StrFormat("{'train_runtime': %.1f, 'train_samples_per_second': %.3f, 'train_steps_per_second': %.3f, "
                     "'train_loss': %.4f, 'epoch': 1.0}",
                     ElapsedAtStep(spec, steps_run), spec.samples_per_step / std::max(1e-9, ElapsedAtStep(spec, steps_run) / std::max<int64_t>(steps_run, 1)),
                     steps_run / std::max(1e-9, ElapsedAtStep(spec, steps_run)), 0.3 + 0.5 * rng.Uniform()));
  w.Line("Training completed. Saving final checkpoint to output/final");
  w.Line(NoiseLine(rng));
}

void Failure(const InjectedError& e, Rng& rng, LogWriter& w) {
  for (size_t i = 0; i < e.lines.size(); ++i) {
    if (static_cast<int>(i) == e.root_index) w.out().root_line = w.out().lines;
    w.Line(e.lines[i]);
  }
  for (int i = 0, n = 10 + static_cast<int>(rng.Below(30)); i < n; ++i)
    w.Line(rng.Uniform() < 0.75 ? CascadeLine(rng) : NoiseLine(rng));
}

}  // namespace

RenderedLog RenderJobLogTail(const JobLogSpec& spec, int64_t steps_run, const InjectedError* failure,
                             const JobLogTailOptions& o) {
  Rng rng(o.seed);
  LogWriter w;
  int64_t every = std::max<int64_t>(spec.log_every, 1);
  steps_run = std::clamp<int64_t>(steps_run, 0, spec.total_steps);
  int64_t from = std::max<int64_t>(0, steps_run - o.progress_records * every);
  if (from == 0) StartUp(spec, rng, w);
  std::vector<std::string> records = JobLogWindow(spec, from, steps_run);
  int64_t step = (from / every) * every, record = 0;
  for (const std::string& line : records) {
    w.Line(line);
    // HF prints a loss dict beside every fifth bar; only the bars are records.
    bool is_record = spec.format != JobLogFormat::kHfTqdm || line.find('|') != std::string::npos;
    if (is_record) ++record, step += every;
    if (is_record && o.eval_every_records > 0 && record % o.eval_every_records == 0) Evaluation(spec, step, rng, w);
    for (double u = rng.Uniform(); u < o.noise_ratio; u += 1)
      w.Line(o.ranks > 1 && rng.Uniform() < 0.4 ? RankWarning(o.ranks, rng) : NoiseLine(rng));
  }
  w.out().progress_records = static_cast<int64_t>(records.size());
  if (failure) Failure(*failure, rng, w);
  else if (o.finished) Completion(spec, steps_run, rng, w);
  return std::move(w.out());
}

}  // namespace schedmate

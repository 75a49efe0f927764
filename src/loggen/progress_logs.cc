#include "loggen/progress_logs.h"

#include <functional>

#include "loggen/noise_lines.h"
#include "loggen/progress_gen.h"

namespace schedmate {
namespace {

using namespace loggen_internal;

struct Format {
  std::string_view name;
  std::function<void(Gen&)> gen;
};

const std::vector<Format>& Formats() {
  static const std::vector<Format> kFormats = {
      {"hf_trainer", HfTrainer}, {"lightning", Lightning}, {"keras", Keras},
      {"megatron", Megatron},   {"deepspeed", DeepSpeed}, {"mmcv", Mmcv},
      {"detectron2", Detectron2}, {"fairseq", Fairseq},  {"nanogpt", NanoGpt},
      {"torchtitan", Torchtitan}, {"tf_slim", TfSlim},   {"paddle", Paddle},
      {"yolo", Yolo},           {"metric_logger", MetricLogger}, {"custom", Custom},
      {"custom2", Custom},      {"custom3", Custom}};
  return kFormats;
}

Run MakeRun(Rng& rng) {
  Run r;
  r.total = 50 + static_cast<int64_t>(std::exp(rng.Uniform(std::log(50.0), std::log(300000.0))));
  r.interval = std::vector<int64_t>{1, 5, 10, 20, 50, 100}[rng.Below(6)];
  r.interval = std::max<int64_t>(1, std::min(r.interval, r.total / 20));
  int printed = 4 + static_cast<int>(rng.Below(40));
  r.last = r.interval * (1 + static_cast<int64_t>(rng.Below(static_cast<uint64_t>(r.total / r.interval))));
  r.last = std::min(r.last, r.total);
  r.first = std::max<int64_t>(r.interval, r.last - r.interval * printed);
  r.step_time = std::exp(rng.Uniform(std::log(0.03), std::log(30.0)));
  r.batch = std::vector<double>{8, 16, 32, 64, 128, 256, 1024}[rng.Below(7)];
  r.loss0 = rng.Uniform(1, 10);
  if (rng.Uniform() < 0.05) r.nan_from = r.last - r.interval * 2;
  r.start_clock = 1.7e9 + rng.Uniform(0, 1e8);
  return r;
}

std::string Bury(Rng& rng, const std::vector<std::string>& lines, bool noisy) {
  std::string out;
  int startup = 3 + static_cast<int>(rng.Below(20));
  for (int i = 0; i < startup; ++i) out += NoiseLine(rng) + "\n";
  for (const auto& l : lines) {
    out += l + "\n";
    if (noisy) {
      int n = 3 + static_cast<int>(rng.Below(28));
      for (int i = 0; i < n; ++i) out += NoiseLine(rng) + "\n";
    } else if (rng.Uniform() < 0.05) {
      out += NoiseLine(rng) + "\n";
    }
  }
  return out;
}

}  // namespace

const std::vector<std::string_view>& ProgressLogFormats() {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> v;
    for (const auto& f : Formats()) v.push_back(f.name);
    v.push_back("no_progress");
    return v;
  }();
  return kNames;
}

std::vector<GeneratedProgressLog> GenerateProgressLogs(const ProgressLogOptions& options) {
  std::vector<GeneratedProgressLog> out;
  Rng master(options.seed);
  const auto& formats = Formats();
  for (int i = 0; i < options.count; ++i) {
    Rng rng(master.NextU64());
    Run run = MakeRun(rng);
    Gen g(rng, run);
    GeneratedProgressLog log;
    log.id = "s" + std::to_string(i);
    // Exactly round(count × fraction) noisy logs, spread evenly.
    log.noisy = std::floor((i + 1) * options.noisy_fraction) > std::floor(i * options.noisy_fraction);
    if (rng.Uniform() < options.missing_fraction) {
      log.format = "no_progress";
      NoProgress(g);
    } else {
      const Format& f = formats[rng.Below(formats.size())];
      log.format = std::string(f.name);
      f.gen(g);
    }
    log.truth = g.truth;
    log.text = Bury(rng, g.lines, log.noisy);
    out.push_back(std::move(log));
  }
  return out;
}

}  // namespace schedmate

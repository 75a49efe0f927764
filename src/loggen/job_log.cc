#include "loggen/job_log.h"

#include <algorithm>
#include <cmath>

#include "core/random.h"
#include "core/str_format.h"

namespace schedmate {
namespace {

double StepTimeAt(const JobLogSpec& s, int64_t step) {
  double t = s.speeds.empty() ? 1.0 : s.speeds.front().step_time_s;
  for (const auto& seg : s.speeds)
    if (seg.from_step <= step) t = seg.step_time_s;
  return t;
}

std::string Clock(double seconds) {
  int64_t t = static_cast<int64_t>(seconds);
  int ms = static_cast<int>((seconds - std::floor(seconds)) * 1000);
  return StrFormat("2026-12-01 %02lld:%02lld:%02lld,%03d", (long long)((t / 3600) % 24), (long long)((t / 60) % 60),
                   (long long)(t % 60), ms);
}

}  // namespace

double ElapsedAtStep(const JobLogSpec& spec, int64_t step) {
  double t = 0;
  // Segment by segment: exact and O(segments).
  std::vector<SpeedSegment> segs = spec.speeds;
  if (segs.empty()) segs.push_back({0, 1.0});
  for (size_t i = 0; i < segs.size(); ++i) {
    int64_t a = std::max<int64_t>(segs[i].from_step, 0);
    int64_t b = i + 1 < segs.size() ? segs[i + 1].from_step : step;
    b = std::min(b, step);
    if (b > a) t += static_cast<double>(b - a) * segs[i].step_time_s;
  }
  return t;
}

std::vector<std::string> JobLogWindow(const JobLogSpec& spec, int64_t from_step, int64_t to_step) {
  std::vector<std::string> out;
  int64_t every = std::max<int64_t>(spec.log_every, 1);
  to_step = std::min(to_step, spec.total_steps);
  int64_t first = (from_step / every + 1) * every;
  for (int64_t s = first; s <= to_step; s += every) {
    Rng rng(spec.seed * 1000003u + static_cast<uint64_t>(s));
    double dt = StepTimeAt(spec, s) * (1 + 0.02 * rng.Normal());
    double loss = spec.loss0 * std::exp(-2.0 * s / std::max<int64_t>(spec.total_steps, 1)) + 0.2 + 0.02 * rng.Normal();
    double tput = static_cast<double>(spec.samples_per_step) / dt;
    switch (spec.format) {
      case JobLogFormat::kNanoGpt:
        out.push_back(StrFormat("iter %lld: loss %.4f, time %.2fms, mfu %.2f%%", (long long)s, loss, dt * 1000, 35.0));
        break;
      case JobLogFormat::kMegatron:
        out.push_back(StrFormat(" iteration %8lld/%8lld | consumed samples: %12lld | elapsed time per iteration (ms): %.1f | "
                                "learning rate: 3.000E-04 | global batch size: %5lld | lm loss: %.6E | loss scale: 1.0 | "
                                "samples per second: %.3f |",
                                (long long)s, (long long)spec.total_steps, (long long)(s * spec.samples_per_step),
                                dt * 1000, (long long)spec.samples_per_step, loss, tput));
        break;
      case JobLogFormat::kHfTqdm: {
        double frac = static_cast<double>(s) / spec.total_steps;
        std::string rate = dt < 1 ? StrFormat("%.2fit/s", 1 / dt) : StrFormat("%.2fs/it", dt);
        out.push_back(StrFormat("%3d%%|%s| %lld/%lld [00:00<00:00, %s]", static_cast<int>(100 * frac),
                                std::string(static_cast<size_t>(10 * frac), '#').c_str(), (long long)s,
                                (long long)spec.total_steps, rate.c_str()));
        if (s % (every * 5) == 0)
          out.push_back(StrFormat("{'loss': %.4f, 'learning_rate': 2e-05, 'epoch': %.2f}", loss, frac));
        break;
      }
      case JobLogFormat::kMmcv:
        out.push_back(StrFormat("%s - mmdet - INFO - Epoch [1][%lld/%lld]\tlr: 2.000e-02, eta: 1:00:00, time: %.3f, "
                                "data_time: 0.012, memory: 3456, loss: %.4f",
                                Clock(ElapsedAtStep(spec, s)).c_str(), (long long)s, (long long)spec.total_steps, dt, loss));
        break;
      case JobLogFormat::kTorchtitan:
        out.push_back(StrFormat("[titan] %s - root - INFO - step: %2lld  loss: %.5f  memory: 40.00GiB(50.00%%)  "
                                "tps: %lld  mfu: 30.00%%",
                                Clock(ElapsedAtStep(spec, s)).c_str(), (long long)s, loss,
                                (long long)std::llround(tput * 512)));
        break;
    }
  }
  return out;
}

}  // namespace schedmate

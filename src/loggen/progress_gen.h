// Internal to loggen: one run's printed steps and the helpers every
// framework format uses to write its lines and truth.
#ifndef SCHEDMATE_LOGGEN_PROGRESS_GEN_H_
#define SCHEDMATE_LOGGEN_PROGRESS_GEN_H_

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "core/random.h"
#include "core/str_format.h"
#include "loggen/progress_logs.h"

namespace schedmate {
namespace loggen_internal {

// The value a reader of the printed text sees.
inline double Printed(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

// One training run: which steps are printed and how fast it goes.
struct Run {
  int64_t total = 0, first = 0, last = 0, interval = 1;
  double step_time = 1;   // seconds per step
  double batch = 32;      // samples per step
  double loss0 = 5;
  int64_t nan_from = -1;  // loss is nan from this step on
  double start_clock = 0; // seconds since 1970
};

struct Gen {
  Rng& rng;
  const Run& run;
  std::vector<std::string> lines;
  ProgressLogTruth truth;
  double clock;

  Gen(Rng& r, const Run& ru) : rng(r), run(ru), clock(ru.start_clock) {}

  double StepTime() { return run.step_time * (1 + 0.08 * rng.Normal()); }
  double Loss(int64_t s) {
    if (run.nan_from >= 0 && s >= run.nan_from) return NAN;
    double frac = static_cast<double>(s) / std::max<int64_t>(run.total, 1);
    return std::max(0.01, run.loss0 * std::exp(-2.0 * frac) + 0.15 + 0.05 * rng.Normal());
  }
  bool Chance(double p) { return rng.Uniform() < p; }
  void Add(std::string l) { lines.push_back(std::move(l)); }
  template <typename Fn>
  void ForSteps(Fn fn) {
    for (int64_t s = run.first; s <= run.last; s += run.interval) {
      double dt = StepTime();
      clock += dt * run.interval;
      fn(s, dt, s + run.interval > run.last);
    }
  }
  std::string Clock(const char* style) {
    time_t t = static_cast<time_t>(clock);
    struct tm tm;
    gmtime_r(&t, &tm);
    int ms = static_cast<int>((clock - std::floor(clock)) * 1000);
    std::string st(style);
    if (st == "iso") return StrFormat("%04d-%02d-%02d %02d:%02d:%02d,%03d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
    if (st == "isos") return StrFormat("%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    if (st == "slash") return StrFormat("%04d/%02d/%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    return StrFormat("%02d/%02d %02d:%02d:%02d", tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  }
  std::string Bar(double frac, int width) {
    std::string b;
    int full = static_cast<int>(frac * width);
    for (int i = 0; i < width; ++i) b += i < full ? "█" : " ";
    return b;
  }
  std::string Hms(double s) {
    long long t = std::llround(std::max(0.0, s));
    return t >= 3600 ? StrFormat("%lld:%02lld:%02lld", t / 3600, (t % 3600) / 60, t % 60) : StrFormat("%02lld:%02lld", t / 60, t % 60);
  }
  // tqdm's rate: "2.80it/s" when faster than 1 it/s, else "1.25s/it".
  std::string TqdmRate(double dt, double* seconds) {
    if (dt < 1) {
      std::string r = StrFormat("%.2f", 1 / dt);
      *seconds = 1 / Printed(r);
      return r + "it/s";
    }
    std::string r = StrFormat("%.2f", dt);
    *seconds = Printed(r);
    return r + "s/it";
  }
  // Seconds per step as a reader of two printed "YYYY-MM-DD HH:MM:SS,mmm"
  // stamps computes it; unset below the stamps' resolution.
  void StepTimeFromStamps(const std::string& older, const std::string& newer, int64_t steps) {
    auto sec = [](const std::string& st) {
      int h = 0, m = 0, s = 0, ms = 0;
      std::sscanf(st.c_str() + 11, "%d:%d:%d,%d", &h, &m, &s, &ms);
      return h * 3600.0 + m * 60 + s + ms / 1000.0;
    };
    double d = sec(newer) - sec(older);
    if (d < 0) d += 86400;
    if (d >= 0.02 && steps > 0) truth.step_time_s = d / static_cast<double>(steps);
  }
  void SetLoss(double v, const std::string& printed) { truth.loss = std::isnan(v) ? NAN : Printed(printed); }
  std::string LossStr(double v, const char* fmt) { return std::isnan(v) ? "nan" : StrFormat(fmt, v); }
};


// The framework formats (progress_formats.cc).
void HfTrainer(Gen& g);
void Lightning(Gen& g);
void Keras(Gen& g);
void Megatron(Gen& g);
void DeepSpeed(Gen& g);
void Mmcv(Gen& g);
void Detectron2(Gen& g);
void Fairseq(Gen& g);
void NanoGpt(Gen& g);
void Torchtitan(Gen& g);
void TfSlim(Gen& g);
void Paddle(Gen& g);
void Yolo(Gen& g);
void MetricLogger(Gen& g);
void Custom(Gen& g);
void NoProgress(Gen& g);

}  // namespace loggen_internal
}  // namespace schedmate

#endif  // SCHEDMATE_LOGGEN_PROGRESS_GEN_H_

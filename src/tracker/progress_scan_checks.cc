// ProgressScan cross-checks: a step time read from one source (a printed
// time, a rate, the tagger's reading) against the line stamps of the
// anchor's records, an independent clock. A step time ten or a thousand
// times off is worse than none: when the two disagree by far more than
// jitter explains, the stamps time the step (or nothing does).
#include "tracker/progress_scan.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "core/stats.h"

namespace schedmate {
namespace {

// A printed step time and the stamps disagree when it is this many times
// outside the interval the stamps allow: wider than any jitter, data stall
// or rounding, narrower than a unit (ms/s), a logging interval or a clock.
constexpr double kFactor = 8;
// The newest precise stamp intervals time the steps alike within this factor.
constexpr double kSpread = 4;
// No training run lasts longer.
constexpr double kYear = 365 * 86400.0;

}  // namespace

bool InvertedRate(const ScannedLine& s, double t) {
  for (const ScannedField& f : s.fields)
    if (f.value > 0 && std::fabs(1.0 / f.value - t) <= 1e-9 * t) return true;
  return false;
}

std::vector<ProgressScan::StampInterval> ProgressScan::StampIntervals(const Entry& a, int step_field) const {
  auto step_of = [&](const Entry& e) -> std::optional<double> {
    if (a.line.step) return e.line.step ? std::optional<double>(*e.line.step) : std::nullopt;
    if (step_field < 0 || e.scanned.fields.size() != a.scanned.fields.size()) return std::nullopt;
    const ScannedField& f = e.scanned.fields[step_field];
    return f.integer ? std::optional<double>(f.value) : std::nullopt;
  };
  std::vector<StampInterval> out;
  const Entry* newer = nullptr;
  std::optional<double> newer_step;
  for (const auto& e : entries_) {
    if (&e != &a && !newer) continue;
    if (e.line.layout != a.line.layout || !e.line.timestamp_s) continue;
    std::optional<double> s = step_of(e);
    if (!s) continue;
    if (!newer) {
      newer = &e;
      newer_step = s;
      continue;
    }
    if (*s == *newer_step) continue;  // the same step printed again (another rank, a handler)
    if (*s > *newer_step) break;      // a new epoch's counter, a restart
    double res = std::max(newer->line.timestamp_resolution_s, e.line.timestamp_resolution_s);
    out.push_back({*newer->line.timestamp_s - *e.line.timestamp_s, *newer_step - *s, res, newer->index, e.index});
    if (static_cast<int>(out.size()) >= options_.samples) break;
    newer = &e;
    newer_step = s;
  }
  return out;
}

// `r.step_time_s`, read from the record, against the stamps of the anchor's
// newest interval (between its record and the one before of its layout) and
// the median over the newest few. Too long to fit the newest interval by
// kFactor: when it is about the interval's whole time it timed the logging
// interval (Marian's "Time 443.88s" every 500 updates) and is divided by the
// steps; otherwise it is withheld. Too short by kFactor for the
// newest interval and for the median alike (a component time, a
// mislabelled rate: ESPnet's iter_time, "Speed: 15.53 steps/sec" two seconds
// apart): the stamps time the step. A stamp interval too coarse to time the
// step leaves no step time.
void ProgressScan::CheckStepTimeAgainstStamps(const Entry& a, const Entry* time_src, int step_field, ProgressReport& r,
                                              std::set<int64_t>& used) const {
  if (!r.step_time_s || !(*r.step_time_s > 0)) return;
  std::vector<StampInterval> iv = StampIntervals(a, step_field);  // each ds > 0
  if (iv.empty()) return;
  std::vector<double> per_step;
  for (const auto& i : iv) {
    // Records that share a stamp were written out together (lines flushed
    // at once): the stamps time the flushes, not the steps between them.
    if (i.dt <= i.res) return;
    if (i.dt >= 20 * i.res) per_step.push_back(i.dt / i.ds);
  }
  const StampInterval& n = iv.front();
  double t = *r.step_time_s;
  double lo = std::max(0.0, n.dt - n.res) / n.ds, hi = (n.dt + n.res) / n.ds;
  if (per_step.empty()) return;
  // Stamps that disagree among themselves (records stamped in bursts as a
  // block-buffered pipe is read, erratic data loading) time nothing.
  auto [fastest, slowest] = std::minmax_element(per_step.begin(), per_step.end());
  if (*slowest > kSpread * *fastest) return;
  double median = Median(per_step);
  std::optional<double> stamped = n.dt >= 20 * n.res ? std::optional<double>(n.dt / n.ds) : std::nullopt;
  if (t > kFactor * hi && t > kFactor * median) {
    // A rate's inverse is no interval's time; a step rate far below the
    // stamps' is read as printed (fairseq's "ups=0.04" on TPUs).
    if (InvertedRate(a.scanned, t) || (time_src && InvertedRate(time_src->scanned, t))) return;
    // Anything else too long is withheld: the printed value is no step's,
    // and the step counter the stamps are divided by may not count steps
    // (a sample counter beside a per-iteration time).
    double per_interval = t / n.ds;
    r.step_time_s =
        (per_interval >= lo / 1.25 && per_interval <= hi * 1.25) ? std::optional<double>(per_interval) : std::nullopt;
  } else if (t * kFactor < lo && t * kFactor < median) {
    r.step_time_s = stamped;
  } else {
    return;
  }
  r.steady_step_time_s.reset();
  used.insert({n.newer_line, n.older_line});
}

// The steps already counted, at `r.step_time_s` each, would have run for
// more than a year: no training run does, so the time is no step's (an
// estimate or a clock in hours, "time: 8.75h" every 100 iterations, or a
// whole run's duration over one step) and is withheld.
void WithholdImplausibleStepTime(ProgressReport& r) {
  if (!r.step || !r.step_time_s || *r.step <= 0) return;
  if (static_cast<double>(*r.step) * *r.step_time_s <= kYear) return;
  r.step_time_s.reset();
  r.steady_step_time_s.reset();
}

void SetProgressAndEta(ProgressReport& r) {
  if (!r.step || !r.total_steps || *r.total_steps <= 0) return;
  SetProgressAndEta(r, *r.step, *r.total_steps);
}

void SetProgressAndEta(ProgressReport& r, int64_t done, int64_t total) {
  if (total <= 0) return;
  r.progress_fraction = std::clamp(static_cast<double>(done) / static_cast<double>(total), 0.0, 1.0);
  std::optional<double> t = r.steady_step_time_s ? r.steady_step_time_s : r.step_time_s;
  if (!t) return;
  const double eta = static_cast<double>(std::max<int64_t>(0, total - done)) * *t;
  // More than a year still to run: the total or the time is not the run's.
  if (eta <= kYear) r.eta_s = eta;
}

}  // namespace schedmate

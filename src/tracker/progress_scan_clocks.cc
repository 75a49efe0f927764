// ProgressScan step times by differencing: a printed time read as a clock,
// intervals of line timestamps, and rates printed too coarsely to trust.
#include "tracker/progress_scan.h"

#include "tracker/key_vocabulary.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedmate {

using tracker_internal::FirstWord;
using tracker_internal::IsEpochKey;
using tracker_internal::IsEvalPrefix;
using tracker_internal::LastWord;
using tracker_internal::Lower;

// The printed step time of `src`'s layout read as a clock since some start
// (a cumulative "time (sec)", "time: 298.3"): it grew at every one of the
// newest four or more records with a climbing step, each growth per step
// within a factor 2 of the others, and — where the records are stamped —
// as much as the stamps did. A per-step time wanders instead; a running
// average flattens. Seconds per step over each interval, newest first.
std::vector<double> ProgressScan::ClockStepTimes(const Entry& src, std::vector<int64_t>* lines, int step_field) const {
  struct Point {
    const Entry* e;
    int64_t step;
  };
  std::vector<Point> pts;
  std::set<int64_t> seen;
  for (const auto& e : entries_) {
    if (e.line.layout != src.line.layout || !e.line.step_time_s) continue;
    std::optional<int64_t> step = e.line.step;
    if (step_field >= 0 && !src.line.step) {  // the tagger's step, by position
      if (e.scanned.fields.size() != src.scanned.fields.size() || !e.scanned.fields[step_field].integer) continue;
      step = static_cast<int64_t>(e.scanned.fields[step_field].value);
    }
    if (!step || !seen.insert(*step).second) continue;
    pts.push_back({&e, *step});
    if (static_cast<int>(pts.size()) > options_.samples) break;
  }
  if (pts.empty() || pts.front().e != &src) return {};
  std::vector<double> per_step;
  bool stamped = true;
  double stamp_fit = 0;
  for (size_t i = 0; i + 1 < pts.size(); ++i) {
    const ProgressLine& newer = pts[i].e->line;
    const ProgressLine& older = pts[i + 1].e->line;
    int64_t ds = pts[i].step - pts[i + 1].step;
    double dv = *newer.step_time_s - *older.step_time_s;
    if (ds <= 0 || dv <= 0) break;  // the run of growth ends
    per_step.push_back(dv / static_cast<double>(ds));
    if (newer.timestamp_s && older.timestamp_s && *newer.timestamp_s > *older.timestamp_s)
      stamp_fit = std::max(stamp_fit, std::abs(dv / (*newer.timestamp_s - *older.timestamp_s) - 1));
    else
      stamped = false;
  }
  // Four intervals in a row; three when the stamps grew alike.
  if (per_step.size() < (stamped ? 3u : 4u)) return {};
  auto [lo, hi] = std::minmax_element(per_step.begin(), per_step.end());
  if (*hi > 2 * *lo) return {};
  if (stamped && stamp_fit > 0.25) return {};  // grows, but not with the wall clock
  // A clock has counted about the steps since its start: its value is at
  // most ~10× step × growth per step (per-epoch counters a few epochs in).
  // A running average creeps far more slowly than that (0.239996 →
  // 0.240017 over 80 steps at step 29240).
  double steps_counted = *pts[0].e->line.step_time_s / per_step.front();
  if (steps_counted > 10 * std::max<double>(1, static_cast<double>(pts[0].step))) return {};
  *lines = {pts[0].e->index, pts[1].e->index};
  return per_step;
}

namespace {

// How many whole numbers other than the step two records of one layout
// share: a rank, a worker id, a device ("… rank 0").
int SharedTags(const ScannedLine& a, int64_t step, const ScannedLine& b) {
  if (a.fields.size() != b.fields.size()) return 0;
  int shared = 0;
  for (size_t i = 0; i < a.fields.size(); ++i) {
    const ScannedField& x = a.fields[i];
    const ScannedField& y = b.fields[i];
    if (!x.integer || !y.integer || x.total || y.total || x.value == static_cast<double>(step)) continue;
    shared += x.value == y.value;
  }
  return shared;
}

}  // namespace

bool ProgressScan::CoarseRate(const Entry& e) {
  if (!e.line.step_time_s || *e.line.step_time_s <= 0) return false;
  double t = *e.line.step_time_s;
  for (const ScannedField& f : e.scanned.fields) {
    if (f.value <= 0 || std::fabs(1.0 / f.value - t) > 1e-9 * t) continue;
    double m = f.value / std::pow(10.0, std::floor(std::log10(f.value)));
    // One significant digit, 1 or 2: off by up to a half or a quarter
    // ("ups=0.04" is within an eighth, read as printed).
    return std::fabs(m - std::round(m)) < 1e-9 && std::round(m) <= 2;
  }
  return false;
}

std::vector<double> ProgressScan::StampedStepTimes(const Entry& a, std::vector<int64_t>* lines) const {
  // One entry per step; of a step printed by several ranks or handlers, the
  // one that shares the anchor's tags (its rank), so that intervals are
  // timed by one process.
  std::vector<std::pair<int64_t, const Entry*>> pts;
  for (const auto& e : entries_) {
    if (e.line.layout != a.line.layout || !e.line.step || !e.line.timestamp_s) continue;
    if (!pts.empty() && pts.back().first == *e.line.step) {
      int64_t step = *e.line.step;
      if (pts.back().second != &a &&
          SharedTags(e.scanned, step, a.scanned) > SharedTags(pts.back().second->scanned, step, a.scanned))
        pts.back().second = &e;
      continue;
    }
    if (std::any_of(pts.begin(), pts.end(), [&](const auto& p) { return p.first == *e.line.step; })) continue;
    if (static_cast<int>(pts.size()) > options_.samples) break;
    pts.push_back({*e.line.step, &e});
  }
  std::vector<double> per_step;
  // Too coarse a clock for an interval skips it (1 s stamps, 2 s apart),
  // unless every interval is that coarse: then the newest still tells.
  for (double ticks : {20.0, 2.0}) {
    for (size_t i = 0; i + 1 < pts.size(); ++i) {
      const ProgressLine& newer = pts[i].second->line;
      const ProgressLine& older = pts[i + 1].second->line;
      double dt = *newer.timestamp_s - *older.timestamp_s;
      int64_t ds = pts[i].first - pts[i + 1].first;
      if (ds <= 0 || dt <= 0) continue;
      if (dt < ticks * std::max(newer.timestamp_resolution_s, older.timestamp_resolution_s)) continue;
      if (per_step.empty()) *lines = {pts[i].second->index, pts[i + 1].second->index};
      per_step.push_back(dt / static_cast<double>(ds));
    }
    if (!per_step.empty()) break;
  }
  return per_step;
}

// A duration of the whole run printed once after its records ("Wall time:
// 1min 9s" of a notebook cell, "model fitting took 4197.860 s"): one time
// field under a key that names a whole run's clock.
std::optional<double> RunDuration(std::string_view line) {
  if (line.size() > 120) return std::nullopt;
  bool maybe = line.find("ime") != std::string_view::npos || line.find("took") != std::string_view::npos;
  if (!maybe) return std::nullopt;  // most lines, without a copy
  std::string lower = Lower(line);
  bool worded = false;
  for (std::string_view w : {"wall time", " took ", "training time", "total time", "time taken"})
    worded = worded || lower.find(w) != std::string::npos;
  if (!worded) return std::nullopt;
  ScannedLine s = ScanLine(line);
  if (s.fields.size() != 1 || s.has_bar) return std::nullopt;
  const ScannedField& f = s.fields[0];
  double scale = SecondsPerUnit(f.unit);
  if (f.unit.empty() || scale <= 0 || !(f.value > 0) || IsEvalPrefix(FirstWord(f.key))) return std::nullopt;
  if (f.key.find("epoch") != std::string::npos || f.key.find("step") != std::string::npos ||
      f.key.find("iter") != std::string::npos || f.key.find("batch") != std::string::npos)
    return std::nullopt;  // a step's or an epoch's time, not the run's
  return f.value * scale;
}

// The steps a record's run has taken: its step, plus the epochs before
// this one when it counts the step within an epoch of a printed length
// ("Epoch : 10/10, Iter : 200/234": 9 × 234 + 200).
int64_t StepsRun(const ScannedLine& s, int64_t step, std::optional<int64_t> total) {
  if (!total) return step;
  for (const ScannedField& f : s.fields) {
    if (!f.total || !f.integer || !IsEpochKey(LastWord(f.key)) || f.value < 1) continue;
    return (static_cast<int64_t>(f.value) - 1) * *total + step;
  }
  return step;
}

void ProgressScan::NoteRunDuration(std::string_view line) {
  if (!entries_.empty() || run_duration_s_) return;
  run_duration_s_ = RunDuration(line);
}

// No step time printed or stamped: a duration of the whole run printed
// after the newest record (`a`, read as `step` of `total`), over the steps
// the run has taken, a hundred or more so that the run's set-up weighs
// little.
std::optional<double> ProgressScan::RunAverageStepTime(const Entry& a, std::optional<int64_t> step,
                                                       std::optional<int64_t> total) const {
  if (!run_duration_s_ || !step || *step <= 0) return std::nullopt;
  int64_t steps = StepsRun(a.scanned, *step, total);
  if (steps < 100) return std::nullopt;  // set-up (loading, compiling) would weigh in the average
  return *run_duration_s_ / static_cast<double>(steps);
}

}  // namespace schedmate

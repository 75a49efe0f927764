// ProgressScan report assembly: the anchor, its region, each field from the
// newest line that prints it, steady-state means, and the confidence. Step
// times from clocks and stamps are in progress_scan_clocks.cc, the field
// tagger's reading in progress_scan_tagger.cc.
#include "tracker/progress_scan.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <vector>

#include "core/stats.h"

namespace schedmate {
namespace {

// Mean after dropping values farther than 3 scaled MADs from the median.
std::optional<double> RobustMean(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  double med = Median(v);
  std::vector<double> dev;
  for (double x : v) dev.push_back(std::fabs(x - med));
  double limit = 3 * 1.4826 * Median(dev);
  double sum = 0;
  int n = 0;
  for (double x : v)
    if (std::fabs(x - med) <= limit) {
      sum += x;
      ++n;
    }
  return n > 0 ? sum / n : med;
}

std::optional<int64_t> StepOf(const ProgressLine& p) {
  return p.step ? p.step : p.epoch_as_step;
}

}  // namespace

int ProgressScan::Anchor() const {
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].line.step) return static_cast<int>(i);
  // Epoch-level records only: those printed several times within their
  // epoch ("Epoch 20 - Batch loss: …") are the per-batch ones, a later
  // one-off line of that epoch its summary ("Epoch 20 - Average Train Loss").
  int newest_epoch = -1;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const ProgressLine& p = entries_[i].line;
    if (!p.epoch_as_step) continue;
    if (newest_epoch < 0) newest_epoch = static_cast<int>(i);
    if (p.epoch_as_step != entries_[newest_epoch].line.epoch_as_step) break;
    for (size_t j = i + 1; j < entries_.size(); ++j)
      if (entries_[j].line.layout == p.layout && entries_[j].line.epoch_as_step == p.epoch_as_step)
        return static_cast<int>(i);
  }
  if (newest_epoch >= 0) return newest_epoch;
  return entries_.empty() ? -1 : 0;
}

size_t ProgressScan::RegionEnd(int anchor) const {
  const ProgressLine& a = entries_[anchor].line;
  for (size_t i = anchor + 1; i < entries_.size(); ++i) {
    const ProgressLine& p = entries_[i].line;
    if (p.layout == a.layout && StepOf(p) != StepOf(a)) return i;
    if (p.layout == a.layout && !StepOf(a)) return i;
  }
  return entries_.size();
}

ProgressReport ProgressScan::FinishNow() const {
  ProgressReport r;
  int anchor = Anchor();
  if (anchor < 0) {
    if (TagUnreadLines(r)) return r;
    r.confidence = Confidence(r, anchor);
    return r;
  }
  r.status = ProgressReport::Status::kOk;
  const Entry& a = entries_[anchor];
  size_t end = RegionEnd(anchor);
  std::set<int64_t> used = {a.index};
  // An epoch-level record (the epoch its only counter) anchors the region,
  // but an epoch is not a step: the step is not printed.
  r.step = a.line.step;

  // Each field from the anchor itself, else the newest line of the region.
  // A line of the region that prints the anchor's own step is of its record
  // (Caffe: "Iteration 179980 (3.1 iter/s), loss = 0.33" under "Iteration
  // 179980, lr = 1e-05"): it comes before the step-less lines between them.
  auto pick = [&](auto has) -> const Entry* {
    if (has(a.line)) return &a;
    if (a.line.step)
      for (size_t i = 0; i < end; ++i)
        if (entries_[i].line.step == a.line.step && has(entries_[i].line)) return &entries_[i];
    for (size_t i = 0; i < end; ++i)
      if (has(entries_[i].line)) return &entries_[i];
    return nullptr;
  };
  if (a.line.step || !a.line.epoch_as_step) {
    if (const Entry* e = pick([](const ProgressLine& p) { return p.total_steps.has_value(); })) {
      r.total_steps = e->line.total_steps;
      used.insert(e->index);
    }
  }
  // An epoch summary printed before a step record ("Epoch 55/400 Train
  // Loss: 0.0669" above epoch 56's bar) closed an earlier epoch: its loss is
  // not the step's.
  auto earlier_epoch = [&](const Entry& e) {
    return a.line.step && !e.line.step && e.line.epoch_as_step && e.index < a.index;
  };
  const Entry* loss_src = pick([](const ProgressLine& p) { return p.loss.has_value(); });
  if (loss_src && earlier_epoch(*loss_src)) loss_src = nullptr;
  if (!loss_src) {
    // A metrics logger that prints every few steps beside a per-step bar
    // ("{'loss': …}" then tqdm refreshes): its newest record, within the
    // samples read, holds the loss.
    for (size_t i = end; i < entries_.size() && !loss_src; ++i)
      if (entries_[i].line.layout != a.line.layout && entries_[i].line.loss) loss_src = &entries_[i];
    if (loss_src && earlier_epoch(*loss_src)) loss_src = nullptr;
  }
  if (loss_src) {
    r.loss = loss_src->line.loss;
    used.insert(loss_src->index);
  }
  // An epoch-level record's time is the epoch's: a summary line ("-----
  // Epoch[100/100], Train Loss: 0.29, time: 173.40") in the region of a step
  // record times no step.
  // A time whose key names its step ("time per batch= 0.011") is a step's
  // wherever it is printed.
  const Entry* time_src = pick([](const ProgressLine& p) {
    return p.step_time_s.has_value() && (p.step || !p.epoch_as_step || p.time_names_step);
  });
  // An epoch-level record's time is the epoch's: with no step, no step time.
  if (!a.line.step && a.line.epoch_as_step && time_src && !time_src->line.time_names_step) time_src = nullptr;
  // A lone duration printed once after the anchor ("time 384.07" under a
  // run's last record) times the run or a cell, not the step; a lone rate
  // ("403.487 steps/sec") is the step's.
  // A rate is told by the step time being its inverse, whether its unit
  // ("steps/sec") or its key ("global_step/sec: 4.56") names it.
  if (time_src && time_src != &a && time_src->index > a.index && !time_src->line.step &&
      time_src->scanned.fields.size() == 1 && !time_src->line.time_names_step &&
      !InvertedRate(time_src->scanned, *time_src->line.step_time_s)) {
    bool repeats = false;
    for (const Entry& e : entries_) repeats = repeats || (&e != time_src && e.line.layout == time_src->line.layout);
    if (!repeats) time_src = nullptr;
  }
  if (time_src) {
    r.step_time_s = time_src->line.step_time_s;
    used.insert(time_src->index);
  }
  bool stamped_time = false;  // the step time is the stamps' own
  const Entry* tp_src = pick([](const ProgressLine& p) { return p.throughput.has_value(); });
  if (tp_src) {
    r.throughput = tp_src->line.throughput;
    r.throughput_unit = tp_src->line.throughput_unit;
    used.insert(tp_src->index);
  }

  // Steady state over the last N distinct steps of one layout.
  auto samples_of = [&](uint64_t layout, auto value) {
    std::vector<double> out;
    std::set<int64_t> seen;
    for (const auto& e : entries_) {
      if (e.line.layout != layout || static_cast<int>(out.size()) >= options_.samples) continue;
      std::optional<int64_t> s = StepOf(e.line);
      if (s && !seen.insert(*s).second) continue;
      if (std::optional<double> v = value(e.line)) {
        out.push_back(*v);
        used.insert(e.index);
      }
    }
    return out;
  };
  if (time_src) {
    r.steady_step_time_s = RobustMean(samples_of(
        time_src->line.layout, [](const ProgressLine& p) { return p.step_time_s; }));
    // A "time" that climbs with the step is a clock, not a step's time.
    std::vector<int64_t> lines;
    std::vector<double> per_step = ClockStepTimes(*time_src, &lines);
    if (!per_step.empty()) {
      r.step_time_s = per_step.front();
      r.steady_step_time_s = RobustMean(per_step);
      used.insert(lines.begin(), lines.end());
    } else if (a.line.step && CoarseRate(*time_src)) {
      // A rate printed as one digit 1 or 2 ("steps/sec: 0.1") may be off by half:
      // the stamps of the anchor's layout time the steps when they can and
      // agree with the print within its rounding.
      std::vector<double> stamped = StampedStepTimes(a, &lines);
      double printed = 1.0 / *time_src->line.step_time_s;
      double half_digit = 0.5 * std::pow(10.0, std::floor(std::log10(printed))) * (1 + 1e-9);
      if (!stamped.empty() && stamped.front() > 0 && std::fabs(1.0 / stamped.front() - printed) <= half_digit) {
        r.step_time_s = stamped.front();
        r.steady_step_time_s = RobustMean(stamped);
        stamped_time = true;
        used.insert(lines.begin(), lines.end());
      }
    }
  } else if (a.line.step) {
    // No printed step time: derive it from timestamps of the anchor's layout.
    std::vector<int64_t> lines;
    std::vector<double> per_step = StampedStepTimes(a, &lines);
    if (!per_step.empty()) {
      r.step_time_s = per_step.front();
      stamped_time = true;
      used.insert(lines.begin(), lines.end());
    }
    r.steady_step_time_s = RobustMean(per_step);
  }
  if (tp_src)
    r.steady_throughput = RobustMean(samples_of(
        tp_src->line.layout, [](const ProgressLine& p) { return p.throughput; }));

  int step_field = ApplyTagger(anchor, r);
  if (step_field >= 0 && time_src == &a && r.step_time_s == a.line.step_time_s) {
    // The tagger counts the steps the vocabulary could not: a printed time
    // that grows with them is a clock too ("tick 7 … time 9h 40m 06s").
    std::vector<int64_t> lines;
    std::vector<double> per_step = ClockStepTimes(a, &lines, step_field);
    if (!per_step.empty()) {
      r.step_time_s = per_step.front();
      r.steady_step_time_s = RobustMean(per_step);
      used.insert(lines.begin(), lines.end());
    }
  }
  if (!stamped_time) CheckStepTimeAgainstStamps(a, time_src, step_field, r, used);
  if (time_src && time_src->line.duration_times_steps && r.step_time_s == time_src->line.step_time_s) {
    // A barless finished counter's duration times its steps only as the one
    // record of its epoch (tf.keras verbose=2). Earlier partial records of the
    // same count ("50/500 - 1.6s" ... "500/500 - 1.6s") make it an interval's
    // time; a finished record of another total just before it makes it an
    // evaluation pass (model.evaluate after "19/19 - 3s"): unsure, no time.
    const Entry* prev = nullptr;
    bool partial = false;
    for (const auto& e : entries_) {
      if (e.line.layout != time_src->line.layout || e.index >= time_src->index) continue;
      if (e.line.step && *e.line.step < *time_src->line.step && e.line.total_steps == time_src->line.total_steps) partial = true;
      if (!prev || e.index > prev->index) prev = &e;
    }
    bool other_total = prev && prev->line.step && prev->line.total_steps &&
                       *prev->line.step == *prev->line.total_steps && prev->line.total_steps != time_src->line.total_steps;
    if (partial || other_total) {
      r.step_time_s.reset();
      r.steady_step_time_s.reset();
    }
  }
  if (!r.step_time_s) r.step_time_s = RunAverageStepTime(a, r.step, r.total_steps);
  WithholdImplausibleStepTime(r);
  SetProgressAndEta(r);
  CountOuterEpochs(a, r);
  if (!ShowsTraining(r)) {
    ProgressReport missing;
    missing.confidence = Confidence(missing, -1);
    return missing;
  }
  r.lines_used.assign(used.begin(), used.end());
  r.confidence = Confidence(r, anchor);
  return r;
}

bool ProgressScan::ShowsTraining(const ProgressReport& r) const {
  if (r.step && r.total_steps && *r.step > *r.total_steps) return false;
  int facts = r.step.has_value() + r.total_steps.has_value() + r.step_time_s.has_value() + r.throughput.has_value() +
              r.loss.has_value();
  return facts >= 2 || SomeLayoutRepeats();
}

bool ProgressScan::SomeLayoutRepeats() const {
  std::set<uint64_t> layouts;
  for (const Entry& e : entries_)
    if (!layouts.insert(e.line.layout).second) return true;
  return false;
}

// Sure when the anchor's layout repeats and carries the core facts; unsure
// when one line decides, when no step is found, or when `missing` is
// reported although the classifier saw progress-looking lines.
double ProgressScan::Confidence(const ProgressReport& r, int anchor) const {
  if (anchor < 0) return progress_like_ > 0 ? 0.4 : 0.9;
  if (!r.step) return 0.5;
  double c = 0.6;
  if (anchor_steps_.size() >= 2) c += 0.2;
  if (r.step_time_s || r.throughput) c += 0.1;
  if (r.loss) c += 0.05;
  return c;
}

}  // namespace schedmate

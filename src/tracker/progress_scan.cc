#include "tracker/progress_scan.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>

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

// A duration that names no step: under a key such as "time", "runtime",
// "epoch time", or any key with a unit of seconds or longer ("cost 14.33
// s"; "bch(ms)" times a batch).
bool IsDurationKey(std::string_view key, std::string_view unit = "") {
  static constexpr std::string_view kDuration[] = {"time", "runtime", "duration", "elapsed", "took", "wall"};
  static constexpr std::string_view kStepNouns[] = {"it", "iter", "iteration", "step", "batch", "update", "per"};
  std::string_view last;
  size_t start = 0;
  while (start < key.size()) {
    size_t end = key.find_first_of(" /", start);
    if (end == std::string_view::npos) end = key.size();
    std::string_view w = key.substr(start, end - start);
    for (auto n : kStepNouns)
      if (w == n) return false;
    if (!w.empty()) last = w;
    start = end + 1;
  }
  for (auto d : kDuration)
    if (last == d) return true;
  return !unit.empty() && unit.find('/') == std::string_view::npos && SecondsPerUnit(unit) >= 1;
}

std::optional<int64_t> StepOf(const ProgressLine& p) {
  return p.step ? p.step : p.epoch_as_step;
}

}  // namespace

ProgressScan::ProgressScan(ProgressScanOptions options, const LineClassifier* classifier)
    : options_(options), classifier_(classifier), scratch_(classifier->MakeScratch()) {}

bool ProgressScan::Add(std::string_view line, int64_t index) {
  ++stats_.lines;
  stats_.bytes += static_cast<int64_t>(line.size()) + 1;
  if (!header_read_ && line.size() <= 600) {
    TableCells cells = SplitCells(line);
    if (IsValueRow(cells) && value_rows_.size() < 4) value_rows_.push_back({cells, index});
    if (!value_rows_.empty() && IsHeaderRow(cells)) ReadValueRows(cells);
  }
  if (std::string row = TableRow(line); !row.empty()) {
    std::string key = ScanLine(row).fields[0].key;
    bool headed = !row_run_.Accepts(line, key) && FlushRows(line);  // the line headed the rows before it
    if (!headed) {
      row_run_.Add(std::string(line), key);
      rows_.push_back({std::string(line), std::move(row), index});
    }
  } else if (rows_.empty() || !IsBlockFiller(line)) {
    if (!FlushRows(line)) Record(line, index, options_.stage1);
  }
  return stats_.lines < options_.max_lines && !Enough();
}

void ProgressScan::ReadValueRows(const TableCells& header) {
  std::vector<Entry> kept;
  kept.swap(entries_);
  for (const auto& row : value_rows_)
    if (std::string text = JoinHeader(header, row.cells); !text.empty()) Record(text, row.index, false);
  if (entries_.empty()) {  // the rows do not fit this header
    entries_.swap(kept);
    return;
  }
  header_read_ = true;
  value_rows_.clear();
  // Newest first, by line: the table's records among what was read before.
  for (auto& e : kept) entries_.push_back(std::move(e));
  std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.index > b.index; });
  Reanchor();
}

void ProgressScan::Reanchor() {
  first_step_ = -1;
  anchor_steps_.clear();
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (first_step_ < 0 && entries_[i].line.step) first_step_ = static_cast<int>(i);
    if (first_step_ >= 0 && entries_[i].line.step && entries_[i].line.layout == entries_[first_step_].line.layout)
      anchor_steps_.insert(*entries_[i].line.step);
  }
}

bool ProgressScan::FlushRows(std::string_view older) {
  if (rows_.empty()) return false;
  std::vector<Row> rows;
  rows.swap(rows_);
  row_run_.Clear();
  if (rows.size() >= 3) {
    std::string text;
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) text += (text.empty() ? "" : ", ") + it->text;
    bool headed = IsBlockHeader(older, rows.back().line);
    if (headed) text = std::string(older) + ", " + text;
    Record(text, rows.front().index, false);  // a table is metrics, whatever stage 1 says of its rows
    return headed;
  }
  for (const Row& r : rows) Record(r.line, r.index, options_.stage1);
  return false;
}

void ProgressScan::Record(std::string_view line, int64_t index, bool filter) {
  auto records = SplitGluedRecords(line);
  bool kept = false;
  for (auto it = records.rbegin(); it != records.rend(); ++it) {
    bool candidate = true;
    if (filter) {
      LineScores scores = classifier_->Classify(*it, scratch_);
      candidate = LineClassifier::IsProgressCandidate(scores, options_.stage1_margin);
      progress_like_ += candidate && scores.best == LineCategory::kProgress;
    }
    // Stage 1 judges a line alone: the head of a multi-line record is read
    // for the stepless training line below it, and the line below a step
    // record is kept to be read as its tail.
    if (!candidate && !StepLessRecordBelow(index)) {
      rejected_index_ = index;
      rejected_.assign(it->data(), it->size());
      if (OnlyBareBars()) DropAnnouncedBars(ScanLine(*it));
      continue;
    }
    ScannedLine scanned = ScanLine(*it);
    ProgressLine p = InterpretScanned(scanned);
    if (!p.is_training && OnlyBareBars()) DropAnnouncedBars(scanned);
    bool head = HeadsRecord(p, index);
    if (!candidate && !head) continue;
    kept = true;
    if (static_cast<int>(context_.size()) < options_.context_lines)
      context_.emplace_back(index, std::string(*it).substr(0, 2000));
    if (p.is_train_and_eval && train_and_eval_.size() < 64) {
      train_and_eval_.push_back({p, index, scanned});
      train_and_eval_.back().line.is_training = true;
    }
    if (!p.is_training && !head) continue;
    if (p.step && rejected_index_ == index + 1) ReadTail();
    ++stats_.training_lines;
    if (first_step_ < 0 && p.step) first_step_ = static_cast<int>(entries_.size());
    entries_.push_back({std::move(p), index, std::move(scanned)});
    const ProgressLine& added = entries_.back().line;
    if (first_step_ >= 0 && added.step &&
        added.layout == entries_[first_step_].line.layout)
      anchor_steps_.insert(*added.step);
  }
  if (kept) {
    ++stats_.kept_lines;
    stats_.kept_bytes += static_cast<int64_t>(line.size()) + 1;
  }
}

// A bar without a description ("100%|███| 20/20 [00:00<00:00, 176.09it/s]")
// that prints no loss says nothing of what it counts.
static bool IsBareBar(const ScannedLine& s, const ProgressLine& p) {
  if (!s.has_bar || p.loss) return false;
  for (const auto& f : s.fields)
    if (!f.key.empty()) return false;
  return true;
}

bool ProgressScan::OnlyBareBars() const {
  if (entries_.empty()) return false;
  for (const auto& e : entries_)
    if (!IsBareBar(e.scanned, e.line)) return false;
  return true;
}

// A line that announces an evaluation ("Evaluation", "Test on Epoch 30",
// "Validating ...") above the newest records, all bare bars: the bars of
// the pass right after it (one count, "0/310" … "310/310") count the
// evaluation's batches, not training steps. A bar of another count after
// them is training resumed ("***** Running Evaluation *****", the eval
// bar, then the training bar again) and stays.
void ProgressScan::DropAnnouncedBars(const ScannedLine& announcement) {
  if (!AnnouncesEvaluation(announcement)) return;
  std::optional<int64_t> total = entries_.back().line.total_steps;
  while (!entries_.empty() && entries_.back().line.total_steps == total) entries_.pop_back();
  train_and_eval_.clear();
  Reanchor();
}

void ProgressScan::ReadTail() {
  int64_t index = rejected_index_;
  rejected_index_ = -1;
  ScannedLine scanned = ScanLine(rejected_);
  ProgressLine p = InterpretScanned(scanned);
  if (!p.is_training || p.step) return;
  ++stats_.training_lines;
  entries_.push_back({std::move(p), index, std::move(scanned)});
}

bool ProgressScan::HeadsRecord(const ProgressLine& p, int64_t index) const {
  if (p.is_training || p.is_eval || p.step_positional) return false;
  // A step alone, or an epoch alone ("Train Epoch: 70/70 ..." over
  // "    total_loss: 8.9992 time: 10m 8s": an epoch-level record).
  bool step_head = p.step && p.Facts() == 1 + (p.total_steps ? 1 : 0);
  bool epoch_head = !p.step && p.epoch_as_step && p.Facts() == 0;
  if (!step_head && !epoch_head) return false;
  return StepLessRecordBelow(index);
}

bool ProgressScan::StepLessRecordBelow(int64_t index) const {
  return !entries_.empty() && !entries_.back().line.step && entries_.back().index - index <= 2;
}

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

bool ProgressScan::Enough() const {
  return first_step_ >= 0 && static_cast<int>(anchor_steps_.size()) >= options_.samples;
}

// Evaluation records that print the training loss are the run's progress
// when they state more than a step (a total, a time, a rate) or repeat with a
// climbing step; nanoGPT's one "step 250: train loss …, val loss …" is not.
bool ProgressScan::TrainAndEvalIsProgress() const {
  if (train_and_eval_.empty()) return false;
  const ProgressLine& newest = train_and_eval_.front().line;
  if (newest.total_steps || newest.step_time_s || newest.throughput) return true;
  for (size_t i = 1; i < train_and_eval_.size(); ++i) {
    const ProgressLine& p = train_and_eval_[i].line;
    if (p.layout == newest.layout && p.step && *p.step < *newest.step) return true;
  }
  return false;
}

bool ProgressScan::HasPositionalSteps() const {
  return std::any_of(entries_.begin(), entries_.end(), [](const Entry& e) { return e.line.step_positional; });
}

void ProgressScan::DropLonePositionalSteps() {
  std::vector<Entry> kept;
  for (size_t i = 0; i < entries_.size(); ++i) {
    Entry e = entries_[i];
    if (e.line.step_positional) {
      // Above the round printed before it: a repeat of an earlier round
      // ("Stopping. Best iteration: [1093]" after [1500]) is no progress.
      bool climbed = false;
      for (size_t j = i + 1; j < entries_.size(); ++j)
        if (entries_[j].line.layout == e.line.layout && entries_[j].line.step) {
          climbed = *entries_[j].line.step < *e.line.step;
          break;
        }
      if (!climbed) {
        e.line.step.reset();
        e.line.step_positional = false;
        if (e.line.Facts() == 0 && !e.line.epoch_as_step) continue;
      }
    }
    kept.push_back(std::move(e));
  }
  entries_.swap(kept);
  Reanchor();
}

namespace {
bool FinishedLosslessBar(const ProgressLine& p, const ScannedLine& s) {
  return s.has_bar && p.step && p.total_steps && *p.step == *p.total_steps && !p.loss;
}
}  // namespace

bool ProgressScan::HasRepeatedFinishedBars() const {
  for (size_t i = 0; i + 1 < entries_.size(); ++i) {
    const Entry& a = entries_[i];
    const Entry& b = entries_[i + 1];
    if (FinishedLosslessBar(a.line, a.scanned) && FinishedLosslessBar(b.line, b.scanned) &&
        a.line.step == b.line.step)
      return true;
  }
  return false;
}

void ProgressScan::DropRepeatedFinishedBars() {
  std::vector<bool> drop(entries_.size(), false);
  for (size_t i = 0; i + 1 < entries_.size(); ++i) {
    const Entry& a = entries_[i];
    const Entry& b = entries_[i + 1];
    if (FinishedLosslessBar(a.line, a.scanned) && FinishedLosslessBar(b.line, b.scanned) &&
        a.line.step == b.line.step)
      drop[i] = drop[i + 1] = true;
  }
  bool other = false;
  for (size_t i = 0; i < entries_.size(); ++i)
    other = other || (!drop[i] && entries_[i].line.step && entries_[i].line.loss);
  if (!other) {
    // Only bars count the steps: of pairs (not longer runs) that recur
    // between records, the older bar is the training pass, the newer its
    // evaluation pass (a train loader's bar, then the eval loader's, every
    // epoch). One pair alone may be two epochs of training.
    std::fill(drop.begin(), drop.end(), false);
    for (size_t i = 0; i + 1 < entries_.size(); ++i) {
      auto same = [&](size_t x, size_t y) {
        return FinishedLosslessBar(entries_[x].line, entries_[x].scanned) &&
               FinishedLosslessBar(entries_[y].line, entries_[y].scanned) &&
               entries_[x].line.step == entries_[y].line.step;
      };
      bool pair = same(i, i + 1) && !(i > 0 && same(i - 1, i)) && !(i + 2 < entries_.size() && same(i + 1, i + 2));
      if (pair) drop[i] = true;
    }
    if (std::count(drop.begin(), drop.end(), true) < 2) return;
  }
  std::vector<Entry> kept;
  for (size_t i = 0; i < entries_.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(entries_[i]));
  entries_.swap(kept);
  Reanchor();
}

bool ProgressScan::ClimbingTotals(uint64_t layout) const {
  std::set<int64_t> steps, totals;
  std::optional<int64_t> newer_total;
  for (const Entry& e : entries_) {  // newest first
    if (e.line.layout != layout || !e.line.step || !e.line.total_steps) continue;
    if (newer_total && *e.line.total_steps > *newer_total) return false;  // totals never fall
    newer_total = e.line.total_steps;
    steps.insert(*e.line.step);
    totals.insert(*e.line.total_steps);
  }
  return totals.size() >= 2 && steps.size() < totals.size();
}

bool ProgressScan::HasClimbingTotals() const {
  std::set<uint64_t> seen;
  for (const Entry& e : entries_)
    if (e.line.total_steps && seen.insert(e.line.layout).second && ClimbingTotals(e.line.layout)) return true;
  return false;
}

void ProgressScan::SwapClimbingTotals() {
  std::set<uint64_t> seen, climbing;
  for (const Entry& e : entries_)
    if (e.line.total_steps && seen.insert(e.line.layout).second && ClimbingTotals(e.line.layout))
      climbing.insert(e.line.layout);
  if (climbing.empty()) return;
  for (Entry& e : entries_) {
    if (!climbing.count(e.line.layout) || !e.line.total_steps) continue;
    e.line.step = e.line.total_steps;
    e.line.total_steps.reset();
  }
  Reanchor();
}

ProgressReport ProgressScan::Finish() const {
  auto stepless = [](const std::vector<Entry>& es) {
    return std::none_of(es.begin(), es.end(), [](const Entry& e) { return e.line.step.has_value(); });
  };
  bool fallback = stepless(entries_) && !train_and_eval_.empty();
  if (rows_.empty() && !fallback && !HasPositionalSteps() && !HasClimbingTotals() && !HasRepeatedFinishedBars())
    return FinishNow();
  // The oldest rows are still pending, or positional steps wait for their
  // check: finish on a copy.
  ProgressScan rest = *this;
  rest.FlushRows();
  if (stepless(rest.entries_) && rest.TrainAndEvalIsProgress()) {
    // No plain training record with a step (an epoch summary at most): the
    // evaluation records that print the training loss are the run's.
    rest.entries_.swap(rest.train_and_eval_);
    rest.Reanchor();
  }
  rest.DropLonePositionalSteps();
  rest.SwapClimbingTotals();
  rest.DropRepeatedFinishedBars();
  return rest.FinishNow();
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
  const Entry* time_src =
      pick([](const ProgressLine& p) { return p.step_time_s.has_value() && (p.step || !p.epoch_as_step); });
  // An epoch-level record's time is the epoch's: with no step, no step time.
  if (!a.line.step && a.line.epoch_as_step) time_src = nullptr;
  if (time_src) {
    r.step_time_s = time_src->line.step_time_s;
    used.insert(time_src->index);
  }
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
        used.insert(lines.begin(), lines.end());
      }
    }
  } else if (a.line.step) {
    // No printed step time: derive it from timestamps of the anchor's layout.
    std::vector<int64_t> lines;
    std::vector<double> per_step = StampedStepTimes(a, &lines);
    if (!per_step.empty()) {
      r.step_time_s = per_step.front();
      used.insert(lines.begin(), lines.end());
    }
    r.steady_step_time_s = RobustMean(per_step);
  }
  if (tp_src)
    r.steady_throughput = RobustMean(samples_of(
        tp_src->line.layout, [](const ProgressLine& p) { return p.throughput; }));

  ApplyTagger(anchor, r);
  if (r.step && r.total_steps && *r.total_steps > 0) {
    r.progress_fraction = std::clamp(static_cast<double>(*r.step) / *r.total_steps, 0.0, 1.0);
    std::optional<double> t = r.steady_step_time_s ? r.steady_step_time_s : r.step_time_s;
    if (t) r.eta_s = std::max<int64_t>(0, *r.total_steps - *r.step) * *t;
  }
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

// The printed step time of `src`'s layout read as a clock since some start
// (a cumulative "time (sec)", "time: 298.3"): it grew at every one of the
// newest four or more records with a climbing step, each growth per step
// within a factor 2 of the others, and — where the records are stamped —
// as much as the stamps did. A per-step time wanders instead; a running
// average flattens. Seconds per step over each interval, newest first.
std::vector<double> ProgressScan::ClockStepTimes(const Entry& src, std::vector<int64_t>* lines) const {
  std::vector<const Entry*> pts;
  std::set<int64_t> seen;
  for (const auto& e : entries_) {
    if (e.line.layout != src.line.layout || !e.line.step || !e.line.step_time_s) continue;
    if (!seen.insert(*e.line.step).second) continue;
    pts.push_back(&e);
    if (static_cast<int>(pts.size()) > options_.samples) break;
  }
  if (pts.empty() || pts.front() != &src) return {};
  std::vector<double> per_step;
  bool stamped = true;
  double stamp_fit = 0;
  for (size_t i = 0; i + 1 < pts.size(); ++i) {
    const ProgressLine& newer = pts[i]->line;
    const ProgressLine& older = pts[i + 1]->line;
    int64_t ds = *newer.step - *older.step;
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
  double steps_counted = *pts[0]->line.step_time_s / per_step.front();
  if (steps_counted > 10 * std::max<double>(1, static_cast<double>(*pts[0]->line.step))) return {};
  *lines = {pts[0]->index, pts[1]->index};
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

// No line the key vocabulary reads as training: the tagger reads the newest
// stage-1 line whose layout repeats (a record and the one before it), and
// reports it when it finds a step there.
bool ProgressScan::TagUnreadLines(ProgressReport& r) const {
  if (!options_.tagger || options_.tagger->empty()) return false;
  std::vector<std::pair<int64_t, ScannedLine>> lines;
  for (const auto& [index, text] : context_) {
    ScannedLine s = ScanLine(text);
    if (s.fields.size() < 2 || InterpretScanned(s).is_eval) continue;
    lines.emplace_back(index, std::move(s));
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string key = LayoutSignature(lines[i].second);
    const ScannedLine* previous = nullptr;
    int64_t previous_index = -1;
    for (size_t j = i + 1; j < lines.size() && !previous; ++j)
      if (LayoutSignature(lines[j].second) == key && lines[j].second.fields.size() == lines[i].second.fields.size()) {
        previous = &lines[j].second;
        previous_index = lines[j].first;
      }
    if (!previous) continue;
    TaggedRecord t = TagRecord(*options_.tagger, lines[i].second, previous, options_.tagger_min_p);
    // Sure enough to stand alone: a step the tagger is sure of, that climbed
    // since the previous record, beside a loss or a time.
    if (!t.step || t.step_p < 0.8 || (!(t.loss || t.step_time_s) && t.step_p < 0.95)) continue;
    bool climbed = false;
    for (size_t f = 0; f < lines[i].second.fields.size(); ++f) {
      const auto& now = lines[i].second.fields[f];
      if (now.integer && static_cast<int64_t>(now.value) == *t.step) climbed = previous->fields[f].value < now.value;
    }
    if (!climbed) continue;
    r.status = ProgressReport::Status::kOk;
    r.step = t.step;
    r.total_steps = t.total_steps;
    r.step_time_s = t.step_time_s;
    r.loss = t.loss;
    if (t.throughput) {
      r.throughput = t.throughput;
      r.throughput_unit = t.throughput_unit;
    }
    if (!r.step_time_s && lines[i].second.timestamp_s && previous->timestamp_s) {
      // The step counters' climb against the stamps' (as for the anchor).
      for (size_t f = 0; f < lines[i].second.fields.size(); ++f) {
        const auto& now = lines[i].second.fields[f];
        if (!now.integer || static_cast<int64_t>(now.value) != *t.step) continue;
        double ds = now.value - previous->fields[f].value;
        double dt = *lines[i].second.timestamp_s - *previous->timestamp_s;
        if (ds > 0 && dt >= 20 * lines[i].second.timestamp_resolution_s) r.step_time_s = dt / ds;
        break;
      }
    }
    if (r.step && r.total_steps && *r.total_steps > 0) {
      r.progress_fraction = std::clamp(static_cast<double>(*r.step) / *r.total_steps, 0.0, 1.0);
      if (r.step_time_s) r.eta_s = std::max<int64_t>(0, *r.total_steps - *r.step) * *r.step_time_s;
    }
    r.lines_used = {previous_index, lines[i].first};
    std::sort(r.lines_used.begin(), r.lines_used.end());
    r.confidence = 0.5;  // the tagger alone: below the cascade's threshold
    return true;
  }
  return false;
}

// The tagger's reading of the anchor record fills the facts the key
// vocabulary did not find (a step under another name, a clock to difference).
void ProgressScan::ApplyTagger(int anchor, ProgressReport& r) const {
  if (!options_.tagger || options_.tagger->empty()) return;
  const Entry& a = entries_[anchor];
  const ScannedLine* previous = nullptr;
  for (size_t i = anchor + 1; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (e.line.layout == a.line.layout && e.scanned.fields.size() == a.scanned.fields.size() &&
        (!a.line.step || e.line.step != a.line.step)) {
      previous = &e.scanned;
      break;
    }
  }
  TaggedRecord t = TagRecord(*options_.tagger, a.scanned, previous, options_.tagger_min_p);
  // An epoch counter ("Training Epoch:[855/1500] loss=…") counts epochs of
  // the run's total: never the tagger's step. (A bare epoch number is left
  // to the tagger: epoch-level JSON records report it as the step.)
  if (t.step && t.step_field >= 0) {
    const ScannedField& f = a.scanned.fields[t.step_field];
    std::vector<std::string> hints = VocabularyHints(f);
    if (f.total && std::find(hints.begin(), hints.end(), "epoch") != hints.end()) t.step.reset();
  }
  if (t.step && !r.step) {
    r.step = t.step;
    if (!r.total_steps) r.total_steps = t.total_steps;
  }
  if (t.loss && !r.loss && !a.line.loss_withheld) r.loss = t.loss;
  // A time the vocabulary read per step that the tagger reads as a clock or
  // a per-interval time ("Time 443.88s" every 500 updates) is replaced.
  bool clock = t.time_role == FieldRole::kIntervalTime || t.time_role == FieldRole::kCumulativeTime;
  // An epoch-level record's duration is the epoch's, not a step's, for the
  // tagger too ("Epoch: 10 | Time: 0m 26s" with no step); a time that names
  // its batch ("time per batch", "bch(ms)") is still a step's.
  bool epoch_duration = !r.step && a.line.epoch_as_step && t.time_field >= 0 &&
                        IsDurationKey(a.scanned.fields[t.time_field].key, a.scanned.fields[t.time_field].unit);
  if (t.step_time_s && !epoch_duration && (!r.step_time_s || (clock && t.time_p >= options_.tagger_clock_p))) {
    r.step_time_s = t.step_time_s;
    r.steady_step_time_s.reset();
  }
  if (t.throughput && !r.throughput) {
    r.throughput = t.throughput;
    r.throughput_unit = t.throughput_unit;
  }
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

ProgressReport ScanProgress(const std::vector<std::string>& lines, ProgressScanOptions options,
                            ProgressScanStats* stats) {
  ProgressScan scan(options);
  for (size_t i = lines.size(); i-- > 0;)
    if (!scan.Add(lines[i], static_cast<int64_t>(i))) break;
  if (stats) *stats = scan.stats();
  return scan.Finish();
}

}  // namespace schedmate

// ProgressScan::Finish: corrections of the training lines read before the
// report is assembled (progress_scan_report.cc) — pending rows flushed,
// evaluation records that print the training loss, lone positional steps,
// climbing totals, repeated finished bars.
#include "tracker/progress_scan.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedmate {

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
  DropEntries(drop);
}

void ProgressScan::DropEntries(const std::vector<bool>& drop, std::vector<Entry>* dropped) {
  std::vector<Entry> kept;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (!drop[i]) kept.push_back(std::move(entries_[i]));
    else if (dropped) dropped->push_back(std::move(entries_[i]));
  }
  entries_.swap(kept);
  Reanchor();
}

// The newest training lines compared pairwise for nested bars (a bound on
// the quadratic check; the outer bar that matters is near the anchor).
constexpr size_t kBarsCompared = 128;

// Nested tqdm: a bar naming epochs each of whose steps lasts as long as a
// whole finished bar of another layout that counts more ("Training: 2/2 [07:43,
// 231.64s/epoch]" beside "Epoch 1: 994/994 [03:58, 4.17batch/s]": 231.64 s
// against 994 / 4.17 = 238 s) counts those bars — epochs — not the steps.
// The outer bar must also say it counts epochs (its unit or description):
// a training step that holds a whole bar of something else (an RL step's
// "Processed prompts: 512/512", a data pass) counts training steps.
bool ProgressScan::IsOuterBar(const Entry& e) const {
  const ProgressLine& p = e.line;
  if (!e.scanned.has_bar || !p.step || !p.total_steps || !p.step_time_s || !(*p.step_time_s > 0)) return false;
  const auto& words = e.scanned.words;
  const auto& fields = e.scanned.fields;
  bool names_epochs =
      std::any_of(words.begin(), words.end(), [](const std::string& w) { return w == "epoch" || w == "epochs"; }) ||
      std::any_of(fields.begin(), fields.end(),
                  [](const ScannedField& f) { return f.unit.find("epoch") != std::string::npos; });
  if (!names_epochs) return false;
  size_t n = std::min<size_t>(entries_.size(), kBarsCompared);
  for (size_t i = 0; i < n; ++i) {
    const Entry& f = entries_[i];
    const ProgressLine& q = f.line;
    if (!f.scanned.has_bar || q.layout == p.layout || !q.step || q.step != q.total_steps || !q.step_time_s) continue;
    if (*q.total_steps <= *p.total_steps) continue;
    double ratio = *p.step_time_s / (static_cast<double>(*q.total_steps) * *q.step_time_s);
    if (ratio >= 0.8 && ratio <= 1.5) return true;  // the outer step also holds what runs between inner bars
  }
  return false;
}

bool ProgressScan::HasOuterBars() const {
  size_t n = std::min<size_t>(entries_.size(), kBarsCompared);
  return std::any_of(entries_.begin(), entries_.begin() + n, [&](const Entry& e) { return IsOuterBar(e); });
}

void ProgressScan::DropOuterBars() {
  std::vector<bool> drop(entries_.size());
  for (size_t i = 0; i < std::min<size_t>(entries_.size(), kBarsCompared); ++i) drop[i] = IsOuterBar(entries_[i]);
  DropEntries(drop, &outer_bars_);
}

namespace {
bool HasEpochWord(const std::string& key) {
  for (size_t p = 0; p <= key.size();) {
    size_t q = key.find(' ', p);
    if (q == std::string::npos) q = key.size();
    std::string_view w(key.data() + p, q - p);
    if (w == "epoch" || w == "epochs") return true;
    p = q + 1;
  }
  return false;
}
}  // namespace

// A drawn bar's counter "c/E" that counts epochs: its key names them
// ("Epoch 2/5 ━━"), or it is the bar's own counter on a bar that names
// epochs with no epoch number ("Epoch:  40%|████| 2/5": the word heads the
// percentage) or by its rate's unit ("Training: 2/4 [04:01, 120.50s/epoch]").
// "Epoch 1: 100%|██| 500/500" numbers its epoch: its counter counts batches.
std::optional<std::pair<int64_t, int64_t>> EpochBarCounter(const ScannedLine& s) {
  if (!s.has_bar) return std::nullopt;
  bool names_epochs = std::any_of(s.fields.begin(), s.fields.end(), [](const ScannedField& f) {
    return f.unit.find("epoch") != std::string::npos || (f.unit == "%" && HasEpochWord(f.key));
  });
  for (const ScannedField& f : s.fields) {
    if (!f.total || !f.integer || f.value < 0 || f.value > *f.total || *f.total < 1) continue;
    if (HasEpochWord(f.key) || (f.follows_bar && names_epochs))
      return std::make_pair(static_cast<int64_t>(f.value), static_cast<int64_t>(*f.total));
  }
  return std::nullopt;
}

void ProgressScan::CountOuterEpochs(const Entry& a, ProgressReport& r) const {
  if (!r.step || !r.total_steps || *r.total_steps <= 0 || a.line.step != r.step) return;
  if (EpochBarCounter(a.scanned)) return;  // the anchor's own epoch counter: one bar, per epoch as before
  const Entry* outer = nullptr;
  std::pair<int64_t, int64_t> epochs;
  const std::vector<Entry> bar_line = epoch_bar_ ? std::vector<Entry>{*epoch_bar_} : std::vector<Entry>{};
  for (const std::vector<Entry>* list : {&entries_, &outer_bars_, &bar_line})
    for (const Entry& e : *list) {
      if (e.line.layout == a.line.layout || (outer && e.index <= outer->index)) continue;
      if (auto c = EpochBarCounter(e.scanned)) {
        outer = &e;
        epochs = *c;
      }
    }
  if (!outer || epochs.second < 2) return;
  // Only an inner bar evidently per epoch: the newest record of the anchor's
  // layout before the outer bar's line has the anchor's total and finished
  // there, or the counter went back down after it (restarted at the epoch
  // boundary). A run-wide counter ("step 1300/5000" beside "Epoch 2/5", or
  // "Steps: 2250/5000" under "Epoch: 2/5") or another run's bar keeps step/total.
  const Entry* before = nullptr;
  for (const Entry& e : entries_)
    if (e.line.layout == a.line.layout && e.index < outer->index && (!before || e.index > before->index)) before = &e;
  if (!before || !before->line.step || before->line.total_steps != r.total_steps) return;
  bool per_epoch_bar = *before->line.step == *r.total_steps;
  for (const Entry& e : entries_)
    if (!per_epoch_bar && e.line.layout == a.line.layout && e.index > outer->index && e.line.step &&
        *e.line.step < *before->line.step && e.line.total_steps == r.total_steps)
      per_epoch_bar = true;
  if (!per_epoch_bar) return;
  // tqdm counts finished epochs: an inner bar printed after the outer line
  // runs in the next epoch; one printed before it finished an epoch counted.
  const int64_t per_epoch = *r.total_steps;
  const int64_t total = epochs.second * per_epoch;
  const int64_t done = std::clamp<int64_t>(epochs.first * per_epoch + (a.index > outer->index ? *r.step : 0), 0, total);
  r.eta_s.reset();
  SetProgressAndEta(r, done, total);
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

std::vector<size_t> ProgressScan::AnnouncedPass() const {
  if (announced_index_ < 0) return {};
  std::vector<size_t> newer;  // entries below the announcement, oldest first
  for (size_t i = entries_.size(); i-- > 0;)
    if (entries_[i].index > announced_index_) newer.push_back(i);
  if (newer.empty()) return {};
  const Entry& first = entries_[newer.front()];
  if (first.index != pass_start_ || !first.line.step || !first.line.total_steps) return {};
  const bool other_count = std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) {
    return e.index < announced_index_ && e.line.layout == first.line.layout && e.line.step && e.line.total_steps &&
           *e.line.total_steps != *first.line.total_steps;
  });
  if (!other_count) return {};
  std::vector<size_t> pass;
  int64_t next = first.index;
  for (size_t i : newer) {
    const Entry& e = entries_[i];
    if (e.index != next || e.line.layout != first.line.layout || e.line.total_steps != first.line.total_steps) break;
    pass.push_back(i);
    next = Below(e.index);
  }
  return pass;
}

void ProgressScan::DropAnnouncedPass() {
  std::vector<size_t> pass = AnnouncedPass();
  if (pass.empty()) return;
  std::vector<bool> drop(entries_.size(), false);
  for (size_t i : pass) drop[i] = true;
  DropEntries(drop);
}

ProgressReport ProgressScan::Finish() const {
  auto stepless = [](const std::vector<Entry>& es) {
    return std::none_of(es.begin(), es.end(), [](const Entry& e) { return e.line.step.has_value(); });
  };
  bool fallback = stepless(entries_) && !train_and_eval_.empty();
  if (rows_.empty() && !fallback && !HasPositionalSteps() && !HasClimbingTotals() && !HasRepeatedFinishedBars() &&
      !HasOuterBars() && AnnouncedPass().empty())
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
  rest.DropAnnouncedPass();
  rest.DropLonePositionalSteps();
  rest.SwapClimbingTotals();
  rest.DropRepeatedFinishedBars();
  if (rest.HasOuterBars()) rest.DropOuterBars();
  return rest.FinishNow();
}

}  // namespace schedmate

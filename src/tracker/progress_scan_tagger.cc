// ProgressScan and the learned field tagger (field_tagger.h): the tagger's
// reading of the anchor record fills facts the key vocabulary left unread,
// and with no training line it reads a repeating stage-1 layout alone.
#include "tracker/progress_scan.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedmate {
namespace {

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

// An epoch counter ("Training Epoch:[855/1500]", "End of epoch 134 / 500000")
// counts epochs of the run's total: never the tagger's step. (A bare epoch
// number is left to the tagger: epoch-level JSON records report it as the step.)
bool IsEpochCounter(const ScannedLine& s, int field) {
  if (field < 0) return false;
  const ScannedField& f = s.fields[field];
  std::vector<std::string> hints = VocabularyHints(f);
  return f.total && std::find(hints.begin(), hints.end(), "epoch") != hints.end();
}

}  // namespace

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
    if (t.step && IsEpochCounter(lines[i].second, t.step_field)) t.step.reset();
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
    SetProgressAndEta(r);  // r.steady_step_time_s is not set here
    r.lines_used = {previous_index, lines[i].first};
    std::sort(r.lines_used.begin(), r.lines_used.end());
    r.confidence = 0.5;  // the tagger alone: below the cascade's threshold
    return true;
  }
  return false;
}

// The tagger's reading of the anchor record fills the facts the key
// vocabulary did not find (a step under another name, a clock to difference).
int ProgressScan::ApplyTagger(int anchor, ProgressReport& r) const {
  if (!options_.tagger || options_.tagger->empty()) return -1;
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
  if (t.step && IsEpochCounter(a.scanned, t.step_field)) t.step.reset();
  int step_field = -1;
  if (t.step && !r.step) {
    r.step = t.step;
    step_field = t.step_field;
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
  return step_field;
}

}  // namespace schedmate

// Line intake of the ProgressScan: rows and tables gathered into records,
// glued records split, the stage-1 filter, and the training lines kept
// newest first (progress_scan.h). The report is assembled in
// progress_scan_report.cc after the corrections of progress_scan_corrections.cc.
#include "tracker/progress_scan.h"

#include <algorithm>
#include <optional>
#include <string>

namespace schedmate {

ProgressScan::ProgressScan(ProgressScanOptions options, const LineClassifier* classifier)
    : options_(options), classifier_(classifier), scratch_(classifier->MakeScratch()) {}

bool ProgressScan::Add(std::string_view line, int64_t index) {
  if (last_added_ >= 0 && last_added_ > index) below_[index] = last_added_;
  last_added_ = index;
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
  NoteRunDuration(line);
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
      else NoteAnnouncement(ScanLine(*it), index, RecordJustBelow(index));
      continue;
    }
    ScannedLine scanned = ScanLine(*it);
    ProgressLine p = InterpretScanned(scanned);
    if (!p.is_training && OnlyBareBars()) DropAnnouncedBars(scanned);
    else if (!p.is_training) NoteAnnouncement(scanned, index, RecordJustBelow(index));
    bool head = HeadsRecord(p, index);
    if (!candidate && !head) continue;
    kept = true;
    if (static_cast<int>(context_.size()) < options_.context_lines)
      context_.emplace_back(index, std::string(*it).substr(0, 2000));
    if (p.is_train_and_eval && train_and_eval_.size() < 64) {
      train_and_eval_.push_back({p, index, scanned});
      train_and_eval_.back().line.is_training = true;
    }
    if (!p.is_training && !p.is_eval && !epoch_bar_ && EpochBarCounter(scanned))
      epoch_bar_ = Entry{p, index, scanned};  // read newest first: the newest such bar
    if (!p.is_training && !head) continue;
    if (p.step && rejected_index_ == Below(index)) ReadTail();
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

void ProgressScan::NoteAnnouncement(const ScannedLine& announcement, int64_t index, bool record_below) {
  if (!AnnouncesEvaluation(announcement)) return;
  bool dropped = false;
  if (record_below) {
    DropAnnouncedRecord(announcement);
    dropped = true;
  }
  if (announced_index_ >= 0 || entries_.empty()) return;  // the newest announcement only
  announced_index_ = index;
  pass_start_ = dropped ? Below(Below(index)) : Below(index);
}

bool ProgressScan::RecordJustBelow(int64_t index) const {
  return !entries_.empty() && entries_.back().index == Below(index) && !entries_.back().scanned.has_bar;
}

// A record printed right under a line that announces an evaluation
// ("testing in eval mode……" over "epoch: 7,  loss is: 0.2586, acc is: 0.91"):
// the evaluation's result, however much it looks like the training record.
void ProgressScan::DropAnnouncedRecord(const ScannedLine& announcement) {
  if (!AnnouncesEvaluation(announcement)) return;
  int64_t dropped = entries_.back().index;
  entries_.pop_back();
  if (!train_and_eval_.empty() && train_and_eval_.back().index == dropped) train_and_eval_.pop_back();
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

bool ProgressScan::Enough() const {
  return first_step_ >= 0 && static_cast<int>(anchor_steps_.size()) >= options_.samples;
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

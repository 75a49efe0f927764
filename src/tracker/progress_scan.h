// Stages 1 and 2 of the Metric Tracker over lines fed newest first
// (DESIGN §1.2 steps 2–4).
//
// Each line is split into glued records, filtered by the stage-1 classifier
// and interpreted (progress_line.h). Different loggers print different
// facets of one training loop — tqdm the step and s/it, the HF Trainer dict
// the loss, DeepSpeed's timer the samples/s, a hard-wrapped Megatron record
// three physical lines — so the report is assembled around an *anchor*, the
// newest training line with a step: each field comes from the newest
// training line that prints it within the anchor's region, the lines after
// the previous line of the anchor's own layout. Steady-state values are the
// mean of the last N samples of one layout after dropping outliers
// (|x − median| > 3·1.4826·MAD). No training line → status `missing`.
#ifndef SCHEDMATE_TRACKER_PROGRESS_SCAN_H_
#define SCHEDMATE_TRACKER_PROGRESS_SCAN_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "core/facts.h"
#include "text/line_classifier.h"
#include "tracker/field_scanner.h"
#include "tracker/field_tagger.h"
#include "tracker/progress_line.h"
#include "tracker/table_rows.h"

namespace schedmate {

struct ProgressScanOptions {
  int samples = 10;              // N consistent samples of the anchor's layout
  int64_t max_lines = 200000;    // give up (→ missing) after this many lines
  bool stage1 = true;            // filter with the line classifier first
  float stage1_margin = 0.05f;
  int context_lines = 60;        // newest stage-1 lines kept for an LLM backend
  // The learned field tagger: reads the anchor record's fields the key
  // vocabulary left unread (null: off).
  const FieldTagger* tagger = &FieldTagger::Default();
  double tagger_min_p = 0.4;
  double tagger_clock_p = 0.7;  // the tagger's clock/interval reading replaces a per-step time
};

struct ProgressScanStats {
  int64_t lines = 0, bytes = 0;             // seen
  int64_t kept_lines = 0, kept_bytes = 0;   // passed stage 1
  int64_t training_lines = 0;               // parsed as training progress
};

class ProgressScan {
 public:
  explicit ProgressScan(ProgressScanOptions options = {},
                        const LineClassifier* classifier = &LineClassifier::Default());

  // Feed lines newest first; `index` is the line's number (any monotone id).
  // Returns false once enough samples are collected: stop feeding.
  bool Add(std::string_view line, int64_t index);

  // The embedded backend's report, with its confidence.
  ProgressReport Finish() const;
  const ProgressScanStats& stats() const { return stats_; }
  // The newest lines that passed stage 1 (index, text), newest first: the
  // context an LLM backend reads.
  const std::vector<std::pair<int64_t, std::string>>& context() const { return context_; }

 private:
  struct Entry {
    ProgressLine line;
    int64_t index;
    ScannedLine scanned;
  };
  // Returns the index of the anchor's field the tagger read as the step it
  // reports (-1: none, or the vocabulary's step stands).
  int ApplyTagger(int anchor, ProgressReport& r) const;
  // The stamps of the anchor's layout, newest interval first: seconds
  // `dt` over `ds` steps (the step read by the vocabulary, else the
  // anchor's field `step_field`), stamps of resolution `res`.
  struct StampInterval {
    double dt, ds, res;
    int64_t newer_line, older_line;
  };
  std::vector<StampInterval> StampIntervals(const Entry& a, int step_field) const;
  // A step time the stamps contradict by far (progress_scan_checks.cc) is
  // replaced by theirs, or withheld.
  void CheckStepTimeAgainstStamps(const Entry& a, const Entry* time_src, int step_field, ProgressReport& r,
                                  std::set<int64_t>& used) const;
  bool TagUnreadLines(ProgressReport& r) const;
  // Rows of a metrics table or a multi-line record (field_scanner.h
  // TableRow), newest first, until a line that is neither one nor a filler
  // (table_rows.h RowRun) ends them: three or more are read as one record.
  struct Row {
    std::string line, text;
    int64_t index;
  };
  void Record(std::string_view text, int64_t index, bool filter);
  // Value rows of a header-over-values table wait (newest few) for their
  // header, which is older and so read later; then they become records.
  struct ValueRow {
    TableCells cells;
    int64_t index;
  };
  void ReadValueRows(const TableCells& header);
  bool TrainAndEvalIsProgress() const;
  // A line printing only a step just above a training line without one
  // ("---- batch: 900 ----" over "mean loss: 100.15"): the head of a
  // multi-line record, read as training progress.
  bool HeadsRecord(const ProgressLine& p, int64_t index) const;
  bool StepLessRecordBelow(int64_t index) const;
  // The line just below a step record that stage 1 rejected, read as the
  // record's tail when it is stepless training output ("step = 3000, loss
  // = 2.2" over "403.487 steps/sec").
  void ReadTail();
  // Positional steps (ProgressLine::step_positional) that do not climb
  // from the record of their layout before are tags, not steps: dropped.
  bool HasPositionalSteps() const;
  void DropLonePositionalSteps();
  // Finished bars of one count printed back to back with no record between
  // ("100%|██| 4784/4784 …" three times after the training records) are
  // passes over the same data (inference), not training: dropped when a
  // training record of another layout prints a step and a loss.
  bool HasRepeatedFinishedBars() const;
  // The step time of `e` is 1/x of a rate printed as one significant digit, 1 or 2.
  static bool CoarseRate(const Entry& e);
  void DropRepeatedFinishedBars();
  // Counters "a/b" whose b climbs from record to record of one layout while
  // a changes less often ("Batch 4/203700" … "Batch 4/203800": epoch and
  // batch) count b: it is the step, and no total is printed.
  bool ClimbingTotals(uint64_t layout) const;
  // The outer bar of nested tqdm, told by its step lasting as long as a
  // whole bar of another layout: it counts epochs, and is dropped.
  bool IsOuterBar(const Entry& e) const;
  bool HasOuterBars() const;
  void DropOuterBars();
  // Nested bars mid-run: progress and ETA count the epochs of the newest
  // outer bar ("Epoch: 2/5" over "Iteration: 1000/1000", or a dropped outer
  // bar), the anchor's step and total staying the inner bar's.
  void CountOuterEpochs(const Entry& a, ProgressReport& r) const;
  bool HasClimbingTotals() const;
  void SwapClimbingTotals();
  void Reanchor();
  // Removes the entries marked in `drop` (into `*dropped` when given) and reanchors.
  void DropEntries(const std::vector<bool>& drop, std::vector<Entry>* dropped = nullptr);
  // Records the pending rows; true when `older` (the line before them) heads
  // them and was read with them (table_rows.h IsBlockHeader).
  bool FlushRows(std::string_view older = {});
  ProgressReport FinishNow() const;
  bool Enough() const;
  int Anchor() const;
  size_t RegionEnd(int anchor) const;
  // Seconds per step from the stamps of the anchor's layout, newest
  // interval first; `lines` gets the newest interval's two lines.
  std::vector<double> StampedStepTimes(const Entry& a, std::vector<int64_t>* lines) const;
  // The printed step time read as a clock when it grows with the step.
  // With `step_field` (the tagger's step, when the vocabulary read none),
  // steps are that field of each record.
  std::vector<double> ClockStepTimes(const Entry& src, std::vector<int64_t>* lines, int step_field = -1) const;
  // A duration of the whole run printed after the records ("Wall time:
  // 1min 9s"), noted while no training line is read yet.
  void NoteRunDuration(std::string_view line);
  std::optional<double> RunAverageStepTime(const Entry& a, std::optional<int64_t> step,
                                          std::optional<int64_t> total) const;
  double Confidence(const ProgressReport& r, int anchor) const;
  // Evidence that the report reads a training loop, not a chance match in
  // noise: two facts of training (a step and its total, time, rate or loss;
  // a loss and a rate…), or a record layout printed twice. A step past its
  // total is no valid report.
  bool ShowsTraining(const ProgressReport& r) const;
  bool SomeLayoutRepeats() const;

  ProgressScanOptions options_;
  const LineClassifier* classifier_;
  LineClassifier::Scratch scratch_;
  std::vector<Entry> entries_;  // training lines, newest first
  std::vector<Entry> outer_bars_;  // outer bars DropOuterBars took out, newest first
  std::optional<Entry> epoch_bar_;  // the newest bar counting epochs that is no training line ("Epoch: 2/5")
  std::vector<Entry> train_and_eval_;  // ProgressLine::is_train_and_eval records, newest first
  std::vector<Row> rows_;
  RowRun row_run_;
  std::vector<ValueRow> value_rows_;
  bool header_read_ = false;
  int first_step_ = -1;         // the anchor once a step is seen
  std::set<int64_t> anchor_steps_;  // distinct steps of the anchor's layout
  std::vector<std::pair<int64_t, std::string>> context_;
  bool OnlyBareBars() const;
  void DropAnnouncedBars(const ScannedLine& announcement);
  // The newest record read is the line just below `index` (and no bar).
  bool RecordJustBelow(int64_t index) const;
  void DropAnnouncedRecord(const ScannedLine& announcement);
  // The newest line announcing an evaluation above records (not bare bars):
  // the run of records right below it that share one layout and a count
  // other than the training records' of that layout before it is the
  // evaluation pass ("Eval begin..." over "step 20/88 - loss: …" after
  // "step 614/614 - loss: …"), found when the older records are read.
  void NoteAnnouncement(const ScannedLine& announcement, int64_t index, bool record_below_dropped);
  std::vector<size_t> AnnouncedPass() const;
  void DropAnnouncedPass();
  std::optional<double> run_duration_s_;
  int progress_like_ = 0;  // stage-1 lines the classifier ranks progress first
  int64_t announced_index_ = -1;  // NoteAnnouncement: the announcement's line, and the first line of its pass
  int64_t pass_start_ = -1;
  // The line read just before each line (the one below it): an index is a
  // line number (ScanProgress) or a byte offset (TrackFile), so "the next
  // line" is the one read before, not index + 1.
  std::map<int64_t, int64_t> below_;
  int64_t last_added_ = -1;
  int64_t Below(int64_t index) const {
    auto it = below_.find(index);
    return it == below_.end() ? index + 1 : it->second;
  }
  int64_t rejected_index_ = -1;  // the newest line stage 1 rejected, and its text
  std::string rejected_;
  ProgressScanStats stats_;
};

// A step time at which the steps counted would have run for more than a
// year is no step's: withheld (progress_scan_checks.cc).
void WithholdImplausibleStepTime(ProgressReport& r);
// `t` is 1/x of a field of `s`: a step time read from a rate (it/s, ups,
// steps/sec, global_step/sec).
bool InvertedRate(const ScannedLine& s, double t);
// Progress from the step and its total; the ETA at the steady step time
// (else the step time), none when more than a year is still to run.
void SetProgressAndEta(ProgressReport& r);
// The same for `done` of `total` steps counted otherwise (epochs of a nested bar).
void SetProgressAndEta(ProgressReport& r, int64_t done, int64_t total);
// A drawn bar's counter that counts epochs ("Epoch:  40%|████| 2/5",
// "Training: 2/4 [04:01, 120.50s/epoch]"): finished epochs and their total.
std::optional<std::pair<int64_t, int64_t>> EpochBarCounter(const ScannedLine& s);

// Convenience: a whole log already in memory, oldest line first.
ProgressReport ScanProgress(const std::vector<std::string>& lines,
                            ProgressScanOptions options = {},
                            ProgressScanStats* stats = nullptr);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_PROGRESS_SCAN_H_

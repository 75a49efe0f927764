// The Metric Tracker's module evaluation (issue 3, PAPER §module results):
// a JSONL dataset of logs with the truth for the last training progress
// line, scored the way the paper scores it. A case succeeds when the step is
// exact, the step time is within 5 %, the loss within 1 % (or both absent,
// or both nan), and every field the truth lacks is absent.
#ifndef SCHEDMATE_TRACKER_EVALUATION_H_
#define SCHEDMATE_TRACKER_EVALUATION_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/facts.h"
#include "core/status.h"
#include "tracker/progress_scan.h"

namespace schedmate {

struct ProgressTruth {
  std::optional<int64_t> step, total_steps;
  std::optional<double> step_time_s, throughput, loss;  // loss NaN = "nan"
  std::optional<std::string> throughput_unit;
};

struct TrackerCase {
  std::string id, framework, log;
  std::string source;  // where the log was published (url, else source), "" for synthetic sets
  std::string split;   // "dev" / "val" in a corpus split once by project, else ""
  ProgressTruth truth;
  std::optional<bool> noisy;  // synthetic sets: buried in unrelated noise
};

// One record per line: {"id", "framework", "log", "truth": {...}} — the
// format of ../shared/realdata/progress.jsonl — plus, in a corpus, "url" or
// "source" and "split" ("dev" or "val"). Errors name file:line:field.
Result<std::vector<TrackerCase>> LoadTrackerCases(const std::string& path);

struct CaseOutcome {
  std::string id, framework, source, split;
  std::optional<bool> noisy;
  bool success = false;
  bool step_ok = false, total_ok = false, time_ok = false, throughput_ok = false,
       unit_ok = false, loss_ok = false;
  std::optional<double> time_rel_error;  // |got - truth| / truth, 1 when missing
  // Both printed a step time: max(got/truth, truth/got). Over 2 the step
  // time is confidently wrong (a unit, an interval or a clock misread),
  // worse for a user than none.
  std::optional<double> time_factor;
  double latency_ms = 0;
  ProgressReport got;
  ProgressScanStats stats;
};

// Any backend: the log's lines (cleaned, oldest first) → a report.
using ProgressExtractor =
    std::function<ProgressReport(const std::vector<std::string>&, ProgressScanStats*)>;

CaseOutcome EvaluateCase(const TrackerCase& c, const ProgressExtractor& extract);

struct TrackerEvalSummary {
  int cases = 0, successes = 0;
  int step_ok = 0, total_ok = 0, time_ok = 0, throughput_ok = 0, unit_ok = 0, loss_ok = 0;
  double rmsre_step_time = 0;  // over cases whose truth has a step time
  int time_cases = 0;
  int time_off_2x = 0;     // of time_cases: a step time reported, off by more than 2x
  int time_withheld = 0;   // of time_cases: no step time reported
  int time_unfounded = 0;  // a step time reported where the truth has none
  double latency_ms_mean = 0, latency_ms_p50 = 0, latency_ms_max = 0;
  ProgressScanStats stats;     // summed over cases
};

TrackerEvalSummary Summarize(const std::vector<CaseOutcome>& outcomes);

// Splits a log text into cleaned lines (ANSI, CR refreshes, CRLF).
std::vector<std::string> SplitLogText(const std::string& text);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_EVALUATION_H_

// `schedmate eval tracker`: the Metric Tracker's module metrics over logs
// with truth — success rate, step-time RMSRE, field accuracy, latency, per
// split and clean/noisy part, the cascade's LLM calls, the stage-1 filter —
// and the cases it missed, as a table or JSON.
#ifndef SCHEDMATE_TRACKER_EVAL_REPORT_H_
#define SCHEDMATE_TRACKER_EVAL_REPORT_H_

#include <string>
#include <vector>

#include "tracker/evaluation.h"

namespace schedmate {

struct TrackerEvalReportOptions {
  std::string dataset, backend = "embedded";  // named in the report
  bool json = false, verbose = false, no_stage1 = false;
};

// What the backend did over the cases (counted by the caller's extractor).
struct TrackerEvalCounts {
  bool llm_backend = false;
  double cascade_threshold = 0.75;
  int llm_answers = 0, fallbacks = 0, unsure = 0;  // unsure: embedded confidence below the threshold
};

// REQUIRES: outcomes[i] is cases[i]'s.
std::string FormatTrackerEval(const std::vector<TrackerCase>& cases, const std::vector<CaseOutcome>& outcomes,
                              const TrackerEvalReportOptions& options, const TrackerEvalCounts& counts);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_EVAL_REPORT_H_

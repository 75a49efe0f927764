// The real components on a materialised world (`world materialize --trace …
// -o DIR`): each distinct repository through the Advisor's extractor (field
// accuracy against the generator's truth), each log through the Tracker
// (a report whose step time is within 5 % of the job's and whose step is the
// last printed), each failed job's log through the Failure Handler (error
// type, component and root-cause line against the injected first error).
#ifndef SCHEDMATE_EXPERIMENTS_WORLD_CHECK_H_
#define SCHEDMATE_EXPERIMENTS_WORLD_CHECK_H_

#include <functional>
#include <map>
#include <string>
#include <utility>

#include "core/status.h"
#include "experiments/field_score.h"

namespace schedmate {

struct WorldCheck {
  int jobs = 0;
  FieldTally fields;
  int repos = 0, extraction_failures = 0;
  int tracked = 0, track_ok = 0, step_time_ok = 0, step_ok = 0, short_logs = 0, short_missing = 0;
  double sq_rel_err = 0;
  int failed = 0, type_ok = 0, infra_true = 0, infra_pred = 0, infra_both = 0, component_ok = 0, line_ok = 0;
  std::map<std::string, std::pair<int, int>> tracker_by_style;  // style → (ok, n)
  std::map<std::string, std::pair<int, int>> failure_by_cause;  // cause → (ok, n)
};

// Reads DIR/jobs.jsonl (errors name file:line:field); `miss` (optional) hears one line per miss.
Result<WorldCheck> CheckWorld(const std::string& dir, const std::function<void(const std::string&)>& miss = {});

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_WORLD_CHECK_H_

// `schedmate eval advisor`: the Scheduling Advisor's module metrics on a
// generated corpus (world/repo_generator.h). Each project's original run is
// written to a fresh history; then three kinds of later submissions ask:
//   renamed copy   same workload, new layout, script and output names,
//                  values moved between defaults, configs and the CLI → must match;
//   other model    the same project layout with another model   → must not
//                  match a record of another model or dataset;
//   other dataset  the same model on another dataset            → likewise.
// (They may match another past project of the same model and data: that is
// the same workload, and its estimate is scored like any other.)
#ifndef SCHEDMATE_EXPERIMENTS_ADVISOR_EVAL_H_
#define SCHEDMATE_EXPERIMENTS_ADVISOR_EVAL_H_

#include <cstdint>
#include <cstdio>
#include <string>

#include "core/status.h"

namespace schedmate {

struct AdvisorEvalOptions {
  int projects = 150;
  uint64_t seed = 1;
  bool json = false, verbose = false;
  float min_score = 0.80f;
};

// The evaluation's report, as the command prints it (a table, or JSON with
// `json`). With `verbose`, each miss and false match is written to `log`
// (may be null) as it happens. An error only when the scratch history fails.
Result<std::string> RunAdvisorEval(const AdvisorEvalOptions& options, std::FILE* log);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_ADVISOR_EVAL_H_

// `schedmate eval failures`: the Failure Handler's module metrics on a
// labelled corpus — locate + classify against two baselines (the last 500
// lines, no locator), over all cases and per development/validation part —
// and the cases it missed.
#ifndef SCHEDMATE_FAILURE_EVAL_REPORT_H_
#define SCHEDMATE_FAILURE_EVAL_REPORT_H_

#include <string>
#include <vector>

#include "failure/evaluation.h"
#include "failure/failure_model.h"
#include "failure/llm_diagnosis.h"

namespace schedmate {

struct FailureEvalOptions {
  std::string dataset, backend = "embedded";  // named in the report
  int context = 200;                          // lines around the located point (200 in the paper's evaluation)
  bool json = false, verbose = false;         // verbose: every case, not only the misses
};

// The report as the command prints it (a table, or JSON with `json`).
// `model` may be null (the hand-written classifier alone).
std::string RunFailureEval(const std::vector<FailureCase>& cases, const FailureEvalOptions& options,
                           const DiagnosisChoice& choice, const FailureModel* model);

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_EVAL_REPORT_H_

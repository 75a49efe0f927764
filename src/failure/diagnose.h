// The Failure Handler's entry point for one log: locate, then classify the
// context (embedded backend). The baselines the evaluation compares against
// live here too, so one command computes all three the same way.
#ifndef SCHEDMATE_FAILURE_DIAGNOSE_H_
#define SCHEDMATE_FAILURE_DIAGNOSE_H_

#include <string>

#include "core/facts.h"
#include "failure/failure_model.h"
#include "failure/locator.h"

namespace schedmate {

struct DiagnoseResult {
  FailureDiagnosis diagnosis;
  std::string signature_id;
  Located located;  // where the search looked, and what it read
};

// `model`: the learned classifier for what no signature is sure of
// (failure_model.h); null: signatures only.
Result<DiagnoseResult> DiagnoseLog(const ByteSource& log, const LocateOptions& options = {},
                                   const FailureModel* model = &FailureModel::Default());

// Baseline 1: classify only the last `lines` lines (no search), the same way.
FailureDiagnosis DiagnoseTail(const std::string& log, int lines = 500,
                              const FailureModel* model = &FailureModel::Default());
// Baseline 2: no locator — the last failure line of the log is taken as the
// root cause (what reading a log from its end gives).
FailureDiagnosis DiagnoseLastError(const std::string& log);

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_DIAGNOSE_H_

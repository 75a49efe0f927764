// The Failure Handler's module evaluation (issue 4): a JSONL dataset of
// failed-job logs labelled with category, component and root-cause line
// (../shared/realdata/failures.jsonl), scored the paper's way.
#ifndef SCHEDMATE_FAILURE_EVALUATION_H_
#define SCHEDMATE_FAILURE_EVALUATION_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/facts.h"
#include "core/status.h"

namespace schedmate {

struct FailureCase {
  std::string id, log;
  std::string source;  // where it was published (url, else source), "" for synthetic sets
  std::string split;   // "dev" / "val" in a corpus split once by source, else ""
  FailureDiagnosis::ErrorType category = FailureDiagnosis::ErrorType::kUnknown;
  std::optional<std::string> component;
  int64_t root_cause_line_index = -1;
};

// Records: {"id", "category": infrastructure|framework|user,
// "faulty_component", "root_cause_line_index", "log"}, and in a corpus "url"
// or "source" and "split" ("dev"/"val"). Errors name file:line:field.
Result<std::vector<FailureCase>> LoadFailureCases(const std::string& path);

// Any method: the log text → a diagnosis (root_cause_line_index 0-based).
using FailureMethod = std::function<FailureDiagnosis(const std::string& log)>;

struct FailureScores {
  int cases = 0;
  int tp = 0, fp = 0, fn = 0, tn = 0;  // infrastructure vs not
  int three_way = 0;
  int infra_cases = 0, component_ok = 0;
  int root_exact = 0, root_near = 0;   // exact, within ±3 lines
  int unknown = 0;                     // answered `unknown`
  double latency_ms_mean = 0, latency_ms_max = 0;
  double Precision() const { return tp + fp ? double(tp) / (tp + fp) : 0; }
  double Recall() const { return tp + fn ? double(tp) / (tp + fn) : 0; }
  double F1() const {
    double p = Precision(), r = Recall();
    return p + r > 0 ? 2 * p * r / (p + r) : 0;
  }
  double InfraAccuracy() const { return cases ? double(tp + tn) / cases : 0; }
};

struct FailureOutcome {
  std::string id;
  FailureDiagnosis got;
  bool category_ok = false, component_ok = false, root_exact = false;
  double latency_ms = 0;
};

FailureScores ScoreFailures(const std::vector<FailureCase>& cases, const FailureMethod& method,
                            std::vector<FailureOutcome>* outcomes = nullptr);

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_EVALUATION_H_

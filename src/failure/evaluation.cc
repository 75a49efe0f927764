#include "failure/evaluation.h"

#include <chrono>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/json.h"

namespace schedmate {

Result<std::vector<FailureCase>> LoadFailureCases(const std::string& path) {
  std::vector<FailureCase> cases;
  using E = FailureDiagnosis::ErrorType;
  RETURN_IF_ERROR(ForEachJsonLine(path, [&](const Json& j, const std::string& where) -> Status {
    if (!j.is_object()) return InvalidArgument(where + ": expected a JSON object");
    FailureCase c;
    ASSIGN_OR_RETURN(c.id, GetString(j, "id", where));
    ASSIGN_OR_RETURN(c.log, GetString(j, "log", where));
    ASSIGN_OR_RETURN(std::string cat, GetString(j, "category", where));
    if (cat == "infrastructure") c.category = E::kInfrastructure;
    else if (cat == "framework") c.category = E::kFramework;
    else if (cat == "user" || cat == "user_script") c.category = E::kUserScript;
    else return InvalidArgument(where + ": field 'category': '" + cat + "' is not infrastructure, framework or user");
    ASSIGN_OR_RETURN(c.component, GetOptString(j, "faulty_component", where));
    ASSIGN_OR_RETURN(c.root_cause_line_index, GetInt(j, "root_cause_line_index", where));
    ASSIGN_OR_RETURN(CorpusOrigin origin, GetCorpusOrigin(j, where));
    c.source = std::move(origin.source);
    c.split = std::move(origin.split);
    cases.push_back(std::move(c));
    return Status::Ok();
  }));
  if (cases.empty()) return InvalidArgument(path + ": no cases");
  return cases;
}

FailureScores ScoreFailures(const std::vector<FailureCase>& cases, const FailureMethod& method,
                            std::vector<FailureOutcome>* outcomes) {
  using E = FailureDiagnosis::ErrorType;
  FailureScores s;
  double total_ms = 0;
  for (const auto& c : cases) {
    auto t0 = std::chrono::steady_clock::now();
    FailureDiagnosis d = method(c.log);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    total_ms += ms;
    s.latency_ms_max = std::max(s.latency_ms_max, ms);
    ++s.cases;
    bool truth_infra = c.category == E::kInfrastructure, got_infra = d.error_type == E::kInfrastructure;
    s.tp += truth_infra && got_infra;
    s.fp += !truth_infra && got_infra;
    s.fn += truth_infra && !got_infra;
    s.tn += !truth_infra && !got_infra;
    FailureOutcome o;
    o.id = c.id;
    o.category_ok = d.error_type == c.category;
    s.unknown += d.error_type == E::kUnknown;
    s.three_way += o.category_ok;
    if (truth_infra) {
      ++s.infra_cases;
      o.component_ok = got_infra && d.faulty_component == c.component;
      s.component_ok += o.component_ok;
    }
    int64_t got = d.root_cause_line_index.value_or(-100);
    o.root_exact = got == c.root_cause_line_index;
    s.root_exact += o.root_exact;
    s.root_near += std::llabs(got - c.root_cause_line_index) <= 3;
    o.latency_ms = ms;
    o.got = std::move(d);
    if (outcomes) outcomes->push_back(std::move(o));
  }
  if (s.cases) s.latency_ms_mean = total_ms / s.cases;
  return s;
}

}  // namespace schedmate

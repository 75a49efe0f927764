#include "failure/diagnose.h"

namespace schedmate {
namespace {

LineWindow SplitNumbered(const std::string& log) {
  LineWindow w;
  size_t pos = 0;
  int64_t i = 0;
  while (pos < log.size()) {
    size_t nl = log.find('\n', pos);
    size_t e = nl == std::string::npos ? log.size() : nl;
    w.emplace_back(i++, log.substr(pos, e - pos));
    pos = e + 1;
  }
  return w;
}

}  // namespace

Result<DiagnoseResult> DiagnoseLog(const ByteSource& log, const LocateOptions& options, const FailureModel* model) {
  DiagnoseResult out;
  ASSIGN_OR_RETURN(out.located, LocateFailure(log, options));
  LineWindow foreground = ForegroundWindow(out.located);
  RootCauseDetail d = model ? DiagnoseWindowLearned(foreground, *model) : DiagnoseWindow(foreground);
  out.diagnosis = std::move(d.diagnosis);
  out.signature_id = d.signature_id;
  return out;
}

FailureDiagnosis DiagnoseTail(const std::string& log, int lines, const FailureModel* model) {
  LineWindow w = SplitNumbered(log);
  if (static_cast<int>(w.size()) > lines) w.erase(w.begin(), w.end() - lines);
  return model ? DiagnoseWindowLearned(w, *model).diagnosis : DiagnoseWindow(w).diagnosis;
}

FailureDiagnosis DiagnoseLastError(const std::string& log) {
  LineWindow w = SplitNumbered(log);
  for (size_t i = w.size(); i-- > 0;) {
    if (!IsFailureLine(w[i].second)) continue;
    LineWindow one = {w[i]};
    FailureDiagnosis d = DiagnoseWindow(one).diagnosis;
    if (!d.root_cause_line_index) {  // an error word only: unknown type, but this line
      d.root_cause_line = w[i].second;
      d.root_cause_line_index = w[i].first;
    }
    return d;
  }
  return {};
}

}  // namespace schedmate

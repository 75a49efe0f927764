#include "failure/llm_diagnosis.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

namespace schedmate {
namespace {

constexpr const char* kSystemPrompt =
    "You diagnose why a deep-learning training job failed, from lines of its log around the located "
    "failure. Find the FIRST real error: not a warning, not a wrapper that re-reports another error "
    "(ChildFailedError, DistBackendError, 'Failed to import'), not a SIGTERM the launcher sent to "
    "healthy ranks, not a line of the cascade that follows. error_type: 'infrastructure' (hardware or "
    "platform: GPU/ECC/Xid, NVLink/NVSwitch/fabric manager, InfiniBand/RoCE/sockets, node loss or "
    "preemption, I/O errors, full disks and quotas), 'framework' (environment: driver/library version "
    "mismatch, missing modules, undefined symbols, /dev/shm), 'user_script' (exceptions in the user's "
    "code, CUDA out of memory, bad configs or data), or 'unknown'. faulty_component: gpu, nvlink, "
    "network, node or storage for infrastructure, else null. root_cause_line: the L-number of the "
    "root-cause line, an integer (null only when error_type is unknown). evidence: up to 5 L-numbers "
    "of shown lines supporting it, at least one for infrastructure. confidence: 0 to 1.";

using ShownLines = std::map<int64_t, const std::string*>;

ShownLines Shown(const LineWindow& w, size_t begin, size_t end) {
  ShownLines m;
  for (size_t i = begin; i < end; ++i) m[w[i].first] = &w[i].second;
  return m;
}

// Why a schema-valid answer is not grounded in the lines shown, if it is not.
std::optional<std::string> Ungrounded(const Json& a, const ShownLines& shown) {
  const Json& root = a["root_cause_line"];
  const std::string type = a["error_type"];
  if (root.is_null() && type != "unknown") return "a " + type + " verdict must cite its root_cause_line";
  if (!root.is_null() && !shown.count(root.get<int64_t>()))
    return "root_cause_line " + DumpJson(root) + " was not shown";
  for (const auto& e : a["evidence"])
    if (!shown.count(e.get<int64_t>())) return "evidence line " + DumpJson(e) + " was not shown";
  bool infra = type == "infrastructure";
  if (infra && a["evidence"].empty()) return "an infrastructure verdict must cite evidence lines";
  if (infra != a["faulty_component"].is_string()) return "faulty_component must be set exactly for infrastructure";
  return std::nullopt;
}

bool SameVerdict(const FailureDiagnosis& a, const FailureDiagnosis& b) {
  if (a.error_type != b.error_type) return false;
  return a.error_type != FailureDiagnosis::ErrorType::kInfrastructure || a.faulty_component == b.faulty_component;
}

}  // namespace

const Json& DiagnosisAnswerSchema() {
  static const Json kSchema = Json::parse(R"({
    "type": "object", "additionalProperties": false,
    "required": ["error_type", "faulty_component", "root_cause_line", "evidence", "confidence"],
    "properties": {
      "error_type": {"type": "string", "enum": ["infrastructure", "framework", "user_script", "unknown"]},
      "faulty_component": {"type": ["string", "null"], "enum": ["gpu", "nvlink", "network", "node", "storage", null]},
      "root_cause_line": {"type": ["integer", "null"]},
      "evidence": {"type": "array", "items": {"type": "integer"}, "maxItems": 5},
      "confidence": {"type": "number", "minimum": 0, "maximum": 1}}})");
  return kSchema;
}

LlmDiagnosisResult LlmDiagnose(ChatClient& client, const LineWindow& window, int max_lines) {
  // Centre the excerpt on the embedded root cause when there is one.
  RootCauseDetail embedded = DiagnoseWindow(window);
  size_t centre = window.empty() ? 0 : window.size() - 1;
  if (embedded.diagnosis.root_cause_line_index)
    for (size_t i = 0; i < window.size(); ++i)
      if (window[i].first == *embedded.diagnosis.root_cause_line_index) centre = i;
  size_t half = static_cast<size_t>(std::max(1, max_lines / 2));
  size_t begin = centre > half ? centre - half : 0;
  size_t end = std::min(window.size(), begin + static_cast<size_t>(max_lines));
  auto shown = Shown(window, begin, end);
  ChatRequest req;
  req.system = kSystemPrompt;
  req.user = "Log lines:\n";
  for (size_t i = begin; i < end; ++i)
    req.user += "L" + std::to_string(window[i].first) + ": " + window[i].second.substr(0, 300) + "\n";
  req.schema = DiagnosisAnswerSchema();
  req.schema_name = "failure_diagnosis";
  req.grounding = [&shown](const Json& a) { return Ungrounded(a, shown); };
  ChatResult r = client.Complete(req);
  LlmDiagnosisResult out;
  if (!r.ok()) {
    out.error = r.error;
    return out;
  }
  const Json& a = *r.answer;
  FailureDiagnosis d;
  std::string type = a["error_type"];
  using E = FailureDiagnosis::ErrorType;
  d.error_type = type == "infrastructure" ? E::kInfrastructure
                 : type == "framework"    ? E::kFramework
                 : type == "user_script"  ? E::kUserScript
                                          : E::kUnknown;
  if (a["faulty_component"].is_string()) d.faulty_component = a["faulty_component"].get<std::string>();
  if (a["root_cause_line"].is_number_integer()) {
    int64_t line = a["root_cause_line"];
    d.root_cause_line_index = line;
    d.root_cause_line = *shown.at(line);
    d.evidence.push_back(*d.root_cause_line);
  }
  for (const auto& e : a["evidence"])
    if (d.evidence.size() < 5 && (!d.root_cause_line_index || e.get<int64_t>() != *d.root_cause_line_index))
      d.evidence.push_back(*shown.at(e.get<int64_t>()));
  d.confidence = a["confidence"];
  out.diagnosis = std::move(d);
  return out;
}

double CappedLlmConfidence(const FailureDiagnosis& llm, const FailureDiagnosis& embedded) {
  return std::min(llm.confidence, SameVerdict(llm, embedded) ? kAgreedConfidenceCap : kDisagreedConfidenceCap);
}

FailureDiagnosis ChooseDiagnosis(const LineWindow& window, const FailureDiagnosis& embedded,
                                 const DiagnosisChoice& choice, std::string* backend) {
  *backend = "embedded";
  if (choice.backend == BackendKind::kEmbedded || !choice.client) return embedded;
  if (choice.backend == BackendKind::kCascade && embedded.confidence >= choice.cascade_threshold) return embedded;
  LlmDiagnosisResult r = LlmDiagnose(*choice.client, window);
  if (!r.diagnosis) {
    *backend = "embedded (llm " + std::string(LlmErrorKindName(r.error->kind)) + ")";
    return embedded;
  }
  *backend = "llm";
  r.diagnosis->confidence = CappedLlmConfidence(*r.diagnosis, embedded);
  return *r.diagnosis;
}

}  // namespace schedmate

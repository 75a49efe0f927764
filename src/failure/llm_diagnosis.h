// The Failure Handler's LLM backend and cascade (DESIGN §2): the located
// context goes to an OpenAI-compatible endpoint with a JSON schema, and the
// answer is used only when it is grounded in the lines the model was shown:
//  - root_cause_line is a shown line (null only with error_type "unknown");
//  - every evidence item is a shown line, and an infrastructure verdict
//    cites at least one;
//  - faulty_component is set exactly for infrastructure;
//  - line numbers are integer literals (1e8 or 42.0 is a schema violation).
// Anything else, and any transport failure, falls back to the embedded
// answer with the reason ("embedded (llm ungrounded)").
//
// The model's stated confidence is not trusted as is: ChooseDiagnosis caps
// it by the embedded Failure Handler's agreement (CappedLlmConfidence), so
// an LLM verdict the embedded backend does not share never passes the
// recovery guard's confidence threshold (0.8) on the model's word alone.
#ifndef SCHEDMATE_FAILURE_LLM_DIAGNOSIS_H_
#define SCHEDMATE_FAILURE_LLM_DIAGNOSIS_H_

#include <optional>
#include <string>

#include "core/facts.h"
#include "core/json.h"
#include "failure/root_cause.h"
#include "llm/backend.h"
#include "llm/chat_client.h"

namespace schedmate {

const Json& DiagnosisAnswerSchema();

struct LlmDiagnosisResult {
  std::optional<FailureDiagnosis> diagnosis;
  std::optional<LlmError> error;
};
// `max_lines` lines of the window around the embedded root cause (or its
// end) are shown.
LlmDiagnosisResult LlmDiagnose(ChatClient& client, const LineWindow& window, int max_lines = 200);

// The same verdict: the same error_type and, for infrastructure, the same
// faulty_component. Agreement caps the model's confidence at
// kAgreedConfidenceCap (never certainty on a model's word); disagreement, an
// embedded "unknown" included, at kDisagreedConfidenceCap, below both the
// cascade threshold (0.75) and the recovery guard (0.8).
inline constexpr double kAgreedConfidenceCap = 0.95;
inline constexpr double kDisagreedConfidenceCap = 0.5;
double CappedLlmConfidence(const FailureDiagnosis& llm, const FailureDiagnosis& embedded);

struct DiagnosisChoice {
  BackendKind backend = BackendKind::kEmbedded;
  ChatClient* client = nullptr;
  double cascade_threshold = 0.75;
};

// The diagnosis for a located window; `*backend` says who answered
// ("embedded", "llm", or "embedded (llm <LlmErrorKindName>)", e.g.
// "embedded (llm timeout)"). An LLM answer's confidence is capped as above.
FailureDiagnosis ChooseDiagnosis(const LineWindow& window, const FailureDiagnosis& embedded,
                                 const DiagnosisChoice& choice, std::string* backend);

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_LLM_DIAGNOSIS_H_

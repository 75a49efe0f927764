// The Failure Handler's LLM backend and cascade (DESIGN §2): the located
// context goes to an OpenAI-compatible endpoint with a JSON schema; the
// root-cause line and evidence must be lines it was shown, the component
// only for infrastructure. Any failure falls back to the embedded answer.
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

struct DiagnosisChoice {
  BackendKind backend = BackendKind::kEmbedded;
  ChatClient* client = nullptr;
  double cascade_threshold = 0.75;
};

// The diagnosis for a located window; `*backend` says who answered
// ("embedded", "llm", or "embedded (llm <error>)").
FailureDiagnosis ChooseDiagnosis(const LineWindow& window, const FailureDiagnosis& embedded,
                                 const DiagnosisChoice& choice, std::string* backend);

}  // namespace schedmate

#endif  // SCHEDMATE_FAILURE_LLM_DIAGNOSIS_H_

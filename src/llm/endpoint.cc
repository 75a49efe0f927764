#include "llm/endpoint.h"

namespace schedmate {

std::string_view LlmErrorKindName(LlmErrorKind k) {
  switch (k) {
    case LlmErrorKind::kConnection: return "connection";
    case LlmErrorKind::kTimeout: return "timeout";
    case LlmErrorKind::kHttp: return "http";
    case LlmErrorKind::kTooLarge: return "too_large";
    case LlmErrorKind::kInvalidJson: return "invalid_json";
    case LlmErrorKind::kSchemaViolation: return "schema_violation";
    case LlmErrorKind::kUngrounded: return "ungrounded";
  }
  return "unknown";
}

Status LlmError::ToStatus() const {
  std::string m = "llm " + std::string(LlmErrorKindName(kind)) + ": " + message;
  switch (kind) {
    case LlmErrorKind::kConnection: return Unavailable(m);
    case LlmErrorKind::kTimeout: return Status(StatusCode::kDeadlineExceeded, m);
    case LlmErrorKind::kTooLarge: return ResourceExhausted(m);
    case LlmErrorKind::kHttp: return http_status == 429 || http_status >= 500 ? Unavailable(m) : FailedPrecondition(m);
    default: return DataLoss(m);
  }
}

}  // namespace schedmate

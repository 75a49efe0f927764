// Where an OpenAI-compatible service answers and how long and how much it
// may take, and the typed errors every LLM call returns instead of throwing
// (DESIGN §2: any failure makes the caller fall back to its embedded backend).
#ifndef SCHEDMATE_LLM_ENDPOINT_H_
#define SCHEDMATE_LLM_ENDPOINT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "core/status.h"

namespace schedmate {

enum class SchemaMode { kOpenAi, kVllm, kLlamaCpp };

struct LlmEndpoint {
  std::string base_url = "http://127.0.0.1:8000";  // "/v1" is appended when absent
  std::string model = "default";
  std::string api_key;           // sent as "Authorization: Bearer …" when set
  double connect_timeout_s = 2;  // at most; never past the deadline
  // Wall-clock budget of one question, from the moment it is sent: connect,
  // send, the whole answer, and every retry with its backoff. Each attempt
  // gets what is left, so a retry follows only a quick failure (refused,
  // 429, 5xx) that leaves time; a timed-out attempt has used the budget up.
  double deadline_s = 30;
  int max_retries = 2;     // extra attempts after the first, within deadline_s
  double backoff_s = 0.5;  // doubled per retry
  int max_concurrency = 4;
  SchemaMode schema_mode = SchemaMode::kOpenAi;
  int max_tokens = 512;
  // Enforced while reading: a longer answer (declared or streamed) is cut
  // off at this size and never held in memory.
  size_t max_response_bytes = 1u << 20;
};

enum class LlmErrorKind {
  kConnection,       // refused, reset, DNS
  kTimeout,          // no complete answer within the deadline
  kHttp,             // non-2xx status
  kTooLarge,         // the answer passed max_response_bytes
  kInvalidJson,      // the body or the answer is not JSON
  kSchemaViolation,  // the answer does not match the schema
  kUngrounded,       // a value or line the model was not shown
};
// The short name fallbacks print: "timeout", "too_large", "ungrounded", …
std::string_view LlmErrorKindName(LlmErrorKind k);

struct LlmError {
  LlmErrorKind kind;
  int http_status = 0;
  std::string message;
  Status ToStatus() const;
};

}  // namespace schedmate

#endif  // SCHEDMATE_LLM_ENDPOINT_H_

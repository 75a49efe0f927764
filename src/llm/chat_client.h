// An OpenAI-compatible chat client (`POST /v1/chat/completions`) for the
// LLM backends of DESIGN §2: vLLM, llama.cpp server, Ollama, TGI or any
// OpenAI-compatible service. The answer is constrained to a JSON schema
// (OpenAI `response_format: json_schema`; vLLM `guided_json`; llama.cpp
// `json_schema`) and validated against it before the caller sees it.
//
// Every failure comes back as a typed LlmError, never an exception, so the
// caller falls back to its embedded backend: refused connection, timeout,
// HTTP error, a body that is not JSON, an answer that violates the schema,
// or one that names a value the source text does not contain (the caller's
// grounding check). Transport failures, 429 and 5xx are retried a bounded
// number of times with exponential backoff; content failures are not.
// At most `max_concurrency` requests are in flight per client.
// Thread safe.
#ifndef SCHEDMATE_LLM_CHAT_CLIENT_H_
#define SCHEDMATE_LLM_CHAT_CLIENT_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "core/status.h"

namespace schedmate {

enum class SchemaMode { kOpenAi, kVllm, kLlamaCpp };

struct LlmEndpoint {
  std::string base_url = "http://127.0.0.1:8000";  // "/v1" is appended when absent
  std::string model = "default";
  std::string api_key;             // sent as "Authorization: Bearer …" when set
  double connect_timeout_s = 2;
  double read_timeout_s = 30;
  int max_retries = 2;             // extra attempts after the first
  double backoff_s = 0.5;          // doubled per retry
  int max_concurrency = 4;
  SchemaMode schema_mode = SchemaMode::kOpenAi;
  int max_tokens = 512;
  size_t max_response_bytes = 1u << 20;
};

enum class LlmErrorKind {
  kConnection,       // refused, reset, DNS
  kTimeout,          // connect or read timeout
  kHttp,             // non-2xx status
  kInvalidJson,      // the body or the answer is not JSON
  kSchemaViolation,  // the answer does not match the schema
  kUngrounded,       // a value not present in the source text
};
std::string_view LlmErrorKindName(LlmErrorKind k);

struct LlmError {
  LlmErrorKind kind;
  int http_status = 0;
  std::string message;
  Status ToStatus() const;
};

struct ChatRequest {
  std::string system, user;
  Json schema;               // JSON schema of the answer object
  std::string schema_name = "answer";
  // Optional grounding check: returns a message when the answer names a
  // value that is not in the source text.
  std::function<std::optional<std::string>(const Json&)> grounding;
};

struct ChatResult {
  std::optional<Json> answer;
  std::optional<LlmError> error;
  int attempts = 0;
  double latency_ms = 0;
  bool ok() const { return answer.has_value(); }
};

class ChatClient {
 public:
  explicit ChatClient(LlmEndpoint endpoint);
  ChatResult Complete(const ChatRequest& request);
  const LlmEndpoint& endpoint() const { return endpoint_; }

  // The request body sent for `request` (exposed for tests and --dry-run).
  Json RequestBody(const ChatRequest& request) const;

 private:
  static ChatResult Interpret(const ChatRequest& request, const Json& response);

  LlmEndpoint endpoint_;
  std::mutex mu_;
  std::condition_variable cv_;
  int in_flight_ = 0;
};

// One POST of a JSON body to `<base_url>/v1<path>`: transport errors, HTTP
// status and a non-JSON body become an LlmError. With retries: transport
// failures, 429 and 5xx are retried with exponential backoff.
struct PostResult {
  std::optional<Json> body;
  std::optional<LlmError> error;
};
PostResult PostJson(const LlmEndpoint& endpoint, const std::string& path, const std::string& body);
PostResult PostJsonWithRetries(const LlmEndpoint& endpoint, const std::string& path, const std::string& body,
                               int* attempts);

// Extracts the JSON object from an answer text: plain JSON, or JSON inside
// a ``` fence or surrounded by prose.
Result<Json> ParseAnswerJson(std::string_view content);

}  // namespace schedmate

#endif  // SCHEDMATE_LLM_CHAT_CLIENT_H_

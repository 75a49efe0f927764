// An OpenAI-compatible chat client (`POST /v1/chat/completions`) for the
// LLM backends of DESIGN §2: vLLM, llama.cpp server, Ollama, TGI or any
// OpenAI-compatible service. The answer is constrained to a JSON schema
// (OpenAI `response_format: json_schema`; vLLM `guided_json`; llama.cpp
// `json_schema`) and validated against it before the caller sees it.
//
// Every failure comes back as a typed LlmError, never an exception, so the
// caller falls back to its embedded backend: refused connection, timeout,
// HTTP error, an oversized answer, a body that is not JSON, an answer that
// violates the schema, or one that names a value the source text does not
// contain (the caller's grounding check). Transport failures, 429 and 5xx are retried a bounded
// number of times with exponential backoff; content failures are not. One
// question, retries included, ends within endpoint.deadline_s of being
// sent, and no answer larger than endpoint.max_response_bytes is read.
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
#include "llm/endpoint.h"
#include "llm/http_post.h"

namespace schedmate {

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

// Extracts the JSON object from an answer text: plain JSON, or JSON inside
// a ``` fence or surrounded by prose.
Result<Json> ParseAnswerJson(std::string_view content);

}  // namespace schedmate

#endif  // SCHEDMATE_LLM_CHAT_CLIENT_H_

#include "llm/chat_client.h"

#include <chrono>

#include <nlohmann/json.hpp>

#include "llm/json_schema.h"

namespace schedmate {
namespace {

LlmError Error(LlmErrorKind k, std::string m) { return {k, 0, std::move(m)}; }

}  // namespace

Result<Json> ParseAnswerJson(std::string_view content) {
  auto direct = ParseJson(content, "llm answer");
  if (direct.ok() && direct->is_object()) return direct;
  size_t open = content.find('{'), close = content.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    return InvalidArgument("llm answer: no JSON object in the text");
  auto inner = ParseJson(content.substr(open, close - open + 1), "llm answer");
  if (!inner.ok()) return inner.status();
  if (!inner->is_object()) return InvalidArgument("llm answer: not a JSON object");
  return inner;
}

ChatClient::ChatClient(LlmEndpoint endpoint) : endpoint_(std::move(endpoint)) {
  if (endpoint_.max_concurrency < 1) endpoint_.max_concurrency = 1;
  if (endpoint_.max_retries < 0) endpoint_.max_retries = 0;
}

Json ChatClient::RequestBody(const ChatRequest& r) const {
  Json body = {{"model", endpoint_.model},
               {"messages", Json::array({{{"role", "system"}, {"content", r.system}},
                                          {{"role", "user"}, {"content", r.user}}})},
               {"temperature", 0},
               {"max_tokens", endpoint_.max_tokens}};
  switch (endpoint_.schema_mode) {
    case SchemaMode::kOpenAi:
      body["response_format"] = {{"type", "json_schema"},
                                 {"json_schema", {{"name", r.schema_name}, {"schema", r.schema}, {"strict", true}}}};
      break;
    case SchemaMode::kVllm:
      body["guided_json"] = r.schema;
      break;
    case SchemaMode::kLlamaCpp:
      body["json_schema"] = r.schema;
      body["response_format"] = {{"type", "json_object"}};
      break;
  }
  return body;
}

ChatResult ChatClient::Interpret(const ChatRequest& request, const Json& j) {
  ChatResult out;
  const Json* content = nullptr;
  if (auto c = j.find("choices"); c != j.end() && c->is_array() && !c->empty() && (*c)[0].is_object()) {
    const Json& choice = (*c)[0];
    if (auto m = choice.find("message"); m != choice.end() && m->is_object())
      if (auto t = m->find("content"); t != m->end() && t->is_string()) content = &*t;
  }
  if (!content) {
    out.error = Error(LlmErrorKind::kInvalidJson, "no choices[0].message.content string");
    return out;
  }
  auto answer = ParseAnswerJson(content->get<std::string>());
  if (!answer.ok()) {
    out.error = Error(LlmErrorKind::kInvalidJson, answer.status().message());
    return out;
  }
  if (Status v = ValidateJsonSchema(request.schema, *answer); !v.ok()) {
    out.error = Error(LlmErrorKind::kSchemaViolation, v.message());
    return out;
  }
  if (request.grounding) {
    if (auto why = request.grounding(*answer)) {
      out.error = Error(LlmErrorKind::kUngrounded, *why);
      return out;
    }
  }
  out.answer = std::move(*answer);
  return out;
}

ChatResult ChatClient::Complete(const ChatRequest& request) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return in_flight_ < endpoint_.max_concurrency; });
    ++in_flight_;
  }
  auto t0 = std::chrono::steady_clock::now();
  std::string body = DumpJson(RequestBody(request));
  ChatResult result;
  PostResult posted = PostJsonWithRetries(endpoint_, "/chat/completions", body, &result.attempts);
  if (posted.body) {
    int attempts = result.attempts;
    result = Interpret(request, *posted.body);
    result.attempts = attempts;
  } else {
    result.error = posted.error;
  }
  result.latency_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  {
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
  }
  cv_.notify_one();
  return result;
}

}  // namespace schedmate

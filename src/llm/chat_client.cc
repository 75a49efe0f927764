#include "llm/chat_client.h"

#include <httplib.h>

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "llm/json_schema.h"

namespace schedmate {
namespace {

// Splits "http://host:port/prefix" into the origin and the path prefix.
void SplitUrl(const std::string& url, std::string* origin, std::string* prefix) {
  size_t scheme = url.find("://");
  size_t path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  *origin = path == std::string::npos ? url : url.substr(0, path);
  *prefix = path == std::string::npos ? "" : url.substr(path);
  while (!prefix->empty() && prefix->back() == '/') prefix->pop_back();
  if (prefix->size() < 3 || prefix->compare(prefix->size() - 3, 3, "/v1") != 0) *prefix += "/v1";
}

void SetTimeout(double seconds, time_t* sec, time_t* usec) {
  *sec = static_cast<time_t>(seconds);
  *usec = static_cast<time_t>((seconds - static_cast<double>(*sec)) * 1e6);
}

LlmError Error(LlmErrorKind k, std::string m, int status = 0) { return {k, status, std::move(m)}; }

bool Retryable(const LlmError& e) {
  return e.kind == LlmErrorKind::kConnection || e.kind == LlmErrorKind::kTimeout ||
         (e.kind == LlmErrorKind::kHttp && (e.http_status == 429 || e.http_status >= 500));
}

}  // namespace

std::string_view LlmErrorKindName(LlmErrorKind k) {
  switch (k) {
    case LlmErrorKind::kConnection: return "connection";
    case LlmErrorKind::kTimeout: return "timeout";
    case LlmErrorKind::kHttp: return "http";
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
    case LlmErrorKind::kHttp: return http_status == 429 || http_status >= 500 ? Unavailable(m) : FailedPrecondition(m);
    default: return DataLoss(m);
  }
}

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

PostResult PostJson(const LlmEndpoint& endpoint, const std::string& path, const std::string& body) {
  PostResult out;
  std::string origin, prefix;
  SplitUrl(endpoint.base_url, &origin, &prefix);
  httplib::Client client(origin);
  time_t s, us;
  SetTimeout(endpoint.connect_timeout_s, &s, &us);
  client.set_connection_timeout(s, us);
  SetTimeout(endpoint.read_timeout_s, &s, &us);
  client.set_read_timeout(s, us);
  client.set_write_timeout(s, us);
  httplib::Headers headers;
  if (!endpoint.api_key.empty()) headers.emplace("Authorization", "Bearer " + endpoint.api_key);
  auto t0 = std::chrono::steady_clock::now();
  auto res = client.Post((prefix + path).c_str(), headers, body, "application/json");
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!res) {
    httplib::Error e = res.error();
    bool timeout = e == httplib::Error::Read || e == httplib::Error::Write ||
                   (e == httplib::Error::Connection && elapsed >= endpoint.connect_timeout_s * 0.9);
    out.error = Error(timeout ? LlmErrorKind::kTimeout : LlmErrorKind::kConnection,
                      endpoint.base_url + ": " + httplib::to_string(e));
    return out;
  }
  if (res->status < 200 || res->status >= 300) {
    out.error = Error(LlmErrorKind::kHttp, endpoint.base_url + ": HTTP " + std::to_string(res->status) + ": " +
                                               res->body.substr(0, 200), res->status);
    return out;
  }
  if (res->body.size() > endpoint.max_response_bytes) {
    out.error = Error(LlmErrorKind::kInvalidJson, "response larger than " + std::to_string(endpoint.max_response_bytes) + " bytes");
    return out;
  }
  auto parsed = ParseJson(res->body, "response");
  if (!parsed.ok() || !parsed->is_object()) {
    out.error = Error(LlmErrorKind::kInvalidJson, "body is not a JSON object");
    return out;
  }
  out.body = std::move(*parsed);
  return out;
}

PostResult PostJsonWithRetries(const LlmEndpoint& endpoint, const std::string& path, const std::string& body,
                               int* attempts) {
  PostResult r;
  double backoff = endpoint.backoff_s;
  for (int attempt = 0; attempt <= endpoint.max_retries; ++attempt) {
    r = PostJson(endpoint, path, body);
    *attempts = attempt + 1;
    if (r.body || !Retryable(*r.error) || attempt == endpoint.max_retries) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(backoff));
    backoff *= 2;
  }
  return r;
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

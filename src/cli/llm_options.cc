#include "cli/llm_options.h"

#include <cstdlib>

namespace schedmate {

void AddLlmOptions(CLI::App* cmd, LlmArgs* a) {
  cmd->add_option("--llm-url", a->url, "OpenAI-compatible endpoint (vLLM, llama.cpp, Ollama)")
      ->capture_default_str()->group("LLM backend");
  cmd->add_option("--llm-model", a->model, "Model name sent to the endpoint")->capture_default_str()->group("LLM backend");
  cmd->add_option("--llm-api-key-env", a->api_key_env, "Environment variable holding the API key (optional)")
      ->capture_default_str()->group("LLM backend");
  cmd->add_option("--llm-dialect", a->dialect, "How the JSON schema is sent: openai | vllm | llamacpp")
      ->capture_default_str()->check(CLI::IsMember({"openai", "vllm", "llamacpp"}))->group("LLM backend");
  cmd->add_option("--llm-timeout", a->timeout_s,
                  "Wall-clock deadline per question, seconds: connect, send, the whole answer and every retry")
      ->capture_default_str()->check(CLI::Range(0.1, 3600.0))->group("LLM backend");
  cmd->add_option("--llm-retries", a->retries,
                  "Retries after a transport error, 429 or 5xx, while --llm-timeout has time left")
      ->capture_default_str()->check(CLI::Range(0, 10))->group("LLM backend");
  cmd->add_option("--llm-concurrency", a->concurrency, "Requests in flight at most")
      ->capture_default_str()->check(CLI::Range(1, 256))->group("LLM backend");
  cmd->add_option("--cascade-threshold", a->cascade_threshold,
                  "Cascade: ask the LLM when the embedded confidence is below this")
      ->capture_default_str()->check(CLI::Range(0.0, 1.0))->group("LLM backend");
}

LlmEndpoint MakeEndpoint(const LlmArgs& a) {
  LlmEndpoint e;
  e.base_url = a.url;
  e.model = a.model;
  if (const char* key = std::getenv(a.api_key_env.c_str())) e.api_key = key;
  e.schema_mode = a.dialect == "vllm" ? SchemaMode::kVllm : a.dialect == "llamacpp" ? SchemaMode::kLlamaCpp : SchemaMode::kOpenAi;
  e.deadline_s = a.timeout_s;
  e.max_retries = a.retries;
  e.max_concurrency = a.concurrency;
  return e;
}

}  // namespace schedmate

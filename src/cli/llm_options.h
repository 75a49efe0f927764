// Command-line options shared by every command with an LLM backend.
#ifndef SCHEDMATE_CLI_LLM_OPTIONS_H_
#define SCHEDMATE_CLI_LLM_OPTIONS_H_

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "llm/chat_client.h"

namespace schedmate {

struct LlmArgs {
  std::string url = "http://127.0.0.1:8000/v1";
  std::string model = "Qwen/Qwen2.5-7B-Instruct";
  std::string api_key_env = "OPENAI_API_KEY";
  std::string dialect = "openai";
  double timeout_s = 60;  // wall-clock budget of one question, retries included
  int retries = 2;        // within timeout_s
  int concurrency = 4;
  double cascade_threshold = 0.75;  // ask the LLM below this embedded confidence
};

void AddLlmOptions(CLI::App* cmd, LlmArgs* args);
LlmEndpoint MakeEndpoint(const LlmArgs& args);

}  // namespace schedmate

#endif  // SCHEDMATE_CLI_LLM_OPTIONS_H_

// Garbage from an LLM endpoint: the answer extractor, the schema validator
// and the Tracker's grounding must reject it cleanly, never crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "llm/chat_client.h"
#include "llm/grounding.h"
#include "llm/json_schema.h"
#include "tracker/llm_progress.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto answer = schedmate::ParseAnswerJson(text);
  if (answer.ok()) {
    schedmate::Status s = schedmate::ValidateJsonSchema(schedmate::ProgressAnswerSchema(), *answer);
    (void)s;
  }
  auto numbers = schedmate::NumbersInText(text);
  for (double n : numbers) schedmate::NumberInText(n, numbers, 0.01, true);
  return 0;
}

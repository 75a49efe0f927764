// Which extractor answers (DESIGN §2): the embedded backend, the LLM, or the
// cascade that asks the LLM only when the embedded answer is unsure.
#ifndef SCHEDMATE_LLM_BACKEND_H_
#define SCHEDMATE_LLM_BACKEND_H_

#include <string>
#include <string_view>

#include "core/status.h"

namespace schedmate {

enum class BackendKind { kEmbedded, kLlm, kCascade };

inline Result<BackendKind> ParseBackendKind(std::string_view name) {
  if (name == "embedded") return BackendKind::kEmbedded;
  if (name == "llm") return BackendKind::kLlm;
  if (name == "cascade") return BackendKind::kCascade;
  return InvalidArgument("unknown backend '" + std::string(name) + "' (embedded, llm, cascade)");
}

}  // namespace schedmate

#endif  // SCHEDMATE_LLM_BACKEND_H_

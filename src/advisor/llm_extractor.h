// The LLM metadata extractor (DESIGN §1.1 step 2, §2): a ReAct-style agent
// that may only call the two repository tools (file_tree, file_read), with a
// step budget. Each turn the model answers one JSON action, checked against
// a schema; the final metadata is schema-checked too, and every value must
// be traceable to the command or a file the agent read — otherwise the
// answer is refused (ungrounded) and the caller falls back to the embedded
// extractor. The model never executes anything; paths it asks for go
// through the same refusals as every other reader (no `..`, no absolute
// paths, no symlink escapes).
#ifndef SCHEDMATE_ADVISOR_LLM_EXTRACTOR_H_
#define SCHEDMATE_ADVISOR_LLM_EXTRACTOR_H_

#include <optional>
#include <string>

#include "advisor/metadata_extractor.h"
#include "core/facts.h"
#include "llm/backend.h"
#include "llm/chat_client.h"
#include "repo/snapshot.h"

namespace schedmate {

struct LlmExtractOptions {
  int max_steps = 12;
  size_t max_read_bytes = 32u << 10;  // per file shown to the model
};

struct LlmExtractResult {
  std::optional<WorkloadMetadata> metadata;
  std::optional<LlmError> error;
  int steps = 0;
};

LlmExtractResult LlmExtractMetadata(ChatClient& client, const RepoSnapshot& snapshot, const std::string& command,
                                    const LlmExtractOptions& options = {});

// The cascade (DESIGN §2): the embedded extractor first; the LLM only when
// its confidence is below `threshold` (or it failed), filling the fields the
// embedded answer lacks. `*backend` says who answered.
// `options.workdir`: where in the repository the command runs.
Result<WorkloadMetadata> ExtractWithBackend(const RepoSnapshot& snapshot, const std::string& command,
                                            BackendKind backend, ChatClient* client, double threshold,
                                            std::string* answered_by, const ExtractOptions& options = {});

}  // namespace schedmate

#endif  // SCHEDMATE_ADVISOR_LLM_EXTRACTOR_H_

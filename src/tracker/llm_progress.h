// The Tracker's LLM backend and the cascade (DESIGN §2). The LLM reads the
// newest stage-1 lines and answers in the same schema the embedded parser
// fills; every value it names must be printed in those lines (a step time
// may be printed in ms or as it/s). Any failure falls back to the embedded
// report, and the report says which backend answered.
#ifndef SCHEDMATE_TRACKER_LLM_PROGRESS_H_
#define SCHEDMATE_TRACKER_LLM_PROGRESS_H_

#include <string>
#include <utility>
#include <vector>

#include "core/facts.h"
#include "core/json.h"
#include "llm/backend.h"
#include "llm/chat_client.h"
#include "tracker/progress_scan.h"

namespace schedmate {

using TrackerBackend = BackendKind;
inline Result<TrackerBackend> ParseTrackerBackend(std::string_view name) { return ParseBackendKind(name); }

// The answer schema: status, step, total_steps, step_time_s, throughput,
// throughput_unit, loss (number, "nan" or null), line (the line used).
const Json& ProgressAnswerSchema();

// Asks `client` about `context` (index, text; newest first). The error is
// the client's typed error (ungrounded included).
struct LlmProgressResult {
  std::optional<ProgressReport> report;
  std::optional<LlmError> error;
  double latency_ms = 0;
};
LlmProgressResult LlmExtractProgress(ChatClient& client,
                                     const std::vector<std::pair<int64_t, std::string>>& context);

struct BackendChoice {
  TrackerBackend backend = TrackerBackend::kEmbedded;
  ChatClient* client = nullptr;       // required for kLlm / kCascade
  double cascade_threshold = 0.75;    // ask the LLM below this confidence
};

// The report for a scan already fed with lines: embedded, LLM, or the
// cascade; on an LLM failure the embedded report, with backend
// "embedded (llm <error kind>)".
ProgressReport ChooseProgress(const ProgressScan& scan, const BackendChoice& choice);
// The same when the caller already holds scan.Finish().
ProgressReport ChooseProgress(const ProgressScan& scan, ProgressReport embedded, const BackendChoice& choice);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_LLM_PROGRESS_H_

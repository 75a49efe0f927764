// `schedmate gen-logs progress`: a synthetic Tracker evaluation set, as
// JSONL in the format of ../shared/realdata/progress.jsonl (id, framework,
// noisy, log, truth).
#ifndef SCHEDMATE_LOGGEN_PROGRESS_LOG_SET_H_
#define SCHEDMATE_LOGGEN_PROGRESS_LOG_SET_H_

#include <string>

#include "core/status.h"
#include "loggen/progress_logs.h"

namespace schedmate {

// Writes the set to `path`; returns what the command prints (logs, bytes, per format).
Result<std::string> WriteProgressLogSet(const std::string& path, const ProgressLogOptions& options);

}  // namespace schedmate

#endif  // SCHEDMATE_LOGGEN_PROGRESS_LOG_SET_H_

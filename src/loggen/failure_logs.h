// Long failed-job logs for the Failure Handler's locator evaluation: a real
// failure excerpt embedded in a long, realistic log — training progress,
// cluster noise and interleaved rank output before it; its cascade (SIGTERM
// to healthy ranks, NCCL aborts, rank tracebacks, ChildFailedError) and
// unrelated lines after it. Deterministic from the seed.
#ifndef SCHEDMATE_LOGGEN_FAILURE_LOGS_H_
#define SCHEDMATE_LOGGEN_FAILURE_LOGS_H_

#include <cstdint>
#include <string>

#include "core/random.h"

namespace schedmate {

struct EmbedOptions {
  int64_t lines_before = 10000;
  int64_t lines_after = 2000;  // cascade and noise after the excerpt
  uint64_t seed = 1;
  // Fraction of the lines before the excerpt that are harmless lines that
  // look like failures (retried reads, socket retries, deprecation warnings,
  // NCCL INFO channel set-up), printed periodically as real jobs do.
  double failure_noise = 0;
};

// One harmless line that looks like a failure.
std::string FailureLookingLine(Rng& rng);

// One line of a failure's cascade: SIGTERM to healthy ranks, NCCL watchdog
// aborts, rank tracebacks, ChildFailedError, srun exit codes.
std::string CascadeLine(Rng& rng);

// Returns the long log; *root_index is the excerpt's root-cause line number
// (0-based) in it.
std::string EmbedFailureExcerpt(const std::string& excerpt, int64_t excerpt_root_index,
                                const EmbedOptions& options, int64_t* root_index);

}  // namespace schedmate

#endif  // SCHEDMATE_LOGGEN_FAILURE_LOGS_H_

// A job as a trace records it: what the scheduler is told at submit time plus
// what actually happened (duration, end state). Plain data, shared by the
// trace loaders (which produce it) and the simulator (which replays it).
#ifndef SCHEDMATE_CORE_JOB_SPEC_H_
#define SCHEDMATE_CORE_JOB_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedmate {

// How a job ended in the trace. Helios/Acme TIMEOUT and NODE_FAIL are kept
// apart (the authors count both as failed; see IsFailure()).
enum class EndState {
  kCompleted,
  kFailed,
  kCancelled,
  kTimeout,
  kNodeFail,
  kUnknown,  // The trace has no status (Philly philly.csv, Sia, Pollux).
};

std::string_view EndStateName(EndState s);  // "COMPLETED", "FAILED", ...
// Accepts the names above and Philly's Pass/Failed/Killed, case-insensitive.
std::optional<EndState> ParseEndState(std::string_view text);
inline bool IsFailure(EndState s) {
  return s == EndState::kFailed || s == EndState::kTimeout ||
         s == EndState::kNodeFail;
}

struct JobSpec {
  std::string id;     // Trace job id (or a generated "philly-123").
  std::string user;   // Empty when the trace has none.
  std::string vc;     // Virtual cluster name; empty = the whole cluster.
  std::string name;   // Job name; empty when the trace has none.
  std::string type;   // Workload type when known (Acme `type`, Sia `application`).
  int32_t gpus = 0;   // GPUs requested.
  int32_t cpus = 0;   // CPUs requested (0 = unknown).
  int64_t submit_s = 0;    // Submit time, seconds (trace clock).
  // Run time in the trace, seconds; -1 = unknown (Sia/Pollux workloads run
  // "until convergence" and carry none).
  int64_t duration_s = 0;
  EndState state = EndState::kUnknown;
  int32_t batch_size = 0;  // When the trace gives it (Sia/Pollux), else 0.
  // Further columns a format carries (Lucid's extra columns, Acme Kalos'
  // memory fields), as (column, raw text), kept for lossless round trips.
  std::vector<std::pair<std::string, std::string>> extra;

  friend bool operator==(const JobSpec&, const JobSpec&) = default;
};

// A loaded trace: jobs sorted by (submit_s, original row order) and metadata.
struct Trace {
  std::string source;       // File it came from, or "synthetic:<cluster>".
  std::string format;       // "philly", "helios", "acme", "sia", "lucid", "native".
  bool synthetic = false;   // Generated rather than recorded.
  int64_t epoch_s = 0;      // Calendar time of submit_s == 0 (0 if unknown).
  std::vector<JobSpec> jobs;
};

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_JOB_SPEC_H_

// Runs an outside program with a wall-clock deadline and a cap on what it
// prints: the node health checks of the Failure Handler, and later the
// cluster manager's commands. No shell is involved unless argv names one.
#ifndef SCHEDMATE_CORE_SUBPROCESS_H_
#define SCHEDMATE_CORE_SUBPROCESS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace schedmate {

struct CommandOutcome {
  int exit_code = -1;      // the program's exit status; -1 when killed
  bool timed_out = false;  // killed at the deadline (with its process group)
  std::string output;      // stdout and stderr interleaved, the first `max_output` bytes
};

// Starts argv[0] (searched in PATH) with stdin from /dev/null, waits at most
// `timeout_ms` of wall-clock time, then kills its whole process group. An
// error only when the program cannot be started at all.
Result<CommandOutcome> RunCommand(const std::vector<std::string>& argv, int64_t timeout_ms,
                                  size_t max_output = 64 * 1024);

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_SUBPROCESS_H_

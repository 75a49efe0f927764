// The newest part of a job's log file, read through the injected Env, for
// live artefact sources (agent/slurm_artefacts.h).
#ifndef SCHEDMATE_ARTEFACTS_LOG_TAIL_H_
#define SCHEDMATE_ARTEFACTS_LOG_TAIL_H_

#include <cstdint>
#include <string>

#include "core/env.h"
#include "core/status.h"

namespace schedmate {

// At most `max_bytes` from the end of the file at `path`, starting at a line
// start (a line cut by the window is dropped, unless it is the only one).
// A file that does not exist yet is an empty log, not an error.
Result<std::string> ReadLogTail(Env& env, const std::string& path, int64_t max_bytes);

}  // namespace schedmate

#endif  // SCHEDMATE_ARTEFACTS_LOG_TAIL_H_

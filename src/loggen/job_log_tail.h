// The end of one simulated job's log, as a cluster would keep it (issue 6):
// start-up lines when the tail reaches back to the start, the job's last
// progress records in its framework's format (job_log.h) with evaluation
// passes, unrelated cluster lines and other ranks' warnings between them, a completion summary for
// a job that finished, and — for a failed job — the injected first error
// followed by its cascade. Only the tail is generated: the Tracker reads a
// steady-state window and the Failure Handler reads around the first error,
// so a 100k-job trace never writes 100k full logs.
#ifndef SCHEDMATE_LOGGEN_JOB_LOG_TAIL_H_
#define SCHEDMATE_LOGGEN_JOB_LOG_TAIL_H_

#include <cstdint>
#include <string>

#include "loggen/failure_injection.h"
#include "loggen/job_log.h"

namespace schedmate {

struct JobLogTailOptions {
  int64_t progress_records = 40;  // progress records in the tail (fewer if the job ran fewer)
  double noise_ratio = 0.3;       // unrelated lines per progress record, on average
  int64_t eval_every_records = 15;  // an evaluation pass every this many records; 0 = none
  bool finished = false;          // ended normally: print the completion summary
  int ranks = 1;                  // > 1: other ranks' warnings interleave with rank 0's progress
  uint64_t seed = 1;
};

struct RenderedLog {
  std::string text;
  int64_t lines = 0;
  int64_t progress_records = 0;
  int64_t root_line = -1;  // 0-based line of the injected first error; -1 = none
};

// The tail after `steps_run` steps. `failure` may be null.
RenderedLog RenderJobLogTail(const JobLogSpec& spec, int64_t steps_run, const InjectedError* failure,
                             const JobLogTailOptions& options);

}  // namespace schedmate

#endif  // SCHEDMATE_LOGGEN_JOB_LOG_TAIL_H_

// The slice of a real trace an experiment replays: a calendar window on
// submit times, rows without a duration or a GPU dropped, a seeded sample of
// a fixed size in submit order; then one VC, submit times from 0 and
// requests capped. Shared by the Lucid and standalone experiments so both
// replay the same jobs for the same settings.
#ifndef SCHEDMATE_EXPERIMENTS_TRACE_SLICE_H_
#define SCHEDMATE_EXPERIMENTS_TRACE_SLICE_H_

#include <cstdint>
#include <string>

#include "core/job_spec.h"
#include "core/status.h"

namespace schedmate {

struct TraceSlice {
  std::string from, to;  // "YYYY-MM-DD[ hh:mm:ss]", either may be empty
  int64_t max_jobs = 0;  // 0 = all
  uint64_t seed = 1;
};

// Window, filter and sample; an error when nothing is left or the window
// needs calendar times the trace lacks.
Status KeepSlice(const TraceSlice& s, Trace& t);

// One VC "main", the first submit at 0 (the calendar origin moves with it),
// requests capped at `max_gpus` (0 = no cap).
void RebaseOnOneVc(Trace& t, int32_t max_gpus);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_TRACE_SLICE_H_

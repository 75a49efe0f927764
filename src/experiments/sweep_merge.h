// Merges a sweep directory's task results (sweep_plan.h) into one summary:
// per task its status and the runs its --json summary reports (a policy, a
// Lucid/standalone run, a backfill row) with their metrics, and per
// experiment × setting × run the mean over the seeds that succeeded. A task
// that failed (non-zero exit, unreadable summary) or is missing (no
// result.json) is listed with why and where its stderr is — never dropped.
// Nested numbers are kept as "outer.inner". Wall-clock timings (wall_s,
// events_per_s, *_ms, *_ms_total) are left out, so the same sweep merges to
// the same numbers wherever it ran.
#ifndef SCHEDMATE_EXPERIMENTS_SWEEP_MERGE_H_
#define SCHEDMATE_EXPERIMENTS_SWEEP_MERGE_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/status.h"
#include "experiments/sweep_plan.h"

namespace schedmate {

struct SummaryRun {
  std::string label;
  std::map<std::string, double> metrics;
};

// The runs of one command's --json summary: an object (simulate, one
// policy), an array of them (several policies), or an object with "runs"
// (lucid, standalone) or "rows" (backfill). Numbers inside nested objects
// are named "outer.inner". `with_timings` keeps the wall-clock timings too
// (the research report prints them; the merge leaves them out).
Result<std::vector<SummaryRun>> SummaryRuns(const Json& summary, bool with_timings = false);

enum class TaskStatus { kOk, kFailed, kMissing };
const char* TaskStatusName(TaskStatus s);

struct MergedTask {
  SweepTask task;
  TaskStatus status = TaskStatus::kMissing;
  std::string why;  // failed / missing: what happened and where to look
  std::string stderr_path;
  std::string slurm_state;  // when the sweep ran under SLURM
  std::optional<TaskResult> result;
  std::vector<SummaryRun> runs;
};

struct MergedMean {
  std::string experiment, setting, label;
  std::vector<int64_t> seeds;  // those whose task succeeded
  size_t expected = 0;         // tasks of this experiment × setting
  std::map<std::string, double> mean;
};

struct MergedSweep {
  std::string name, dir;
  std::vector<MergedTask> tasks;
  std::vector<MergedMean> means;
  size_t ok = 0, failed = 0, missing = 0;
  bool complete() const { return failed == 0 && missing == 0; }
};

// Reads DIR/tasks.json and every task's files. An error only when the
// directory holds no readable plan; a bad task is a failed task.
Result<MergedSweep> MergeSweep(const std::string& dir);
Json MergedSweepToJson(const MergedSweep& m);
// The per-task table, the means over seeds, and every failed or missing task.
std::string FormatMergedSweep(const MergedSweep& m);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SWEEP_MERGE_H_

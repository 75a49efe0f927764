// Runs one sweep task as its own process: in the plan's working directory,
// stdin from /dev/null, stdout to task-<i>/summary.json, stderr to
// task-<i>/stderr.txt, and when it ends its exit code, signal and wall time
// to task-<i>/result.json. The local runner and every SLURM array task
// (`schedmate experiments task DIR I`) go through this one path.
#ifndef SCHEDMATE_EXPERIMENTS_SWEEP_TASK_EXEC_H_
#define SCHEDMATE_EXPERIMENTS_SWEEP_TASK_EXEC_H_

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "core/status.h"
#include "experiments/sweep_plan.h"

namespace schedmate {

struct StartedTask {
  pid_t pid = -1;
  size_t index = 0;
  int64_t started_at_ms = 0;  // Unix time
  int64_t started_steady_ms = 0;
};

// REQUIRES: index < plan.tasks.size(); the task directory exists.
Result<StartedTask> StartSweepTask(const SweepPlan& plan, const std::string& dir, size_t index);
// Records how the task ended: `wait_status` as waitpid gave it.
Result<TaskResult> FinishSweepTask(const std::string& dir, const StartedTask& task, int wait_status);
// Start, wait, finish. SIGTERM, SIGINT and SIGHUP to this process are passed
// on to the task (SLURM's time limit then still leaves a result.json).
Result<TaskResult> RunSweepTask(const SweepPlan& plan, const std::string& dir, size_t index);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SWEEP_TASK_EXEC_H_

// A sweep expanded into tasks, and the files of a sweep directory:
//   DIR/tasks.json           the plan: task i → its exact argv (written once, before anything runs)
//   DIR/task-<i>/summary.json  the task's standard output (the command's --json summary)
//   DIR/task-<i>/stderr.txt    its standard error
//   DIR/task-<i>/result.json   how it ended (exit code, signal, wall time, host), written last, atomically
//   DIR/task-<i>/slurm.out     what SLURM itself printed for the array task (--slurm only)
// A task without result.json never ended (or its runner was killed).
#ifndef SCHEDMATE_EXPERIMENTS_SWEEP_PLAN_H_
#define SCHEDMATE_EXPERIMENTS_SWEEP_PLAN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "experiments/sweep_spec.h"

namespace schedmate {

struct SweepTask {
  size_t index = 0;
  std::string experiment, setting, command;
  int64_t seed = 0;
  std::vector<std::string> argv;  // argv[0]: the schedmate binary's absolute path
};

struct SweepPlan {
  std::string name, sweep_file, cwd, binary;
  std::vector<std::string> sbatch_args;
  std::vector<SweepTask> tasks;
};

// Experiments × settings × seeds, in the file's order; `binary` must be an
// absolute path, `out_dir` the sweep directory (for keep_outputs).
SweepPlan ExpandSweep(const SweepSpec& spec, const std::string& binary, const std::string& out_dir);

std::string TaskDir(const std::string& dir, size_t index);
std::string TaskSummaryPath(const std::string& dir, size_t index);
std::string TaskStderrPath(const std::string& dir, size_t index);
std::string TaskResultPath(const std::string& dir, size_t index);
std::string TaskSlurmOutPath(const std::string& dir, size_t index);

// Writes DIR/tasks.json and creates every task directory. AlreadyExists
// (unless `replace`) when DIR already holds a sweep: results are never
// overwritten by accident.
Status WriteSweepPlan(const SweepPlan& plan, const std::string& dir, bool replace);
Result<SweepPlan> ReadSweepPlan(const std::string& dir);

struct TaskResult {
  int exit_code = -1;  // 128 + signal when killed
  int signal = 0;
  double wall_s = 0;
  std::string host;
  int64_t started_at_ms = 0;  // Unix time
};

Status WriteTaskResult(const std::string& dir, size_t index, const TaskResult& result);
// nullopt when the task has no result.json yet.
Result<std::optional<TaskResult>> ReadTaskResult(const std::string& dir, size_t index);

// Writes `text` to `path` through a temporary file and a rename, so a reader
// sees the old file or the whole new one.
Status WriteFileAtomically(const std::string& path, const std::string& text);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SWEEP_PLAN_H_

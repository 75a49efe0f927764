// A sweep as one SLURM job array: one batch script whose array task i runs
// `schedmate experiments task DIR i` (the same executor as a local run),
// submitted with `sbatch --array=0-(N-1)`, then waited for by polling
// squeue until no task is pending or running. The sweep directory must be
// on a filesystem every node sees (on one machine it is). SLURM is reached
// only through its command-line tools, behind an injectable runner.
#ifndef SCHEDMATE_EXPERIMENTS_SWEEP_SLURM_H_
#define SCHEDMATE_EXPERIMENTS_SWEEP_SLURM_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/subprocess.h"
#include "experiments/sweep_plan.h"

namespace schedmate {

// SLURM's default MaxArraySize is 1001: indices 0..1000.
inline constexpr size_t kMaxSlurmArrayTasks = 1001;

using SweepCommandRunner =
    std::function<Result<CommandOutcome>(const std::vector<std::string>& argv, int64_t timeout_ms)>;

// Each array task's state as `squeue -h -r -j JOB --states=all -o '%K %T'`
// prints it; `known` is false when SLURM no longer knows the job (MinJobAge).
struct ArrayStates {
  bool known = true;
  std::map<size_t, std::string> states;
};

struct SlurmArrayOptions {
  std::vector<std::string> sbatch_args;  // from the command line, after the sweep file's
  int max_concurrent = 0;                // --array=0-N%K; 0: SLURM decides
  double poll_s = 2;
  double timeout_s = 0;  // how long to wait for the array; 0: no limit
  int64_t command_timeout_ms = 60'000;
  SweepCommandRunner runner;                        // default: RunCommand
  std::function<void(double)> sleep;                // default: a real sleep
  std::function<void(const ArrayStates&)> on_poll;  // each answer of squeue (progress)
};

// Writes DIR/sweep.sbatch and returns its path.
Result<std::string> WriteSweepBatchScript(const SweepPlan& plan, const std::string& dir);

// Submits the array; returns its job id and records it with the exact sbatch
// argv in DIR/slurm.json.
Result<std::string> SubmitSweepArray(const SweepPlan& plan, const std::string& dir, const SlurmArrayOptions& options);

Result<ArrayStates> ParseArrayStates(const CommandOutcome& squeue);
bool IsFinalSlurmState(const std::string& state);

// Polls until no task is pending or running (or SLURM forgot the job), then
// writes DIR/slurm_states.json (task index → SLURM's last state).
// DeadlineExceeded after options.timeout_s; Unavailable when squeue keeps
// failing. Neither cancels the array.
Result<ArrayStates> WaitForSweepArray(const std::string& job_id, const std::string& dir,
                                      const SlurmArrayOptions& options);

// DIR/slurm_states.json, or empty states when absent.
std::map<size_t, std::string> ReadSlurmStates(const std::string& dir);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SWEEP_SLURM_H_

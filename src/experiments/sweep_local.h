// Runs a sweep's tasks on this machine, `parallel` at a time, each through
// StartSweepTask (its own process, its own files). A task that fails is
// recorded and the others go on; only a task that cannot be started at all
// stops the run.
#ifndef SCHEDMATE_EXPERIMENTS_SWEEP_LOCAL_H_
#define SCHEDMATE_EXPERIMENTS_SWEEP_LOCAL_H_

#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "experiments/sweep_plan.h"

namespace schedmate {

struct LocalRunOptions {
  int parallel = 1;
  // Called as each task ends, in the order they end.
  std::function<void(const SweepTask& task, const TaskResult& result)> on_done;
};

Status RunSweepLocally(const SweepPlan& plan, const std::string& dir, const LocalRunOptions& options);

// Several sweeps' tasks through one pool of `parallel` slots, in order (the
// first sweep's tasks first), so a suite keeps every core busy across sweeps.
struct LocalSweep {
  const SweepPlan* plan = nullptr;
  std::string dir;
};
Status RunSweepsLocally(const std::vector<LocalSweep>& sweeps, const LocalRunOptions& options);

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_SWEEP_LOCAL_H_

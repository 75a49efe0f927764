#include "experiments/sweep_local.h"

#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "experiments/sweep_task_exec.h"

namespace schedmate {

Status RunSweepLocally(const SweepPlan& plan, const std::string& dir, const LocalRunOptions& options) {
  return RunSweepsLocally({{&plan, dir}}, options);
}

Status RunSweepsLocally(const std::vector<LocalSweep>& sweeps, const LocalRunOptions& options) {
  const size_t parallel = static_cast<size_t>(std::max(1, options.parallel));
  struct Running {
    size_t sweep;
    StartedTask task;
  };
  std::map<pid_t, Running> running;
  size_t sweep = 0, next = 0;  // the next task to start: sweeps[sweep].plan->tasks[next]
  auto more = [&] {
    while (sweep < sweeps.size() && next >= sweeps[sweep].plan->tasks.size()) ++sweep, next = 0;
    return sweep < sweeps.size();
  };
  Status first_error;
  while (more() || !running.empty()) {
    while (first_error.ok() && running.size() < parallel && more()) {
      auto started = StartSweepTask(*sweeps[sweep].plan, sweeps[sweep].dir, next++);
      if (!started.ok()) {
        first_error = started.status();
        break;
      }
      running.emplace(started->pid, Running{sweep, *started});
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) return Internal(std::string("waitpid: ") + std::strerror(errno));
    auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    const LocalSweep& s = sweeps[it->second.sweep];
    auto result = FinishSweepTask(s.dir, it->second.task, status);
    if (!result.ok() && first_error.ok()) first_error = result.status();
    if (result.ok() && options.on_done) options.on_done(s.plan->tasks[it->second.task.index], *result);
    running.erase(it);
  }
  return first_error;
}

}  // namespace schedmate

#include "experiments/sweep_local.h"

#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "experiments/sweep_task_exec.h"

namespace schedmate {

Status RunSweepLocally(const SweepPlan& plan, const std::string& dir, const LocalRunOptions& options) {
  const size_t parallel = static_cast<size_t>(std::max(1, options.parallel));
  std::map<pid_t, StartedTask> running;
  size_t next = 0;
  Status first_error;
  while (next < plan.tasks.size() || !running.empty()) {
    while (first_error.ok() && next < plan.tasks.size() && running.size() < parallel) {
      auto started = StartSweepTask(plan, dir, next++);
      if (!started.ok()) {
        first_error = started.status();
        break;
      }
      running.emplace(started->pid, *started);
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) return Internal(std::string("waitpid: ") + std::strerror(errno));
    auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    auto result = FinishSweepTask(dir, it->second, status);
    if (!result.ok() && first_error.ok()) first_error = result.status();
    if (result.ok() && options.on_done) options.on_done(plan.tasks[it->second.index], *result);
    running.erase(it);
  }
  return first_error;
}

}  // namespace schedmate

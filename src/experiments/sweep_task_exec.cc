#include "experiments/sweep_task_exec.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <vector>

namespace schedmate {
namespace {

int64_t UnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}
int64_t SteadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string HostName() {
  char buf[256] = {};
  return gethostname(buf, sizeof buf - 1) == 0 ? buf : "";
}

// In the child: nothing but async-signal-safe calls until exec.
[[noreturn]] void ExecTask(const std::vector<char*>& argv, const char* cwd, int in_fd, int out_fd, int err_fd) {
  dup2(in_fd, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(err_fd, STDERR_FILENO);
  signal(SIGTERM, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  if (chdir(cwd) != 0) {
    const char msg[] = "schedmate experiments: cannot enter the sweep's working directory\n";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    _exit(127);
  }
  execv(argv[0], argv.data());
  const char msg[] = "schedmate experiments: cannot start the task's program (execv failed)\n";
  (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
  _exit(127);
}

volatile sig_atomic_t g_child = 0;
void Forward(int sig) {
  if (g_child > 0) kill(static_cast<pid_t>(g_child), sig);
}

}  // namespace

Result<StartedTask> StartSweepTask(const SweepPlan& plan, const std::string& dir, size_t index) {
  const SweepTask& task = plan.tasks.at(index);
  const std::string out_path = TaskSummaryPath(dir, index), err_path = TaskStderrPath(dir, index);
  int in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  int out_fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  auto close_all = [&] {
    for (int fd : {in_fd, out_fd, err_fd})
      if (fd >= 0) close(fd);
  };
  if (in_fd < 0 || out_fd < 0 || err_fd < 0) {
    const std::string why = std::strerror(errno);
    close_all();
    return Unavailable("task " + std::to_string(index) + ": cannot open its output files in " + TaskDir(dir, index) +
                       ": " + why);
  }
  std::vector<char*> argv;
  for (const std::string& a : task.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  StartedTask started{-1, index, UnixMs(), SteadyMs()};
  started.pid = fork();
  if (started.pid == 0) ExecTask(argv, plan.cwd.c_str(), in_fd, out_fd, err_fd);
  const int fork_errno = errno;
  close_all();
  if (started.pid < 0) return Unavailable("task " + std::to_string(index) + ": fork: " + std::strerror(fork_errno));
  return started;
}

Result<TaskResult> FinishSweepTask(const std::string& dir, const StartedTask& task, int wait_status) {
  TaskResult r;
  if (WIFEXITED(wait_status)) {
    r.exit_code = WEXITSTATUS(wait_status);
  } else if (WIFSIGNALED(wait_status)) {
    r.signal = WTERMSIG(wait_status);
    r.exit_code = 128 + r.signal;
  }
  r.wall_s = static_cast<double>(SteadyMs() - task.started_steady_ms) / 1000.0;
  r.host = HostName();
  r.started_at_ms = task.started_at_ms;
  RETURN_IF_ERROR(WriteTaskResult(dir, task.index, r));
  return r;
}

Result<TaskResult> RunSweepTask(const SweepPlan& plan, const std::string& dir, size_t index) {
  ASSIGN_OR_RETURN(StartedTask task, StartSweepTask(plan, dir, index));
  g_child = task.pid;
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) std::signal(sig, Forward);
  int status = 0;
  while (waitpid(task.pid, &status, 0) < 0) {
    if (errno != EINTR) return Internal("task " + std::to_string(index) + ": waitpid: " + std::strerror(errno));
  }
  g_child = 0;
  return FinishSweepTask(dir, task, status);
}

}  // namespace schedmate

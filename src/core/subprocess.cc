#include "core/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace schedmate {
namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// In the child: its own process group (so a deadline kills what it started),
// output to the pipe, nothing to read.
[[noreturn]] void Exec(const std::vector<std::string>& argv, int out_fd) {
  setpgid(0, 0);
  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  _exit(127);
}

// Reads until the pipe closes or the deadline passes; keeps the first `cap` bytes.
bool Drain(int fd, int64_t deadline_ms, size_t cap, std::string* out) {
  char buf[4096];
  while (true) {
    int64_t left = deadline_ms - NowMs();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int rc = poll(&p, 1, static_cast<int>(left));
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) return rc == 0 ? false : true;
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    if (out->size() < cap) out->append(buf, std::min(static_cast<size_t>(n), cap - out->size()));
  }
}

}  // namespace

Result<CommandOutcome> RunCommand(const std::vector<std::string>& argv, int64_t timeout_ms, size_t max_output) {
  if (argv.empty() || argv[0].empty()) return InvalidArgument("no command to run");
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Unavailable(std::string("pipe: ") + std::strerror(errno));
  const int64_t deadline = NowMs() + timeout_ms;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return Unavailable(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) Exec(argv, fds[1]);
  close(fds[1]);
  setpgid(pid, pid);  // also from the parent, so the kill below cannot race the child's own call
  CommandOutcome out;
  out.timed_out = !Drain(fds[0], deadline, max_output, &out.output);
  close(fds[0]);
  int status = -1;  // not an exit status: a failed wait never reads as success
  // A program may close its output and go on running: the deadline holds for its exit too.
  while (!out.timed_out && waitpid(pid, &status, WNOHANG) == 0) {
    if (NowMs() >= deadline) out.timed_out = true;
    else usleep(5000);
  }
  if (out.timed_out) {
    kill(-pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (!out.timed_out && WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (out.exit_code == 127 && out.output.empty())
    return NotFound(argv[0] + ": cannot be started (not found or not executable)");
  return out;
}

}  // namespace schedmate

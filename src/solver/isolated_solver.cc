#include "solver/isolated_solver.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

namespace schedmate {
namespace {

// The child's answer on the pipe: code, message, objective, proven, values.
void Put(std::string* out, const void* p, size_t n) { out->append(static_cast<const char*>(p), n); }

std::string Encode(const Result<MilpSolution>& r) {
  std::string out;
  int32_t code = static_cast<int32_t>(r.ok() ? StatusCode::kOk : r.status().code());
  std::string msg = r.ok() ? "" : r.status().message();
  uint64_t len = msg.size();
  Put(&out, &code, sizeof code);
  Put(&out, &len, sizeof len);
  out += msg;
  if (!r.ok()) return out;
  uint8_t proven = r->proven_optimal;
  uint64_t n = r->values.size();
  Put(&out, &r->objective, sizeof r->objective);
  Put(&out, &proven, sizeof proven);
  Put(&out, &n, sizeof n);
  Put(&out, r->values.data(), n * sizeof(double));
  return out;
}

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}
  bool Get(void* p, size_t n) {
    if (s_.size() - at_ < n) return false;
    std::memcpy(p, s_.data() + at_, n);
    at_ += n;
    return true;
  }
  bool GetString(size_t n, std::string* out) {
    if (s_.size() - at_ < n) return false;
    out->assign(s_, at_, n);
    at_ += n;
    return true;
  }

 private:
  const std::string& s_;
  size_t at_ = 0;
};

std::optional<Result<MilpSolution>> Decode(const std::string& bytes) {
  Reader in(bytes);
  int32_t code;
  uint64_t len;
  std::string msg;
  if (!in.Get(&code, sizeof code) || !in.Get(&len, sizeof len) || !in.GetString(len, &msg)) return std::nullopt;
  if (code != static_cast<int32_t>(StatusCode::kOk)) return Result<MilpSolution>(Status(static_cast<StatusCode>(code), msg));
  MilpSolution s;
  uint8_t proven;
  uint64_t n;
  if (!in.Get(&s.objective, sizeof s.objective) || !in.Get(&proven, sizeof proven) || !in.Get(&n, sizeof n))
    return std::nullopt;
  if (n > (uint64_t{1} << 32)) return std::nullopt;
  s.values.resize(n);
  if (!in.Get(s.values.data(), n * sizeof(double))) return std::nullopt;
  s.proven_optimal = proven != 0;
  return Result<MilpSolution>(std::move(s));
}

void WriteAll(int fd, const std::string& s) {
  for (size_t at = 0; at < s.size();) {
    ssize_t n = write(fd, s.data() + at, s.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

// Reads until EOF or the deadline; false at the deadline.
bool ReadUntil(int fd, std::chrono::steady_clock::time_point deadline, std::string* out) {
  char buf[1 << 16];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int rc = poll(&p, 1, static_cast<int>(left.count()));
    if (rc < 0 && errno == EINTR) continue;
    if (rc == 0) return false;
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    out->append(buf, static_cast<size_t>(n));
  }
}

}  // namespace

Result<MilpSolution> IsolatedSolver::Solve(const MilpProblem& p, const MilpOptions& o) {
  RETURN_IF_ERROR(ValidateMilp(p));
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Unavailable(std::string("solver pipe: ") + std::strerror(errno));
  // The child inherits stdio buffers; a library that flushes stdout in it
  // (CBC does) would print the parent's pending output a second time.
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return Unavailable(std::string("solver fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    WriteAll(fds[1], Encode(inner_->Solve(p, o)));
    _exit(0);
  }
  close(fds[1]);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(o.time_limit_s + grace_s_));
  std::string bytes;
  bool in_time = ReadUntil(fds[0], deadline, &bytes);
  close(fds[0]);
  if (!in_time) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!in_time)
    return Status(StatusCode::kDeadlineExceeded,
                  "solver: no answer within " + std::to_string(o.time_limit_s + grace_s_) + " s (killed)");
  if (WIFSIGNALED(status))
    return Internal("solver crashed (signal " + std::to_string(WTERMSIG(status)) + ": " + strsignal(WTERMSIG(status)) +
                    "); this round has no solution");
  auto decoded = Decode(bytes);
  if (!decoded) return Internal("solver: the child's answer was cut short (exit " + std::to_string(WEXITSTATUS(status)) + ")");
  return std::move(*decoded);
}

}  // namespace schedmate

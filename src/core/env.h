// The files and the time a component sees, behind one injected interface
// (after LevelDB's Env), so the same code runs against the real machine and,
// in tests, against FakeEnv (core/fake_env.h), which injects slow reads,
// short writes and a clock that moves only when told to.
//
// Errors: NotFound (absent), PermissionDenied, InvalidArgument (not a
// regular file / directory where one is required), ResourceExhausted (a cap
// was hit), Unavailable or DataLoss (the I/O itself failed; the message
// names the path and the reason).
// Thread safety: implementations are safe to call concurrently.
#ifndef SCHEDMATE_CORE_ENV_H_
#define SCHEDMATE_CORE_ENV_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/status.h"

namespace schedmate {

struct FileInfo {
  int64_t size = 0;
  int64_t mtime_ms = 0;
  bool regular = false;  // false: a directory, FIFO, device, socket …
};

class Env {
 public:
  virtual ~Env() = default;

  // Up to `max_bytes` of a regular file from byte `offset` (fewer at its
  // end; empty past it). A FIFO or a device is refused without blocking.
  virtual Result<std::string> ReadFile(const std::string& path, int64_t offset, int64_t max_bytes) = 0;
  // Replaces `path` with `data` atomically: a reader, or the next process
  // after a crash, sees the old contents or all of the new, never a part.
  // A short or failed write is an error and leaves the old file as it was.
  virtual Status WriteFileAtomic(const std::string& path, std::string_view data) = 0;
  // Entry names of a directory (no "." or ".."), sorted.
  virtual Result<std::vector<std::string>> ListDir(const std::string& dir) = 0;
  virtual Result<FileInfo> Stat(const std::string& path) = 0;
  virtual const Clock& clock() const = 0;

  int64_t NowMs() const { return clock().NowMs(); }
  // The whole file, or ResourceExhausted when it is larger than `max_bytes`.
  Result<std::string> ReadWholeFile(const std::string& path, int64_t max_bytes);

  // The real file system and SystemClock; process-wide.
  static Env& Default();
};

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_ENV_H_

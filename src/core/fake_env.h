// An in-memory Env for tests (core/env.h): files in a map, a ManualClock,
// and injected faults — slow reads (each read moves the clock), short
// writes (the next atomic write stops after N bytes and fails, as a full
// disk does) and failed reads. Directories exist implicitly, as the parents
// of files. Thread safe.
#ifndef SCHEDMATE_CORE_FAKE_ENV_H_
#define SCHEDMATE_CORE_FAKE_ENV_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "core/clock.h"
#include "core/env.h"

namespace schedmate {

class FakeEnv final : public Env {
 public:
  explicit FakeEnv(int64_t now_ms = 0) : clock_(now_ms) {}

  Result<std::string> ReadFile(const std::string& path, int64_t offset, int64_t max_bytes) override;
  Status WriteFileAtomic(const std::string& path, std::string_view data) override;
  Result<std::vector<std::string>> ListDir(const std::string& dir) override;
  Result<FileInfo> Stat(const std::string& path) override;
  const Clock& clock() const override { return clock_; }

  // Test controls.
  void SetFile(const std::string& path, std::string data);
  void AppendFile(const std::string& path, std::string_view data);
  void RemoveFile(const std::string& path);
  std::optional<std::string> Contents(const std::string& path) const;
  void AdvanceMs(int64_t ms);
  // Every read from now on takes `ms` of (fake) time.
  void SetReadDelayMs(int64_t ms);
  // The next WriteFileAtomic writes only `bytes` of its data, then fails.
  void FailNextWriteAfter(size_t bytes);
  // Reads of `path` fail with Unavailable until cleared (nullopt).
  void FailReadsOf(std::optional<std::string> path);
  int64_t reads() const;
  int64_t writes() const;  // atomic writes that succeeded

 private:
  struct File {
    std::string data;
    int64_t mtime_ms = 0;
  };
  mutable std::mutex mu_;
  ManualClock clock_;
  std::map<std::string, File> files_;
  int64_t read_delay_ms_ = 0;
  std::optional<size_t> short_write_;
  std::optional<std::string> failing_read_;
  int64_t reads_ = 0, writes_ = 0;
};

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_FAKE_ENV_H_

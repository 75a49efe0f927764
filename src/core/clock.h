// An injectable clock, so the same code runs simulated, live and in tests.
#ifndef SCHEDMATE_CORE_CLOCK_H_
#define SCHEDMATE_CORE_CLOCK_H_

#include <cstdint>

namespace schedmate {

// Thread safety: implementations must be safe to call concurrently.
class Clock {
 public:
  virtual ~Clock() = default;
  // Wall-clock time, milliseconds since the Unix epoch.
  virtual int64_t NowMs() const = 0;
  // Monotonic time for measuring durations, nanoseconds from an arbitrary origin.
  virtual int64_t MonotonicNs() const = 0;
};

class SystemClock final : public Clock {
 public:
  int64_t NowMs() const override;
  int64_t MonotonicNs() const override;
  // A process-wide instance.
  static const SystemClock& Default();
};

// A clock that moves only when told to. Not thread safe.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t now_ms = 0) : now_ms_(now_ms) {}
  int64_t NowMs() const override { return now_ms_; }
  int64_t MonotonicNs() const override { return now_ms_ * 1000000; }
  void AdvanceMs(int64_t ms) { now_ms_ += ms; }
  void SetMs(int64_t ms) { now_ms_ = ms; }

 private:
  int64_t now_ms_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_CORE_CLOCK_H_

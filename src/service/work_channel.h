// One channel of the service (submit = advise, run = track, exit =
// diagnose): a bounded work queue with its own worker threads and its own
// token-bucket rate limit, so a slow extraction on one channel never holds
// up the others. Submit never blocks: it queues the task or refuses at once
// (rate limited or queue full), and the caller waits for the answer only up
// to its deadline. A task whose caller gave up is dropped unrun.
// Thread safety: Submit, depth() and the counters are safe from any thread.
#ifndef SCHEDMATE_SERVICE_WORK_CHANNEL_H_
#define SCHEDMATE_SERVICE_WORK_CHANNEL_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "service/token_bucket.h"

namespace schedmate {

struct ChannelOptions {
  std::string name;        // "submit", "run", "exit"
  int workers = 2;
  size_t capacity = 256;   // tasks waiting (not counting those running)
  double rate_per_s = 2000;
  double burst = 200;
};

enum class Admission { kQueued, kRateLimited, kQueueFull };

class WorkChannel {
 public:
  using Task = std::function<void()>;
  // Called on a worker before each task, with the channel's name (tests
  // block a channel with it). Null: none.
  using BeforeTask = std::function<void(const std::string& channel)>;

  // REQUIRES: options.workers >= 1, capacity >= 1; `clock` outlives this.
  WorkChannel(ChannelOptions options, const Clock& clock, BeforeTask before_task = nullptr);
  // Stops the workers after the task each is running; queued tasks are dropped.
  ~WorkChannel();
  WorkChannel(const WorkChannel&) = delete;
  WorkChannel& operator=(const WorkChannel&) = delete;

  Admission Submit(Task task);
  int RetryAfterS() { return bucket_.RetryAfterS(); }
  size_t depth() const;
  const ChannelOptions& options() const { return options_; }

 private:
  void WorkerLoop();

  const ChannelOptions options_;
  const BeforeTask before_task_;
  TokenBucket bucket_;
  mutable std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Task> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

// The answer a caller waits for: set once by the worker, abandoned by the
// caller when its deadline passes (then the worker skips the task).
template <typename T>
class PendingAnswer {
 public:
  // False when the caller has given up: do not run the task.
  bool Wanted() {
    std::lock_guard<std::mutex> lock(mu_);
    return !abandoned_;
  }
  void Set(T value) {
    std::lock_guard<std::mutex> lock(mu_);
    value_ = std::make_unique<T>(std::move(value));
    done_.notify_all();
  }
  // The answer, or null when `timeout_ms` passed first (the task is abandoned).
  std::unique_ptr<T> WaitFor(int64_t timeout_ms) {
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return value_ != nullptr; });
    if (!value_) abandoned_ = true;
    return std::move(value_);
  }

 private:
  std::mutex mu_;
  std::condition_variable done_;
  std::unique_ptr<T> value_;
  bool abandoned_ = false;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SERVICE_WORK_CHANNEL_H_

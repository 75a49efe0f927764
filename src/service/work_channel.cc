#include "service/work_channel.h"

namespace schedmate {

WorkChannel::WorkChannel(ChannelOptions options, const Clock& clock, BeforeTask before_task)
    : options_(std::move(options)),
      before_task_(std::move(before_task)),
      bucket_(options_.rate_per_s, options_.burst, clock) {
  for (int i = 0; i < options_.workers; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

WorkChannel::~WorkChannel() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    queue_.clear();
  }
  ready_.notify_all();
  for (auto& w : workers_) w.join();
}

Admission WorkChannel::Submit(Task task) {
  if (!bucket_.TryTake()) return Admission::kRateLimited;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (queue_.size() >= options_.capacity) return Admission::kQueueFull;
    queue_.push_back(std::move(task));
  }
  ready_.notify_one();
  return Admission::kQueued;
}

size_t WorkChannel::depth() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

void WorkChannel::WorkerLoop() {
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    if (before_task_) before_task_(options_.name);
    task();
  }
}

}  // namespace schedmate

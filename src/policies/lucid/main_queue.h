// Lucid's main queue of one VC: queued jobs in rising (priority, job) order,
// each with what the scheduling pass tests first. A pass walks hundreds of
// jobs of which almost all can neither start nor be packed; kept contiguous,
// with those fields beside the job, that test touches no job record.
#ifndef SCHEDMATE_POLICIES_LUCID_MAIN_QUEUE_H_
#define SCHEDMATE_POLICIES_LUCID_MAIN_QUEUE_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace schedmate {

struct QueuedJob {
  double priority = 0;
  int32_t job = 0;
  // Fixed while the job waits (set when it enters the queue).
  int32_t gpus = 0;
  int sharescore = 0;
  double gmem_mib = 0;
};

class LucidMainQueue {
 public:
  using iterator = std::vector<QueuedJob>::iterator;

  // As a set keyed by (priority, job): a second insert of the same key is ignored.
  void Insert(const QueuedJob& q) {
    auto it = std::lower_bound(jobs_.begin(), jobs_.end(), q, Before);
    if (it != jobs_.end() && it->priority == q.priority && it->job == q.job) return;
    jobs_.insert(it, q);
  }
  iterator begin() { return jobs_.begin(); }
  iterator end() { return jobs_.end(); }
  iterator erase(iterator it) { return jobs_.erase(it); }
  bool empty() const { return jobs_.empty(); }
  size_t size() const { return jobs_.size(); }

 private:
  static bool Before(const QueuedJob& a, const QueuedJob& b) {
    return a.priority < b.priority || (a.priority == b.priority && a.job < b.job);
  }
  std::vector<QueuedJob> jobs_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_POLICIES_LUCID_MAIN_QUEUE_H_

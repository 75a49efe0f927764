// The simulator's truth about failures during one run: which trace failures
// are still to come, how much work each job has done and saved, which nodes
// are broken or drained, and what it all cost. The engine applies the
// effects (GPUs, policy hooks); this class only keeps the books.
//
// Work accounting. A job's attempt runs towards a goal: the trace duration
// for the attempt that ends in the trace's failure, else the job's whole
// work. Work done at a failure = goal − remaining, never below what the
// attempt started from; restart overheads (restore, preemption) are
// counted as paid last, so progress is never overstated. A checkpoint holds
// the work done rounded down to the checkpoint interval.
#ifndef SCHEDMATE_SIM_FAILURE_BOOK_H_
#define SCHEDMATE_SIM_FAILURE_BOOK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/job_spec.h"
#include "sim/failures.h"

namespace schedmate {

// What failures cost a run (SimResult::failures).
struct FailureStats {
  int64_t job_failures = 0;  // every failure of every attempt
  int64_t infrastructure = 0, framework = 0, user_script = 0;
  int64_t node_faults = 0;           // faults arriving on their own
  int64_t broken_node_failures = 0;  // jobs failed by a broken node left in service
  int64_t restarts = 0;              // from a checkpoint, by a recovery decision
  int64_t resubmissions = 0;         // by the user, from scratch
  int64_t abandoned = 0;             // failed and never run again
  int64_t drains = 0;                // nodes taken out of service (by a recovery decision or operators)
  int64_t healthy_drains = 0;        // ... of which were not broken
  int64_t operator_drains = 0;       // ... of which operators did (FailureParams::operator_*)
  int64_t replacements = 0;          // replacement nodes arrived
  int64_t lost_work_gpu_s = 0;       // work done but not in a checkpoint
  int64_t drained_gpu_s = 0;         // capacity out of service
};

struct WorkAtFailure {
  int64_t done_s = 0;
  int64_t saved_s = 0;  // in the latest checkpoint
};

class FailureBook {
 public:
  FailureBook(const FailureParams& params, const Trace& trace, int32_t nodes);

  const FailureParams& params() const { return params_; }
  FailureStats& stats() { return stats_; }
  const FailureStats& stats() const { return stats_; }
  NodeFaultProcess& node_faults() { return node_faults_; }

  // The job's next end is the trace's recorded failure.
  bool TraceFailureDue(int32_t job) const { return jobs_[job].trace_failure_due; }
  const PlannedFailure& Planned(int32_t job) const { return jobs_[job].planned; }
  // Closes the failed attempt with `remaining_s` of it left; the trace's
  // failure, if due, has happened.
  WorkAtFailure CloseAttempt(int32_t job, int64_t remaining_s);
  // Whether the user resubmits the job after its `failures`-th failure, of
  // `category` (a draw of its own, FailureParams::resubmit_prob_*).
  bool UserResubmits(int32_t job, int32_t failures, FailureCategory category) const;
  // Opens the next attempt; returns its work (remaining_s).
  int64_t OpenAttempt(int32_t job, bool from_checkpoint, const WorkAtFailure& at);

  bool broken(int32_t node) const { return nodes_[node].broken; }
  const std::string& broken_component(int32_t node) const { return nodes_[node].component; }
  // Returns the node's break count, which names this break.
  uint32_t Break(int32_t node, const std::string& component);
  uint32_t breaks(int32_t node) const { return nodes_[node].breaks; }
  // A job failed on the broken `node`: returns how many have since it broke.
  int32_t CountFailureOnBroken(int32_t node) { return ++nodes_[node].failures_since_break; }
  bool drained(int32_t node) const { return nodes_[node].drained_since_s >= 0; }
  void MarkDrained(int32_t node, int64_t now_s);
  // The replacement arrived: the node is in service and healthy again.
  void MarkReplaced(int32_t node, int64_t now_s, int32_t gpus_per_node);
  // Adds the capacity still out of service at the end of the run.
  void CloseRun(int64_t now_s, int32_t gpus_per_node);

 private:
  struct JobBook {
    PlannedFailure planned;
    uint64_t stream = 0;  // the job's own random stream
    bool trace_failure_due = false;
    int64_t goal_s = 0;
    int64_t floor_s = 0;  // work the attempt started from
  };
  struct NodeBook {
    bool broken = false;
    std::string component;
    int64_t drained_since_s = -1;
    uint32_t breaks = 0;
    int32_t failures_since_break = 0;
  };

  FailureParams params_;
  std::vector<JobBook> jobs_;
  std::vector<NodeBook> nodes_;
  FailureStats stats_;
  NodeFaultProcess node_faults_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_FAILURE_BOOK_H_

// The simulator's engine (engine.h), declared for the two files that
// define it: engine.cc (events, scheduling actions, the run loop) and
// engine_failures.cc (failures, drains and recovery, only with
// SimOptions::failures). Not part of the sim/ interface.
#ifndef SCHEDMATE_SIM_ENGINE_INTERNAL_H_
#define SCHEDMATE_SIM_ENGINE_INTERNAL_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "sim/engine.h"

namespace schedmate::engine_internal {

// Event kinds, in their order at equal times: ends before wakeups, failure
// events (SimOptions::failures) last.
enum EventKind : int {
  kEnd = 0,
  kWakeup = 1,
  kJobFails = 2,      // a job placed on a broken node fails (target: job)
  kNodeFault = 3,     // a node breaks on its own (target: node)
  kReplacement = 4,   // a drained node's replacement arrives (target: node)
  kResubmission = 5,  // the user resubmits a failed job (target: job)
  kOperatorDrain = 6, // operators drain a node still broken (target: node, token: its break)
};

// Heap entry.
struct Event {
  int64_t time;
  int kind;  // EventKind
  int32_t target;
  uint32_t token;
  bool operator>(const Event& o) const {
    return time != o.time ? time > o.time : kind > o.kind;
  }
};

class Engine final : public SimState, public SchedulingActions {
 public:
  Engine(const Trace& trace, const ClusterSpec& spec, Policy& policy,
         const SimOptions& options)
      : trace_(trace), cluster_(spec), policy_(policy), options_(options) {}

  Result<SimResult> Run();

  // SimState
  int64_t Now() const override { return now_; }
  const SimJob& Job(JobIndex j) const override { return jobs_[j.value]; }
  const Cluster& cluster() const override { return cluster_; }

  // SchedulingActions
  Status Start(JobIndex job, const Allocation& allocation) override;
  Status Preempt(JobIndex job, int64_t restart_overhead_s) override;
  Status Pack(JobIndex guest, JobIndex host, double guest_rate, double host_rate) override;
  Status MoveToVc(JobIndex job, VcIndex vc) override;

 private:
  // Banks progress up to now and continues at `rate` (re-schedules the end).
  void Resegment(SimJob& j, double rate);
  // `j` leaves its GPUs: releases them, or hands them to its partner.
  void LeaveGpus(SimJob& j);
  void StopGuest(SimJob& j);
  void PushEnd(SimJob& j) { heap_.push({j.ExpectedEnd(), 0, j.index.value, j.generation}); }
  Status Admit();
  void Sample(int64_t until);
  void End(int32_t j);
  void Arrive(int32_t j);
  void MarkDirty(VcIndex vc);
  Status ScheduleDirty();
  void ReportProgress();
  // " (e.g. 'a' in VC x needing 8 GPUs, ...)": what a stall left behind.
  std::string PendingSample() const;

  // Failures (only with SimOptions::failures; see failure_book.h).
  struct Cause {
    FailureCategory category = FailureCategory::kUserScript;
    std::string component;
    NodeIndex node;
  };
  void HandleFailureEvent(const Event& e);
  void OnNodeFault(int32_t node);
  void OnBrokenNodeFailure(int32_t job);
  void OnReplacement(int32_t node);
  // The trace's recorded failure of a job whose work reached its end.
  void FailAsTraceSays(int32_t job);
  void Fail(int32_t job, const Cause& cause);
  RecoveryDecision Decide(const SimJob& j, const Cause& cause, const WorkAtFailure& at);
  void Rerun(SimJob& j, const RecoveryDecision& d, const WorkAtFailure& at, FailureCategory category);
  void OperatorsMayDrain(NodeIndex node);
  void Drain(NodeIndex node);
  // A job just placed on a broken node fails shortly after.
  void FailIfOnBrokenNode(const SimJob& j);
  std::optional<NodeIndex> BrokenNodeOf(const SimJob& j) const;
  void PushNextNodeFault();
  void BreakNode(NodeIndex node, const std::string& component);
  void OnOperatorNotice(int32_t node, uint32_t break_no);

  const Trace& trace_;
  Cluster cluster_;
  Policy& policy_;
  SimOptions options_;
  std::optional<FailureBook> book_;
  NodeFaultProcess::Fault next_fault_;
  std::vector<SimJob> jobs_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> heap_;
  std::vector<uint32_t> wakeup_token_;
  std::vector<int64_t> wakeup_time_;
  std::vector<char> dirty_;
  std::vector<int32_t> dirty_list_;
  SimResult result_;
  int64_t now_ = 0;
  int64_t next_sample_ = 0;
  int64_t runnable_ = 0, done_ = 0, decisions_ = 0;
  int32_t running_ = 0, pending_ = 0, pending_gpus_ = 0;
  int64_t progress_step_ = 1, next_progress_ = 1;
};

}  // namespace schedmate::engine_internal

#endif  // SCHEDMATE_SIM_ENGINE_INTERNAL_H_

// The engine's failure steps (SimOptions::failures): jobs failing as the
// trace says or on broken nodes, node faults, drains and replacements, and
// the recovery decision for each failed job.
#include <algorithm>

#include "sim/engine_internal.h"

namespace schedmate::engine_internal {

void Engine::PushNextNodeFault() {
  if (!book_->node_faults().enabled()) return;
  next_fault_ = book_->node_faults().Next(now_);
  heap_.push({next_fault_.time_s, kNodeFault, next_fault_.node, 0});
}

void Engine::HandleFailureEvent(const Event& e) {
  switch (e.kind) {
    case kJobFails:
      if (jobs_[e.target].generation == e.token && jobs_[e.target].phase == JobPhase::kRunning)
        OnBrokenNodeFailure(e.target);
      break;
    case kNodeFault: OnNodeFault(e.target); break;
    case kReplacement: OnReplacement(e.target); break;
    case kOperatorDrain: OnOperatorNotice(e.target, e.token); break;
    case kResubmission:
      if (jobs_[e.target].generation == e.token && jobs_[e.target].phase == JobPhase::kFuture) Arrive(e.target);
      break;
  }
}

std::optional<NodeIndex> Engine::BrokenNodeOf(const SimJob& j) const {
  for (const auto& [node, count] : j.allocation.parts)
    if (book_->broken(node.value)) return node;
  return std::nullopt;
}

void Engine::FailIfOnBrokenNode(const SimJob& j) {
  if (book_ && BrokenNodeOf(j))
    heap_.push({now_ + book_->params().broken_node_fail_after_s, kJobFails, j.index.value, j.generation});
}

void Engine::OnBrokenNodeFailure(int32_t job) {
  std::optional<NodeIndex> node = BrokenNodeOf(jobs_[job]);
  if (!node) return;  // replaced meanwhile
  ++book_->stats().broken_node_failures;
  Fail(job, {FailureCategory::kInfrastructure, book_->broken_component(node->value), *node});
}

// A fault fails every job on the node; a drained node is out of service and
// absorbs it.
void Engine::OnNodeFault(int32_t node) {
  const std::string component = next_fault_.component;
  PushNextNodeFault();
  if (cluster_.drained(NodeIndex(node))) return;
  BreakNode(NodeIndex(node), component);
  ++book_->stats().node_faults;
  ++result_.events;
  std::vector<int32_t> hit;
  for (const SimJob& j : jobs_) {
    if (j.phase != JobPhase::kRunning) continue;
    for (const auto& part : j.allocation.parts)
      if (part.first.value == node) {
        hit.push_back(j.index.value);
        break;
      }
  }
  for (int32_t j : hit)
    if (jobs_[j].phase == JobPhase::kRunning) Fail(j, {FailureCategory::kInfrastructure, component, NodeIndex(node)});
}

void Engine::OnReplacement(int32_t node) {
  cluster_.Restore(NodeIndex(node));
  book_->MarkReplaced(node, now_, cluster_.gpus_per_node());
  ++result_.events;
  MarkDirty(cluster_.VcOfNode(NodeIndex(node)));
}

void Engine::FailAsTraceSays(int32_t job) {
  const PlannedFailure& p = book_->Planned(job);
  NodeIndex node = jobs_[job].allocation.parts.front().first;
  if (p.category == FailureCategory::kInfrastructure && IsNodeLocal(p.component)) BreakNode(node, p.component);
  Fail(job, {p.category, p.component, node});
}

void Engine::BreakNode(NodeIndex node, const std::string& component) {
  if (book_->broken(node.value)) return;
  uint32_t break_no = book_->Break(node.value, component);
  if (book_->params().operator_notice_s > 0)
    heap_.push({now_ + book_->params().operator_notice_s, kOperatorDrain, node.value, break_no});
}

void Engine::OnOperatorNotice(int32_t node, uint32_t break_no) {
  if (!book_->broken(node) || book_->breaks(node) != break_no || cluster_.drained(NodeIndex(node))) return;
  ++book_->stats().operator_drains;
  Drain(NodeIndex(node));
  MarkDirty(cluster_.VcOfNode(NodeIndex(node)));
}

// Operators see the failures cluster on one node: after
// FailureParams::operator_drain_after_failures of them on a broken node they
// drain it.
void Engine::OperatorsMayDrain(NodeIndex node) {
  const int32_t after = book_->params().operator_drain_after_failures;
  if (!book_->broken(node.value) || cluster_.drained(node)) return;
  if (book_->CountFailureOnBroken(node.value) < after || after == 0) return;
  ++book_->stats().operator_drains;
  Drain(node);
}

void Engine::Drain(NodeIndex node) {
  if (cluster_.drained(node)) return;
  cluster_.Drain(node);
  book_->MarkDrained(node.value, now_);
  heap_.push({now_ + book_->params().replacement_delay_s, kReplacement, node.value, 0});
}

RecoveryDecision Engine::Decide(const SimJob& j, const Cause& cause, const WorkAtFailure& at) {
  if (!options_.recovery) return {};
  JobFailureEvent f;
  f.job = j.index;
  f.job_id = j.spec->id;
  f.now_s = now_;
  f.gpus = j.gpus;
  f.category = cause.category;
  f.component = cause.component;
  f.node = cause.node;
  f.node_name = SimNodeName(cause.node);
  f.node_broken = book_->broken(cause.node.value);
  f.work_done_s = at.done_s;
  f.checkpoint_s = at.saved_s;
  return options_.recovery->OnJobFailure(f);
}

// Ends the failed attempt: banks its progress, frees its GPUs, tells the
// policy it ended, then follows the recovery decision.
void Engine::Fail(int32_t i, const Cause& cause) {
  SimJob& j = jobs_[i];
  int64_t ran = now_ - j.last_start_s;
  j.executed_s += ran;
  j.attained_gpu_s += ran * j.gpus;
  int64_t done = static_cast<int64_t>(std::llround(static_cast<double>(now_ - j.segment_start_s) * j.rate));
  WorkAtFailure at = book_->CloseAttempt(i, std::max<int64_t>(0, j.remaining_s - done));
  LeaveGpus(j);
  FailureStats& stats = book_->stats();
  ++stats.job_failures;
  ++(cause.category == FailureCategory::kInfrastructure ? stats.infrastructure
     : cause.category == FailureCategory::kFramework    ? stats.framework
                                                         : stats.user_script);
  RecoveryDecision d = Decide(j, cause, at);
  if (d.drain_node) Drain(cause.node);
  else OperatorsMayDrain(cause.node);
  j.allocation = {};
  ++j.failures;
  ++j.generation;
  --running_;
  ++result_.events;
  Rerun(j, d, at, cause.category);
  policy_.OnEnd(j.index, *this);
  MarkDirty(j.vc);
  if (d.restart_from_checkpoint) Arrive(i);
}

// Restart from the checkpoint now, or the user resubmits from scratch later,
// or nobody runs the job again.
void Engine::Rerun(SimJob& j, const RecoveryDecision& d, const WorkAtFailure& at, FailureCategory category) {
  FailureStats& stats = book_->stats();
  const FailureParams& p = book_->params();
  const bool resubmits = !d.restart_from_checkpoint && book_->UserResubmits(j.index.value, j.failures, category);
  stats.lost_work_gpu_s += (at.done_s - (d.restart_from_checkpoint ? at.saved_s : 0)) * j.gpus;
  j.phase = JobPhase::kFuture;
  if (d.restart_from_checkpoint || resubmits) {
    j.remaining_s = book_->OpenAttempt(j.index.value, d.restart_from_checkpoint, at);
    ++(d.restart_from_checkpoint ? stats.restarts : stats.resubmissions);
    if (resubmits) heap_.push({now_ + p.resubmit_delay_s, kResubmission, j.index.value, j.generation});
    return;
  }
  ++stats.abandoned;
  j.abandoned = true;
  j.remaining_s = 0;
  j.finish_s = now_;
  j.phase = JobPhase::kDone;
  ++done_;
  if (done_ >= next_progress_) ReportProgress();
}

}  // namespace schedmate::engine_internal

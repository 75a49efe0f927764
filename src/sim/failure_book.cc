#include "sim/failure_book.h"

#include <algorithm>

#include "core/str_format.h"
#include "sim/recovery_hook.h"

namespace schedmate {

std::string SimNodeName(NodeIndex node) { return StrFormat("node-%04d", node.value); }

FailureBook::FailureBook(const FailureParams& params, const Trace& trace, int32_t nodes)
    : params_(params), nodes_(nodes), node_faults_(params, nodes) {
  std::vector<PlannedFailure> plan = PlanTraceFailures(trace, params);
  jobs_.resize(plan.size());
  for (size_t i = 0; i < plan.size(); ++i) {
    jobs_[i].planned = std::move(plan[i]);
    jobs_[i].trace_failure_due = jobs_[i].planned.fails;
    jobs_[i].goal_s = std::max<int64_t>(trace.jobs[i].duration_s, 0);
    jobs_[i].stream = params.seed ^ StableHash(trace.jobs[i].id) ^ 0x7e5ab317ull;
  }
}

WorkAtFailure FailureBook::CloseAttempt(int32_t job, int64_t remaining_s) {
  JobBook& b = jobs_[job];
  WorkAtFailure at;
  at.done_s = std::clamp(b.goal_s - remaining_s, b.floor_s, b.goal_s);
  const int64_t c = params_.checkpoint_interval_s;
  at.saved_s = c > 0 ? at.done_s / c * c : 0;
  b.trace_failure_due = false;
  return at;
}

bool FailureBook::UserResubmits(int32_t job, int32_t failures, FailureCategory category) const {
  Rng rng(jobs_[job].stream + static_cast<uint64_t>(failures));
  const double p = category == FailureCategory::kInfrastructure ? params_.resubmit_prob_infrastructure
                                                                 : params_.resubmit_prob_own_fault;
  return rng.Uniform() < p;
}

int64_t FailureBook::OpenAttempt(int32_t job, bool from_checkpoint, const WorkAtFailure& at) {
  JobBook& b = jobs_[job];
  b.goal_s = b.planned.full_work_s;
  b.floor_s = from_checkpoint ? at.saved_s : 0;
  if (!from_checkpoint || at.saved_s == 0) return b.goal_s - b.floor_s;
  return b.goal_s - b.floor_s + params_.restore_s;
}

uint32_t FailureBook::Break(int32_t node, const std::string& component) {
  nodes_[node].broken = true;
  nodes_[node].component = component;
  nodes_[node].failures_since_break = 0;
  return ++nodes_[node].breaks;
}

void FailureBook::MarkDrained(int32_t node, int64_t now_s) {
  ++stats_.drains;
  if (!nodes_[node].broken) ++stats_.healthy_drains;
  nodes_[node].drained_since_s = now_s;
}

void FailureBook::MarkReplaced(int32_t node, int64_t now_s, int32_t gpus_per_node) {
  NodeBook& n = nodes_[node];
  stats_.drained_gpu_s += static_cast<int64_t>(gpus_per_node) * (now_s - n.drained_since_s);
  ++stats_.replacements;
  n.broken = false;
  n.component.clear();
  n.drained_since_s = -1;
  n.failures_since_break = 0;
}

void FailureBook::CloseRun(int64_t now_s, int32_t gpus_per_node) {
  for (NodeBook& n : nodes_)
    if (n.drained_since_s >= 0) stats_.drained_gpu_s += static_cast<int64_t>(gpus_per_node) * (now_s - n.drained_since_s);
}

}  // namespace schedmate

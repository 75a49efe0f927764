#include "policies/common/ordered_queue_policy.h"

namespace schedmate {

void OrderedQueuePolicy::OnArrival(JobIndex job, const SimState& state) {
  const SimJob& j = state.Job(job);
  if (queues_.size() <= static_cast<size_t>(j.vc.value))
    queues_.resize(state.cluster().num_vcs());
  Key k = QueueKey(j, state);
  queues_[j.vc.value].emplace(k.first, k.second, job.value);
}

void OrderedQueuePolicy::OnEnd(JobIndex job, const SimState& state) {
  if (!estimator_) return;
  const SimJob& j = state.Job(job);
  estimator_->Observe(*j.spec, j.executed_s, j.finish_s);
}

Status OrderedQueuePolicy::Schedule(VcIndex vc, const SimState& state,
                                    SchedulingActions& actions) {
  if (queues_.size() <= static_cast<size_t>(vc.value)) return Status::Ok();
  auto& queue = queues_[vc.value];
  while (!queue.empty()) {
    JobIndex head(std::get<2>(*queue.begin()));
    auto alloc = placer_->Place(state.cluster(), vc, state.Job(head).gpus);
    if (!alloc) break;  // head-of-line blocking
    RETURN_IF_ERROR(actions.Start(head, *alloc));
    queue.erase(queue.begin());
  }
  return Status::Ok();
}

}  // namespace schedmate

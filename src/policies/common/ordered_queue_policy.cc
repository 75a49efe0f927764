#include "policies/common/ordered_queue_policy.h"

namespace schedmate {

void OrderedQueuePolicy::OnArrival(JobIndex job, const SimState& state) {
  const SimJob& j = state.Job(job);
  if (queues_.size() <= static_cast<size_t>(j.vc.value)) {
    queues_.resize(state.cluster().num_vcs());
    running_.resize(state.cluster().num_vcs());
  }
  Key k = QueueKey(j, state);
  queues_[j.vc.value].emplace(k.first, k.second, job.value);
  const bool wants_own = backfill_.mode != BackfillMode::kStrict && UsesPolicyEstimate(backfill_.estimate);
  if (!wants_own) {
    planning_.AtSubmit(j, std::numeric_limits<double>::quiet_NaN());
    return;
  }
  const double estimate = PolicyEstimate(j, state);
  planning_.AtSubmit(j, estimate, PolicySpread(j));
}

double OrderedQueuePolicy::PolicyEstimate(const SimJob& job, const SimState& state) {
  if (last_estimate_.first == job.index.value) return last_estimate_.second;
  return estimator_ ? Estimate(job, state) : std::numeric_limits<double>::quiet_NaN();
}

void OrderedQueuePolicy::OnEnd(JobIndex job, const SimState& state) {
  const SimJob& j = state.Job(job);
  running_[j.vc.value].erase(job.value);
  if (!estimator_) return;
  estimator_->Observe(*j.spec, j.executed_s, j.finish_s);
}

std::vector<GpuRelease> OrderedQueuePolicy::PlannedReleases(VcIndex vc, const SimState& state) const {
  std::vector<GpuRelease> out;
  if (backfill_.mode == BackfillMode::kStrict) return out;
  for (int32_t j : running_[vc.value]) {
    const SimJob& job = state.Job(JobIndex(j));
    out.push_back({PlannedEnd(job, backfill_, planning_.Of(job.index), state.Now()), job.gpus});
  }
  return out;
}

Status OrderedQueuePolicy::Schedule(VcIndex vc, const SimState& state,
                                    SchedulingActions& actions) {
  if (queues_.size() <= static_cast<size_t>(vc.value)) return Status::Ok();
  auto& queue = queues_[vc.value];
  BackfillPass pass(backfill_, state.Now(), state.cluster().VcFreeGpus(vc), PlannedReleases(vc, state));
  for (auto it = queue.begin(); it != queue.end() && !pass.Over();) {
    JobIndex j(std::get<2>(*it));
    const SimJob& job = state.Job(j);
    const int64_t run = PlannedRun(job, backfill_.estimate, planning_.Of(j));
    std::optional<Allocation> alloc =
        pass.MayStart(job.gpus, run) ? placer_->Place(state.cluster(), vc, job.gpus) : std::nullopt;
    if (!alloc) {
      pass.Waits(job.gpus, run);
      ++it;
      continue;
    }
    RETURN_IF_ERROR(actions.Start(j, *alloc));
    pass.Started(job.gpus, run);
    running_[vc.value].insert(j.value);
    it = queue.erase(it);
  }
  backfilled_ += pass.backfilled();
  return Status::Ok();
}

}  // namespace schedmate

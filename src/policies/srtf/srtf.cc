#include "policies/srtf/srtf.h"

#include <algorithm>
#include <tuple>

namespace schedmate {

SrtfPolicy::SrtfPolicy(std::unique_ptr<Placer> placer, std::unique_ptr<DurationEstimator> estimator,
                       RestartOverhead overhead)
    : placer_(std::move(placer)), estimator_(std::move(estimator)), overhead_(overhead) {}

SrtfPolicy::PerJob& SrtfPolicy::Of(JobIndex job) {
  if (jobs_.size() <= static_cast<size_t>(job.value))
    jobs_.resize(std::max<size_t>(job.value + 1, jobs_.size() * 2));
  return jobs_[job.value];
}

double SrtfPolicy::Remaining(const SimJob& job, int64_t now) const {
  // The artifact's `remain`: the duration, plus every restart overhead, less
  // each second run. With the oracle and no failures this is exactly the
  // engine's remaining work.
  const double estimate = static_cast<size_t>(job.index.value) < jobs_.size() ? jobs_[job.index.value].estimate : 0;
  return std::max(0.0, estimate + static_cast<double>(job.overhead_s - job.ExecutedSeconds(now)));
}

void SrtfPolicy::OnArrival(JobIndex job, const SimState& state) {
  const SimJob& j = state.Job(job);
  if (active_.empty()) active_.resize(state.cluster().num_vcs());
  PerJob& p = Of(job);
  // Asked once, at the first submit (a failed job's rerun keeps it).
  if (!p.estimated) {
    p.estimate = estimator_->Estimate(*j.spec, state.Now());
    p.estimated = true;
  }
  // Appended to the artifact's que_list.
  p.order = next_order_++;
  auto& a = active_[j.vc.value];
  p.position = static_cast<int32_t>(a.size());
  a.push_back(job.value);
}

void SrtfPolicy::OnEnd(JobIndex job, const SimState& state) {
  const SimJob& j = state.Job(job);
  auto& a = active_[j.vc.value];
  PerJob& p = Of(job);
  const int32_t last = a.back();
  a[p.position] = last;
  jobs_[last].position = p.position;
  a.pop_back();
  p.position = -1;
  estimator_->Observe(*j.spec, j.executed_s, j.finish_s);
}

Status SrtfPolicy::Schedule(VcIndex vc, const SimState& state, SchedulingActions& actions) {
  if (active_.empty()) return Status::Ok();
  const int64_t now = state.Now();
  // srtf.py step 3: (que_list + run_list) stably sorted by remain, i.e. by
  // (remaining, pending before running, list order).
  std::vector<std::tuple<double, int, int64_t, int32_t>> order;
  order.reserve(active_[vc.value].size());
  for (int32_t j : active_[vc.value]) {
    const SimJob& job = state.Job(JobIndex(j));
    order.emplace_back(Remaining(job, now), job.phase == JobPhase::kRunning ? 1 : 0, jobs_[j].order, j);
  }
  std::sort(order.begin(), order.end());
  // The artifact's quota is the VC's GPU count (drained nodes included).
  int64_t quota = state.cluster().VcTotalGpus(vc);
  std::vector<int32_t> to_start, to_preempt;
  for (const auto& [remaining, running, list_order, j] : order) {
    const SimJob& job = state.Job(JobIndex(j));
    if (job.gpus <= quota) {
      quota -= job.gpus;
      if (!running) to_start.push_back(j);
    } else if (running) {
      to_preempt.push_back(j);
    }
  }
  // Step 4: preempted jobs join the end of que_list, in sorted order.
  for (int32_t j : to_preempt) {
    RETURN_IF_ERROR(actions.Preempt(JobIndex(j), overhead_.For(state.Job(JobIndex(j)).gpus)));
    jobs_[j].order = next_order_++;
  }
  // Step 5: placed jobs join the end of run_list; a job the placer cannot
  // fit (consolidation) keeps its place in que_list.
  for (int32_t j : to_start) {
    auto alloc = placer_->Place(state.cluster(), vc, state.Job(JobIndex(j)).gpus);
    if (!alloc) continue;
    RETURN_IF_ERROR(actions.Start(JobIndex(j), *alloc));
    jobs_[j].order = next_order_++;
  }
  return Status::Ok();
}

}  // namespace schedmate

#include "policies/tiresias/tiresias.h"

#include <algorithm>
#include <tuple>

namespace schedmate {

Status TiresiasParams::Validate() const {
  for (size_t i = 0; i < thresholds_gpu_s.size(); ++i)
    if (thresholds_gpu_s[i] <= 0 ||
        (i > 0 && thresholds_gpu_s[i] <= thresholds_gpu_s[i - 1]))
      return InvalidArgument(
          "tiresias thresholds must be positive and ascending");
  if (thresholds_gpu_s.size() > 100)
    return InvalidArgument("tiresias: at most 100 thresholds");
  if (period_s < 0) return InvalidArgument("tiresias period must be >= 0");
  if (starvation_knob < 0) return InvalidArgument("starvation knob must be >= 0");
  return Status::Ok();
}

Result<TiresiasParams> TiresiasPreset(std::string_view name) {
  TiresiasParams p;
  p.preset = std::string(name);
  if (name == "tiresias-original") {
    p.thresholds_gpu_s = {3250, 7200};
    p.period_s = 0;
    p.placement = "count";
  } else if (name == "tiresias-lucid") {
    p.thresholds_gpu_s = {18000};
    p.period_s = 60;
    p.overhead.kind = RestartOverhead::Kind::kLucid;
  } else if (name == "tiresias-pollux") {
    p.thresholds_gpu_s = {57600};
    p.period_s = 60;
    p.overhead.kind = RestartOverhead::Kind::kLucid;
  } else {
    return NotFound("no Tiresias preset '" + std::string(name) +
                    "' (tiresias-original, tiresias-lucid, tiresias-pollux)");
  }
  return p;
}

TiresiasPolicy::TiresiasPolicy(TiresiasParams params,
                               std::unique_ptr<Placer> placer)
    : params_(std::move(params)),
      name_(params_.preset == "custom" ? "tiresias" : params_.preset),
      placer_(std::move(placer)) {}

int TiresiasPolicy::QueueOf(const SimJob& job, int64_t now) const {
  if (Promoted(job, now)) return 0;
  int64_t service = job.AttainedGpuSeconds(now);
  const auto& t = params_.thresholds_gpu_s;
  // Lucid: service > threshold goes to the lower queue.
  return static_cast<int>(std::lower_bound(t.begin(), t.end(), service) - t.begin());
}

bool TiresiasPolicy::Promoted(const SimJob& job, int64_t now) const {
  if (params_.starvation_knob <= 0 || job.phase != JobPhase::kPending ||
      job.executed_s == 0)
    return false;
  return static_cast<double>(now - job.pending_since_s) >=
         params_.starvation_knob * static_cast<double>(job.executed_s);
}

void TiresiasPolicy::OnArrival(JobIndex job, const SimState& state) {
  const SimJob& j = state.Job(job);
  if (active_.empty()) active_.resize(state.cluster().num_vcs());
  if (position_.size() <= static_cast<size_t>(job.value)) {
    size_t n = std::max<size_t>(job.value + 1, position_.size() * 2);
    position_.resize(n, -1);
    queue_entry_s_.resize(n, 0);
    queue_of_.resize(n, 0);
  }
  auto& a = active_[j.vc.value];
  position_[job.value] = static_cast<int32_t>(a.jobs.size());
  a.jobs.push_back(job.value);
  ++a.pending;
  queue_entry_s_[job.value] = state.Now();
  queue_of_[job.value] = 0;
}

void TiresiasPolicy::OnEnd(JobIndex job, const SimState& state) {
  auto& a = active_[state.Job(job).vc.value];
  int32_t pos = position_[job.value];
  int32_t last = a.jobs.back();
  a.jobs[pos] = last;
  position_[last] = pos;
  a.jobs.pop_back();
  position_[job.value] = -1;
}

Status TiresiasPolicy::Schedule(VcIndex vc, const SimState& state,
                                SchedulingActions& actions) {
  const int64_t now = state.Now();
  if (active_.empty()) return Status::Ok();
  auto& a = active_[vc.value];
  if (params_.period_s > 0 && now % params_.period_s != 0) return Status::Ok();
  // Order: (queue, submit or queue-entry time, trace order).
  std::vector<std::tuple<int, int64_t, int32_t>> order;
  order.reserve(a.jobs.size());
  for (int32_t j : a.jobs) {
    const SimJob& job = state.Job(JobIndex(j));
    int q = QueueOf(job, now);
    if (q != queue_of_[j]) {
      queue_of_[j] = static_cast<int8_t>(std::min(q, 127));
      queue_entry_s_[j] = now;
    }
    int64_t t = params_.order == TiresiasParams::Order::kSubmit
                    ? job.submit_s
                    : queue_entry_s_[j];
    order.emplace_back(q, t, j);
  }
  std::sort(order.begin(), order.end());
  int64_t quota = state.cluster().VcTotalGpus(vc);
  std::vector<int32_t> to_start, to_preempt;
  for (const auto& [q, t, j] : order) {
    const SimJob& job = state.Job(JobIndex(j));
    if (job.gpus <= quota) {
      quota -= job.gpus;
      if (job.phase == JobPhase::kPending) to_start.push_back(j);
    } else if (job.phase == JobPhase::kRunning) {
      to_preempt.push_back(j);
    }
  }
  for (int32_t j : to_preempt) {
    RETURN_IF_ERROR(actions.Preempt(JobIndex(j),
                                    params_.overhead.For(state.Job(JobIndex(j)).gpus)));
    ++a.pending;
  }
  for (int32_t j : to_start) {
    auto alloc = placer_->Place(state.cluster(), vc, state.Job(JobIndex(j)).gpus);
    if (!alloc) continue;  // fragmentation: stays pending, no blocking
    RETURN_IF_ERROR(actions.Start(JobIndex(j), *alloc));
    --a.pending;
  }
  return Status::Ok();
}

std::optional<int64_t> TiresiasPolicy::NextWakeup(VcIndex vc,
                                                  const SimState& state) const {
  if (active_.empty()) return std::nullopt;
  const auto& a = active_[vc.value];
  if (a.pending == 0) return std::nullopt;  // nothing waits: nothing changes
  const int64_t now = state.Now();
  if (params_.period_s > 0)
    return (now / params_.period_s + 1) * params_.period_s;
  // Event-driven: the next time a running job crosses into a lower queue,
  // or a pending job becomes due for promotion.
  std::optional<int64_t> next;
  auto consider = [&](int64_t t) {
    if (t > now && (!next || t < *next)) next = t;
  };
  const auto& th = params_.thresholds_gpu_s;
  for (int32_t j : a.jobs) {
    const SimJob& job = state.Job(JobIndex(j));
    if (job.phase == JobPhase::kRunning) {
      int64_t service = job.AttainedGpuSeconds(now);
      // The job sits in the queue of the first threshold >= service and
      // leaves it once service exceeds that threshold (see QueueOf).
      auto it = std::lower_bound(th.begin(), th.end(), service);
      if (it != th.end() && job.gpus > 0)
        consider(now + (*it - service) / job.gpus + 1);
    } else if (params_.starvation_knob > 0 && job.executed_s > 0) {
      consider(job.pending_since_s +
               static_cast<int64_t>(params_.starvation_knob * job.executed_s + 0.999999));
    }
  }
  return next;
}

}  // namespace schedmate

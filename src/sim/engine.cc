#include "sim/engine.h"

#include "sim/engine_internal.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace schedmate {
namespace engine_internal {

Status Engine::Admit() {
  jobs_.resize(trace_.jobs.size());
  for (size_t i = 0; i < trace_.jobs.size(); ++i) {
    const JobSpec& spec = trace_.jobs[i];
    SimJob& j = jobs_[i];
    j.spec = &spec;
    j.index = JobIndex(static_cast<int32_t>(i));
    j.gpus = spec.gpus;
    j.submit_s = spec.submit_s;
    j.remaining_s = spec.duration_s;
    if (i > 0 && spec.submit_s < trace_.jobs[i - 1].submit_s)
      return InvalidArgument("trace is not sorted by submit time at job '" +
                             spec.id + "'");
    if (spec.duration_s < 0)
      return InvalidArgument("job '" + spec.id +
                             "' has no duration (Sia/Pollux workloads): "
                             "apply a duration model first");
    auto vc = cluster_.FindVc(spec.vc);
    if (!vc) {
      if (options_.unknown_vc_is_error)
        return InvalidArgument("job '" + spec.id + "' names VC '" + spec.vc +
                               "', which the cluster does not have");
      j.reject_reason = "unknown VC '" + spec.vc + "'";
    } else if (spec.gpus < 1) {
      j.reject_reason = "requests no GPUs";
    } else if (spec.gpus > cluster_.VcTotalGpus(*vc)) {
      j.reject_reason = "needs " + std::to_string(spec.gpus) +
                        " GPUs; its VC has " +
                        std::to_string(cluster_.VcTotalGpus(*vc));
    }
    if (!j.reject_reason.empty()) {
      j.phase = JobPhase::kRejected;
      ++result_.rejected;
      continue;
    }
    j.vc = *vc;
    ++runnable_;
  }
  return Status::Ok();
}

void Engine::Sample(int64_t until) {
  const int64_t p = options_.sample_period_s;
  for (; p > 0 && next_sample_ < until; next_sample_ += p) {
    result_.series.push_back({next_sample_,
                              static_cast<int32_t>(cluster_.busy_gpus()),
                              running_, pending_, pending_gpus_});
  }
}

void Engine::MarkDirty(VcIndex vc) {
  if (!dirty_[vc.value]) {
    dirty_[vc.value] = 1;
    dirty_list_.push_back(vc.value);
  }
}

void Engine::Arrive(int32_t i) {
  SimJob& j = jobs_[i];
  j.phase = JobPhase::kPending;
  j.pending_since_s = now_;
  ++pending_;
  pending_gpus_ += j.gpus;
  ++result_.events;
  policy_.OnArrival(j.index, *this);
  MarkDirty(j.vc);
}

void Engine::Resegment(SimJob& j, double rate) {
  int64_t done = static_cast<int64_t>(std::llround(static_cast<double>(now_ - j.segment_start_s) * j.rate));
  j.remaining_s = std::max<int64_t>(0, j.remaining_s - done);
  j.segment_start_s = now_;
  j.rate = rate;
  ++j.generation;
  PushEnd(j);
}

void Engine::StopGuest(SimJob& j) {
  if (j.guest) j.guest_s += now_ - j.guest_since_s;
  j.guest = false;
}

void Engine::LeaveGpus(SimJob& j) {
  if (j.partner) {
    SimJob& p = jobs_[j.partner->value];
    p.partner.reset();
    StopGuest(p);  // a guest whose host leaves owns the GPUs from now on
    Resegment(p, 1.0);
    ++result_.events;
  } else {
    cluster_.Release(j.vc, j.allocation);
  }
  j.partner.reset();
  StopGuest(j);
  j.rate = 1.0;
}

void Engine::End(int32_t i) {
  SimJob& j = jobs_[i];
  LeaveGpus(j);
  int64_t ran = now_ - j.last_start_s;
  j.executed_s += ran;
  j.attained_gpu_s += ran * j.gpus;
  j.remaining_s = 0;
  j.finish_s = now_;
  j.phase = JobPhase::kDone;
  --running_;
  ++done_;
  ++result_.events;
  policy_.OnEnd(j.index, *this);
  MarkDirty(j.vc);
  if (done_ >= next_progress_) ReportProgress();
}

void Engine::ReportProgress() {
  next_progress_ = done_ + progress_step_;
  if (options_.on_progress)
    options_.on_progress({now_, done_, runnable_, result_.events});
}

Status Engine::Start(JobIndex job, const Allocation& allocation) {
  if (job.value < 0 || job.value >= static_cast<int32_t>(jobs_.size()))
    return Internal("Start: no job " + std::to_string(job.value));
  SimJob& j = jobs_[job.value];
  if (j.phase != JobPhase::kPending)
    return Internal(std::string(policy_.Name()) + " started job '" +
                    j.spec->id + "', which is not pending");
  if (allocation.Total() != j.gpus)
    return Internal(std::string(policy_.Name()) + " gave job '" + j.spec->id +
                    "' " + std::to_string(allocation.Total()) +
                    " GPUs; it needs " + std::to_string(j.gpus));
  RETURN_IF_ERROR(cluster_.Allocate(j.vc, allocation));
  j.allocation = allocation;
  j.queued_s += now_ - j.pending_since_s;
  if (j.first_start_s < 0) j.first_start_s = now_;
  j.last_start_s = j.segment_start_s = now_;
  j.rate = 1.0;
  j.phase = JobPhase::kRunning;
  ++j.generation;
  --pending_;
  pending_gpus_ -= j.gpus;
  ++running_;
  ++decisions_;
  ++result_.events;
  PushEnd(j);
  FailIfOnBrokenNode(j);
  return Status::Ok();
}

Status Engine::Pack(JobIndex guest, JobIndex host, double guest_rate, double host_rate) {
  const int32_t n = static_cast<int32_t>(jobs_.size());
  if (guest.value < 0 || guest.value >= n || host.value < 0 || host.value >= n)
    return Internal("Pack: no such job");
  SimJob& g = jobs_[guest.value];
  SimJob& h = jobs_[host.value];
  const std::string who = std::string(policy_.Name());
  if (g.phase != JobPhase::kPending) return Internal(who + " packed job '" + g.spec->id + "', which is not pending");
  if (h.phase != JobPhase::kRunning || h.partner)
    return Internal(who + " packed onto job '" + h.spec->id + "', which is not running alone");
  if (g.gpus != h.gpus || g.vc != h.vc)
    return Internal(who + " packed '" + g.spec->id + "' onto '" + h.spec->id + "' with another GPU count or VC");
  if (!(guest_rate > 0 && guest_rate <= 1 && host_rate > 0 && host_rate <= 1))
    return Internal(who + " packed with a rate outside (0, 1]");
  for (const auto& [node, count] : h.allocation.parts)  // a drained node receives no job, packed ones included
    if (cluster_.drained(node))
      return Internal(who + " packed '" + g.spec->id + "' onto '" + h.spec->id + "', which runs on a drained node");
  g.allocation = h.allocation;
  g.queued_s += now_ - g.pending_since_s;
  if (g.first_start_s < 0) g.first_start_s = now_;
  g.last_start_s = g.segment_start_s = now_;
  g.rate = guest_rate;
  g.phase = JobPhase::kRunning;
  g.partner = host;
  g.guest = true;
  g.guest_since_s = now_;
  ++g.packs;
  ++g.generation;
  h.partner = guest;
  Resegment(h, host_rate);
  PushEnd(g);
  --pending_;
  pending_gpus_ -= g.gpus;
  ++running_;
  ++decisions_;
  ++result_.events;
  ++result_.packs;
  FailIfOnBrokenNode(g);
  return Status::Ok();
}

Status Engine::MoveToVc(JobIndex job, VcIndex vc) {
  if (job.value < 0 || job.value >= static_cast<int32_t>(jobs_.size()) || vc.value < 0 ||
      vc.value >= cluster_.num_vcs())
    return Internal("MoveToVc: no such job or VC");
  SimJob& j = jobs_[job.value];
  if (j.phase != JobPhase::kPending)
    return Internal(std::string(policy_.Name()) + " moved job '" + j.spec->id + "', which is not pending");
  if (j.gpus > cluster_.VcTotalGpus(vc))
    return Internal(std::string(policy_.Name()) + " moved job '" + j.spec->id + "' to a VC too small for it");
  j.vc = vc;
  MarkDirty(vc);
  return Status::Ok();
}

Status Engine::Preempt(JobIndex job, int64_t restart_overhead_s) {
  if (job.value < 0 || job.value >= static_cast<int32_t>(jobs_.size()))
    return Internal("Preempt: no job " + std::to_string(job.value));
  SimJob& j = jobs_[job.value];
  if (j.phase != JobPhase::kRunning)
    return Internal(std::string(policy_.Name()) + " preempted job '" +
                    j.spec->id + "', which is not running");
  if (restart_overhead_s < 0) return Internal("negative restart overhead");
  int64_t ran = now_ - j.last_start_s;
  j.executed_s += ran;
  j.attained_gpu_s += ran * j.gpus;
  int64_t done = static_cast<int64_t>(std::llround(static_cast<double>(now_ - j.segment_start_s) * j.rate));
  j.remaining_s = std::max<int64_t>(0, j.remaining_s - done) + restart_overhead_s;
  j.overhead_s += restart_overhead_s;
  ++j.preemptions;
  LeaveGpus(j);
  j.allocation = {};
  j.phase = JobPhase::kPending;
  j.pending_since_s = now_;
  ++j.generation;
  --running_;
  ++pending_;
  pending_gpus_ += j.gpus;
  ++decisions_;
  ++result_.events;
  MarkDirty(j.vc);
  return Status::Ok();
}

std::string Engine::PendingSample() const {
  std::string out;
  int shown = 0;
  for (const SimJob& j : jobs_) {
    if (j.phase != JobPhase::kPending || shown == 5) continue;
    out += (shown++ ? ", '" : " (e.g. '") + j.spec->id + "' in VC '" + cluster_.VcName(j.vc) + "' needing " +
           std::to_string(j.gpus) + " GPUs";
  }
  return shown ? out + ")" : out;
}

Status Engine::ScheduleDirty() {
  for (size_t k = 0; k < dirty_list_.size(); ++k) {
    VcIndex vc(dirty_list_[k]);
    // Still marked while it runs, so its own preemptions do not re-queue it.
    RETURN_IF_ERROR(policy_.Schedule(vc, *this, *this));
    dirty_[vc.value] = 0;
    auto w = policy_.NextWakeup(vc, *this);
    if (w && *w > now_ && *w != wakeup_time_[vc.value]) {
      wakeup_time_[vc.value] = *w;
      heap_.push({*w, 1, vc.value, ++wakeup_token_[vc.value]});
    }
  }
  dirty_list_.clear();
  return Status::Ok();
}

Result<SimResult> Engine::Run() {
  RETURN_IF_ERROR(Admit());
  result_.policy = std::string(policy_.Name());
  result_.total_gpus = cluster_.total_gpus();
  for (int32_t v = 0; v < cluster_.num_vcs(); ++v)
    result_.vc_names.push_back(cluster_.VcName(VcIndex(v)));
  dirty_.assign(cluster_.num_vcs(), 0);
  wakeup_token_.assign(cluster_.num_vcs(), 0);
  wakeup_time_.assign(cluster_.num_vcs(), -1);
  if (options_.failures) {
    book_.emplace(*options_.failures, trace_, cluster_.num_nodes());
    PushNextNodeFault();
  }
  progress_step_ = std::max<int64_t>(1, runnable_ / 200);
  next_progress_ = progress_step_;
  size_t next_arrival = 0;
  auto skip_rejected = [&] {
    while (next_arrival < jobs_.size() &&
           jobs_[next_arrival].phase == JobPhase::kRejected)
      ++next_arrival;
  };
  skip_rejected();
  if (next_arrival < jobs_.size()) {
    now_ = jobs_[next_arrival].submit_s;
    const int64_t p = options_.sample_period_s;
    next_sample_ = p > 0 ? (now_ >= 0 ? (now_ + p - 1) / p * p : now_ / p * p) : 0;
  }
  int64_t idle_instants = 0;
  while (done_ < runnable_) {
    int64_t t = INT64_MAX;
    if (next_arrival < jobs_.size()) t = jobs_[next_arrival].submit_s;
    if (!heap_.empty()) t = std::min(t, heap_.top().time);
    if (t == INT64_MAX)
      return Internal(std::string(policy_.Name()) + " stalled: " +
                      std::to_string(pending_) +
                      " jobs pending and nothing left to happen" + PendingSample());
    Sample(t);
    now_ = t;
    int64_t decisions_before = decisions_;
    while (!heap_.empty() && heap_.top().time == t && heap_.top().kind == kEnd) {
      Event e = heap_.top();
      heap_.pop();
      if (jobs_[e.target].generation != e.token || jobs_[e.target].phase != JobPhase::kRunning) continue;
      if (book_ && book_->TraceFailureDue(e.target)) FailAsTraceSays(e.target);
      else End(e.target);
    }
    while (next_arrival < jobs_.size() && jobs_[next_arrival].submit_s == t) {
      Arrive(static_cast<int32_t>(next_arrival++));
      skip_rejected();
    }
    while (!heap_.empty() && heap_.top().time == t && heap_.top().kind == kWakeup) {
      Event e = heap_.top();
      heap_.pop();
      if (wakeup_token_[e.target] != e.token) continue;
      wakeup_time_[e.target] = -1;
      ++result_.events;
      MarkDirty(VcIndex(e.target));
    }
    while (!heap_.empty() && heap_.top().time == t && heap_.top().kind > kWakeup) {
      Event e = heap_.top();
      heap_.pop();
      HandleFailureEvent(e);
    }
    RETURN_IF_ERROR(ScheduleDirty());
    // A policy that only ever wakes up without acting, with nothing running
    // and nothing left to arrive, would loop forever.
    bool idle = decisions_ == decisions_before && running_ == 0 &&
                next_arrival >= jobs_.size();
    idle_instants = idle ? idle_instants + 1 : 0;
    if (idle_instants > 10000)
      return Internal(std::string(policy_.Name()) + " stalled: " +
                      std::to_string(pending_) +
                      " jobs pending, none running, no decision in 10000 "
                      "wakeups");
  }
  Sample(now_ + 1);
  ReportProgress();
  if (book_) {
    book_->CloseRun(now_, cluster_.gpus_per_node());
    result_.failures = book_->stats();
  }
  result_.jobs = std::move(jobs_);
  return std::move(result_);
}

}  // namespace engine_internal

Result<SimResult> Simulate(const Trace& trace, const ClusterSpec& spec,
                           Policy& policy, const SimOptions& options) {
  RETURN_IF_ERROR(spec.Validate());
  if (options.failures) RETURN_IF_ERROR(options.failures->Validate());
  engine_internal::Engine engine(trace, spec, policy, options);
  return engine.Run();
}

}  // namespace schedmate

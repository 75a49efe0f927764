#include "policies/lucid/lucid.h"

#include <algorithm>
#include <cmath>

namespace schedmate {

LucidPolicy::LucidPolicy(LucidOptions options, const LucidWorkloadModel* model, LucidSemanticHooks* hooks)
    : o_(std::move(options)), model_(model), hooks_(hooks), estimator_(o_.estimator), planning_(o_.backfill) {
  next_retrain_ = o_.retrain_period_s;
}

int LucidPolicy::Sharescore(double avg_pair_speed) const {
  return avg_pair_speed < o_.heavy_below ? 2 : avg_pair_speed < o_.medium_below ? 1 : 0;
}

bool LucidPolicy::PackingOn(int64_t now) const {
  if (!o_.indolent_packing) return true;
  const int64_t t = now / o_.packing_period_s * o_.packing_period_s;
  const int64_t from = t - o_.forecast_window_s * o_.forecast_windows;
  auto lo = std::lower_bound(arrivals_.begin(), arrivals_.end(), from);
  auto hi = std::lower_bound(arrivals_.begin(), arrivals_.end(), t);
  double per_window = static_cast<double>(hi - lo) / o_.forecast_windows;
  return per_window > o_.packing_min_jobs;
}

bool LucidPolicy::IsProfiler(VcIndex vc, const SimState& s) const {
  return !o_.profiler_vc.empty() && s.cluster().VcName(vc) == o_.profiler_vc;
}

LucidFeatures LucidPolicy::Features(const SimJob& j) const {
  const JobState& st = jobs_[static_cast<size_t>(j.index.value)];
  return {j.spec->user, j.spec->vc, j.gpus, j.submit_s, st.profile.sm_util, st.profile.gmem_mib};
}

void LucidPolicy::OnArrival(JobIndex job, const SimState& s) {
  if (static_cast<size_t>(job.value) >= jobs_.size()) jobs_.resize(static_cast<size_t>(job.value) + 1);
  JobState& st = S(job);
  // A failed job rerun (SimOptions::failures) arrives again: its home stays
  // the main VC it was submitted to, wherever it failed.
  if (st.stage == Stage::kNew) st.home = s.Job(job).vc;
  arrivals_.push_back(s.Now());
  if (hooks_) {
    int64_t latency = 0;
    std::optional<HistoryFacts> facts = hooks_->AtSubmit(s.Job(job), s.Now(), &latency);
    if (facts) {
      st.from_history = true;
      st.profile = facts->profile;
      st.estimate_s = facts->duration_s;
      st.spread = facts->spread;
      ++stats_.history_hits;
    }
    if (latency > 0) {
      st.stage = Stage::kAdvice;
      stats_.advice_wait_s += latency;
      advice_.emplace_back(s.Now() + latency, job.value);
      return;
    }
  }
  new_jobs_.push_back(job.value);
}

void LucidPolicy::EnterMainQueue(JobIndex j, const SimState& s) {
  JobState& st = S(j);
  const SimJob& job = s.Job(j);
  if (!st.from_history) {
    if (st.profile_start < 0) st.profile = model_->Profile(job);  // not profiled: the model's static view
    double est = estimator_.Estimate(Features(job));
    if (st.profile_start >= 0) est = std::max(est, static_cast<double>(o_.profile_time_limit_s + 1));
    st.estimate_s = est;
  }
  // A priority must be a number: a NaN key would corrupt the ordered queue.
  if (!std::isfinite(st.estimate_s) || st.estimate_s < 0) st.estimate_s = o_.estimator.cold_start_s;
  st.sharescore = Sharescore(st.profile.avg_pair_speed);
  st.priority = st.estimate_s * job.gpus;
  st.stage = Stage::kMainQueue;
  Enqueue(j, s);
  planning_.AtSubmit(job, st.estimate_s, st.from_history ? st.spread : 0.0);
}

void LucidPolicy::Enqueue(JobIndex j, const SimState& s) {
  const JobState& st = S(j);
  main_queue_[st.home.value].Insert({st.priority, j.value, s.Job(j).gpus, st.sharescore, st.profile.gmem_mib});
}

// A new (or advised) job goes to the profiler or straight to the main queue.
void LucidPolicy::Route(JobIndex j, const SimState& s, SchedulingActions& a, Status* status) {
  JobState& st = S(j);
  std::optional<VcIndex> prof;
  if (!o_.profiler_vc.empty())
    for (int32_t v = 0; v < s.cluster().num_vcs(); ++v)
      if (IsProfiler(VcIndex(v), s)) prof = VcIndex(v);
  const SimJob& job = s.Job(j);
  if (st.from_history || !prof || job.gpus > o_.profile_gpu_limit || job.gpus > s.cluster().VcTotalGpus(*prof)) {
    if (st.from_history && prof) ++stats_.skipped_profiler;
    EnterMainQueue(j, s);
    return;
  }
  if (Status m = a.MoveToVc(j, *prof); !m.ok()) {
    *status = m;
    return;
  }
  st.stage = Stage::kProfileQueue;
  profile_queue_.insert({job.gpus, j.value});
}

Status LucidPolicy::ScheduleProfiler(VcIndex vc, const SimState& s, SchedulingActions& a) {
  const int64_t now = s.Now();
  // A job that failed while profiling is rerun here; its home VC routes it
  // again (MoveToVc schedules that VC this instant).
  for (int32_t j : new_jobs_)
    if (s.Job(JobIndex(j)).vc == vc && S(JobIndex(j)).home != vc) RETURN_IF_ERROR(a.MoveToVc(JobIndex(j), S(JobIndex(j)).home));
  while (!profiling_.empty() && profiling_.begin()->first <= now) {
    JobIndex j(profiling_.begin()->second);
    profiling_.erase(profiling_.begin());
    if (s.Job(j).phase != JobPhase::kRunning) continue;  // it finished inside the profiler
    int64_t ran = now - s.Job(j).last_start_s;
    stats_.profiler_gpu_s += ran * s.Job(j).gpus;
    RETURN_IF_ERROR(a.Preempt(j, o_.credit_profiled_progress ? 0 : ran));
    S(j).profile = model_->Profile(s.Job(j));
    RETURN_IF_ERROR(a.MoveToVc(j, S(j).home));
    EnterMainQueue(j, s);
  }
  // Least-GPU-first, head-of-line blocking.
  const size_t slots = o_.profile_whole_node ? static_cast<size_t>(s.cluster().NumNodes(vc)) : SIZE_MAX;
  while (!profile_queue_.empty() && profiling_.size() < slots) {
    JobIndex j(profile_queue_.begin()->second);
    auto alloc = placer_.Place(s.cluster(), vc, s.Job(j).gpus);
    if (!alloc) break;
    RETURN_IF_ERROR(a.Start(j, *alloc));
    profile_queue_.erase(profile_queue_.begin());
    S(j).stage = Stage::kProfiling;
    S(j).profile_start = now;
    ++stats_.profiled;
    profiling_.insert({now + o_.profile_time_limit_s, j.value});
  }
  return Status::Ok();
}

void LucidPolicy::MarkAlone(JobIndex j, const SimState& s) {
  const JobState& st = S(j);
  if (st.no_pack || st.start_seq < 0 || s.Job(j).phase != JobPhase::kRunning) return;
  alone_[{st.home.value, s.Job(j).gpus}].insert({st.start_seq, j.value});
}

void LucidPolicy::MarkBusy(JobIndex j, const SimState& s) {
  const JobState& st = S(j);
  auto it = alone_.find({st.home.value, s.Job(j).gpus});
  if (it != alone_.end()) it->second.erase({st.start_seq, j.value});
}

bool LucidPolicy::OnDrainedNode(const SimJob& j, const SimState& s) const {
  for (const auto& [node, count] : j.allocation.parts)
    if (s.cluster().drained(node)) return true;
  return false;
}

std::optional<JobIndex> LucidPolicy::PickHost(JobIndex guest, VcIndex vc, const SimState& s) {
  const JobState& g = S(guest);
  const SimJob& gj = s.Job(guest);
  if (g.no_pack || gj.gpus > o_.max_pack_gpus) return std::nullopt;
  auto it = alone_.find({vc.value, gj.gpus});
  if (it == alone_.end()) return std::nullopt;
  for (const auto& [seq, h] : it->second) {
    const JobState& hs = jobs_[static_cast<size_t>(h)];
    if (g.profile.gmem_mib + hs.profile.gmem_mib >= o_.gpu_memory_mib) continue;
    if (OnDrainedNode(s.Job(JobIndex(h)), s)) continue;  // a drained node receives no job (failures)
    if (g.sharescore + hs.sharescore > 2) continue;
    if (g.priority > o_.priority_factor * hs.priority) continue;
    return JobIndex(h);
  }
  return std::nullopt;
}

Status LucidPolicy::RunPackChecks(const SimState& s, SchedulingActions& a) {
  const int64_t now = s.Now();
  for (auto it = checks_.begin(); it != checks_.end();) {
    if (it->at > now) {
      ++it;
      continue;
    }
    PackCheck c = *it;
    it = checks_.erase(it);
    const SimJob& guest = s.Job(JobIndex(c.guest));
    if (guest.phase != JobPhase::kRunning || !guest.partner || guest.partner->value != c.host) continue;
    ++stats_.pack_checks;
    std::optional<double> ratio = hooks_->PackSlowdown(s.Job(JobIndex(c.host)), guest, c.packed_at, now);
    if (!ratio) {
      ++stats_.checks_skipped;
      continue;
    }
    if (*ratio >= o_.undo_threshold) continue;
    RETURN_IF_ERROR(a.Preempt(JobIndex(c.guest), o_.evict_overhead_s));
    on_main_[S(JobIndex(c.guest)).home.value].erase(c.guest);
    ++stats_.evictions;
    JobState& g = S(JobIndex(c.guest));
    g.no_pack = true;
    g.stage = Stage::kMainQueue;
    g.partner = -1;
    S(JobIndex(c.host)).partner = -1;
    MarkAlone(JobIndex(c.host), s);
    Enqueue(JobIndex(c.guest), s);
    it = checks_.begin();  // the list changed under us
  }
  return Status::Ok();
}

Status LucidPolicy::ScheduleMain(VcIndex vc, const SimState& s, SchedulingActions& a) {
  const int64_t now = s.Now();
  Status status;
  for (auto it = advice_.begin(); it != advice_.end();) {
    if (it->first <= now) {
      new_jobs_.push_back(it->second);
      it = advice_.erase(it);
    } else {
      ++it;
    }
  }
  std::vector<int32_t> routed;
  std::swap(routed, new_jobs_);
  for (int32_t j : routed) {
    if (s.Job(JobIndex(j)).vc != vc) {  // another main VC's job: leave it for that VC
      new_jobs_.push_back(j);
      continue;
    }
    Route(JobIndex(j), s, a, &status);
    RETURN_IF_ERROR(status);
  }
  if (now >= next_retrain_) {
    estimator_.Retrain();
    ++stats_.retrains;
    next_retrain_ = (now / o_.retrain_period_s + 1) * o_.retrain_period_s;
  }
  if (hooks_) RETURN_IF_ERROR(RunPackChecks(s, a));
  auto& queue = main_queue_[vc.value];
  const bool packing = PackingOn(now);
  // The smallest single-node request that did not fit in this pass: larger
  // ones cannot fit either (the placer fills one node for <= G GPUs).
  int32_t no_fit_from = INT32_MAX;
  const int32_t per_node = s.cluster().gpus_per_node();
  // (GPUs, sharescore) → the least memory of a job that found no host in
  // this pass. Jobs come in rising priority, so one of the same GPUs and
  // sharescore with at least that memory finds none either — until a new
  // job starts and becomes a candidate host.
  std::map<std::pair<int32_t, int>, double> no_host;
  // Without packing the queue is walked under the backfill discipline.
  std::optional<BackfillPass> pass;
  if (!packing) pass.emplace(o_.backfill, now, s.cluster().VcFreeGpus(vc), PlannedReleases(vc, s));
  for (auto it = queue.begin(); it != queue.end() && !(pass && pass->Over());) {
    JobIndex j(it->job);
    const int32_t gpus = it->gpus;
    const std::pair<int32_t, int> key{gpus, it->sharescore};
    auto memo = no_host.find(key);
    bool hopeless = memo != no_host.end() && it->gmem_mib >= memo->second;
    std::optional<JobIndex> host = packing && !hopeless ? PickHost(j, vc, s) : std::nullopt;
    if (packing && !hopeless && !host)
      no_host[key] = memo == no_host.end() ? it->gmem_mib : std::min(memo->second, it->gmem_mib);
    const int64_t run = pass ? PlannedRun(s.Job(j), o_.backfill.estimate, planning_.Of(j)) : 0;
    const bool may_start = !pass || pass->MayStart(gpus, run);
    if (host) {
      auto [guest_rate, host_rate] = model_->CoRunRates(s.Job(j), s.Job(*host));
      RETURN_IF_ERROR(a.Pack(j, *host, guest_rate, host_rate));
      ++stats_.packs;
      MarkBusy(*host, s);
      S(j).partner = host->value;
      S(*host).partner = j.value;
      if (hooks_)
        if (auto after = hooks_->PackCheckAfter(s.Job(*host), s.Job(j)))
          checks_.push_back({now + std::max<int64_t>(*after, 1), host->value, j.value, now});
    } else if (std::optional<Allocation> alloc = !may_start || (gpus <= per_node && gpus >= no_fit_from)
                                                     ? std::nullopt
                                                     : placer_.Place(s.cluster(), vc, gpus)) {
      RETURN_IF_ERROR(a.Start(j, *alloc));
      if (pass) pass->Started(gpus, run);
      S(j).start_seq = next_seq_++;
      MarkAlone(j, s);
      no_host.clear();
    } else {
      if (may_start && gpus <= per_node) no_fit_from = std::min(no_fit_from, gpus);
      if (pass) pass->Waits(gpus, run);  // strict: head-of-line blocking
      ++it;
      continue;
    }
    on_main_[vc.value].insert(j.value);
    S(j).stage = Stage::kRunning;
    if (S(j).start_seq < 0) S(j).start_seq = next_seq_++;
    it = queue.erase(it);
  }
  if (pass) stats_.backfilled += pass->backfilled();
  return Status::Ok();
}

// A guest rides on its host's GPUs: they return when both have left.
std::vector<GpuRelease> LucidPolicy::PlannedReleases(VcIndex vc, const SimState& s) const {
  std::vector<GpuRelease> out;
  if (o_.backfill.mode == BackfillMode::kStrict) return out;
  auto running = on_main_.find(vc.value);
  if (running == on_main_.end()) return out;
  for (int32_t j : running->second) {
    const SimJob& job = s.Job(JobIndex(j));
    if (job.phase != JobPhase::kRunning || job.guest) continue;
    int64_t end = PlannedEnd(job, o_.backfill, planning_.Of(job.index), s.Now());
    if (job.partner) {
      const SimJob& guest = s.Job(*job.partner);
      end = std::max(end, PlannedEnd(guest, o_.backfill, planning_.Of(guest.index), s.Now()));
    }
    out.push_back({end, job.gpus});
  }
  return out;
}

Status LucidPolicy::Schedule(VcIndex vc, const SimState& s, SchedulingActions& a) {
  return IsProfiler(vc, s) ? ScheduleProfiler(vc, s, a) : ScheduleMain(vc, s, a);
}

void LucidPolicy::OnEnd(JobIndex job, const SimState& s) {
  JobState& st = S(job);
  const SimJob& j = s.Job(job);
  if (st.stage == Stage::kProfiling) {
    if (j.phase == JobPhase::kDone && !j.abandoned) ++stats_.finished_in_profiler;  // not a failed attempt
    profiling_.erase({st.profile_start + o_.profile_time_limit_s, job.value});
  }
  if (st.profile_start >= 0 && st.stage == Stage::kProfiling)
    stats_.profiler_gpu_s += (s.Now() - j.last_start_s) * j.gpus;
  MarkBusy(job, s);
  if (auto running = on_main_.find(st.home.value); running != on_main_.end()) running->second.erase(job.value);
  if (st.partner >= 0) {  // the partner runs alone from now on
    S(JobIndex(st.partner)).partner = -1;
    MarkAlone(JobIndex(st.partner), s);
    st.partner = -1;
  }
  st.stage = Stage::kDone;
  estimator_.Observe(Features(j), static_cast<double>(std::max<int64_t>(j.spec->duration_s, 1)));
  if (hooks_) hooks_->AtEnd(j, s.Now());
}

std::optional<int64_t> LucidPolicy::NextWakeup(VcIndex vc, const SimState& s) const {
  std::optional<int64_t> next;
  auto take = [&](int64_t t) {
    if (t > s.Now() && (!next || t < *next)) next = t;
  };
  if (IsProfiler(vc, s)) {
    if (!profiling_.empty()) take(profiling_.begin()->first);
    return next;
  }
  for (const auto& [t, j] : advice_)
    if (jobs_[static_cast<size_t>(j)].home == vc) take(t);
  for (const auto& c : checks_)
    if (jobs_[static_cast<size_t>(c.guest)].home == vc) take(c.at);
  // The packing switch flips only at period starts; a waiting queue needs a look then.
  auto q = main_queue_.find(vc.value);
  if (q != main_queue_.end() && !q->second.empty() && o_.indolent_packing)
    take((s.Now() / o_.packing_period_s + 1) * o_.packing_period_s);
  return next;
}

}  // namespace schedmate

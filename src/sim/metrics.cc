#include "sim/metrics.h"

#include <algorithm>
#include <cmath>

namespace schedmate {

SimSummary Summarize(const SimResult& r) {
  SimSummary s;
  s.policy = r.policy;
  s.rejected = r.rejected;
  s.events = r.events;
  s.total_gpus = r.total_gpus;
  std::vector<double> jct;
  double queue_sum = 0, busy_gpu_s = 0;
  int64_t first_submit = INT64_MAX, last_finish = INT64_MIN;
  for (const SimJob& j : r.jobs) {
    if (j.phase != JobPhase::kDone) continue;
    double t = static_cast<double>(j.finish_s - j.submit_s);
    jct.push_back(t);
    queue_sum += static_cast<double>(j.queued_s);
    busy_gpu_s += static_cast<double>(j.executed_s - j.guest_s) * j.gpus;
    s.preemptions += j.preemptions;
    s.packs += j.packs;
    first_submit = std::min(first_submit, j.submit_s);
    last_finish = std::max(last_finish, j.finish_s);
    auto& vc = s.per_vc[r.vc_names[j.vc.value]];
    ++vc.jobs;
    vc.avg_jct_s += t;
    vc.avg_queue_s += static_cast<double>(j.queued_s);
  }
  s.jobs = static_cast<int64_t>(jct.size());
  if (s.jobs == 0) return s;
  for (auto& [name, vc] : s.per_vc) {
    vc.avg_jct_s /= static_cast<double>(vc.jobs);
    vc.avg_queue_s /= static_cast<double>(vc.jobs);
  }
  double n = static_cast<double>(s.jobs);
  double sum = 0;
  for (double x : jct) sum += x;
  s.avg_jct_s = sum / n;
  s.avg_queue_s = queue_sum / n;
  s.median_jct_s = Percentile(jct, 50);
  s.p99_jct_s = Percentile(std::move(jct), 99);
  s.makespan_s = static_cast<double>(last_finish - first_submit);
  if (s.makespan_s > 0 && r.total_gpus > 0)
    s.gpu_utilization = busy_gpu_s / (static_cast<double>(r.total_gpus) * s.makespan_s);
  return s;
}

}  // namespace schedmate

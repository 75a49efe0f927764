#include "traces/trace_stats.h"

#include "core/stats.h"

#include <algorithm>

namespace schedmate {


TraceStats ComputeTraceStats(const Trace& trace) {
  TraceStats s;
  s.jobs = static_cast<int64_t>(trace.jobs.size());
  if (trace.jobs.empty()) return s;
  std::vector<double> durations, gpus;
  int64_t complete = 0, failed = 0, cancelled = 0, unknown = 0;
  double dur_sum = 0, gpu_sum = 0;
  for (const auto& j : trace.jobs) {
    gpus.push_back(j.gpus);
    gpu_sum += j.gpus;
    s.max_gpus = std::max(s.max_gpus, j.gpus);
    if (j.duration_s >= 0) {
      durations.push_back(static_cast<double>(j.duration_s));
      dur_sum += static_cast<double>(j.duration_s);
      s.max_duration_s = std::max<double>(s.max_duration_s, j.duration_s);
      s.gpu_hours += static_cast<double>(j.duration_s) * j.gpus / 3600.0;
    }
    if (j.state == EndState::kCompleted) ++complete;
    else if (j.state == EndState::kCancelled) ++cancelled;
    else if (IsFailure(j.state)) ++failed;
    else ++unknown;
    ++s.jobs_per_vc[j.vc];
  }
  double n = static_cast<double>(s.jobs);
  s.jobs_with_duration = static_cast<int64_t>(durations.size());
  if (!durations.empty()) {
    s.mean_duration_s = dur_sum / static_cast<double>(durations.size());
    s.median_duration_s = Median(std::move(durations));
  }
  s.mean_gpus = gpu_sum / n;
  s.median_gpus = Median(std::move(gpus));
  s.span_s = static_cast<double>(trace.jobs.back().submit_s -
                                 trace.jobs.front().submit_s);
  s.jobs_per_hour = s.span_s > 0 ? n / (s.span_s / 3600.0) : 0;
  s.complete_rate = complete / n;
  s.fail_rate = failed / n;
  s.cancel_rate = cancelled / n;
  s.unknown_rate = unknown / n;
  return s;
}

}  // namespace schedmate

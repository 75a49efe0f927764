// Summary statistics of a trace, in the terms published summaries use
// (Acme cluster_summary.csv, Helios helios_cluster_summary.csv).
#ifndef SCHEDMATE_TRACES_TRACE_STATS_H_
#define SCHEDMATE_TRACES_TRACE_STATS_H_

#include <cstdint>
#include <map>
#include <string>

#include "core/job_spec.h"

namespace schedmate {

struct TraceStats {
  int64_t jobs = 0;
  int64_t jobs_with_duration = 0;
  double mean_duration_s = 0, median_duration_s = 0, max_duration_s = 0;
  double mean_gpus = 0, median_gpus = 0;
  int32_t max_gpus = 0;
  double gpu_hours = 0;
  double span_s = 0;          // last submit - first submit
  double jobs_per_hour = 0;   // jobs / span
  // Fractions of jobs by end state (TIMEOUT and NODE_FAIL count as failed).
  double complete_rate = 0, fail_rate = 0, cancel_rate = 0, unknown_rate = 0;
  std::map<std::string, int64_t> jobs_per_vc;
};

TraceStats ComputeTraceStats(const Trace& trace);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACES_TRACE_STATS_H_

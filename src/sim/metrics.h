// Summary metrics of a simulation, named as scripts expect them
// (`schedmate simulate --json`).
#ifndef SCHEDMATE_SIM_METRICS_H_
#define SCHEDMATE_SIM_METRICS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/stats.h"  // Percentile
#include "sim/engine.h"

namespace schedmate {

struct SimSummary {
  std::string policy;
  int64_t jobs = 0;       // jobs that ran (rejected ones excluded)
  int64_t rejected = 0;
  double avg_jct_s = 0, median_jct_s = 0, p99_jct_s = 0;
  double avg_queue_s = 0;
  double makespan_s = 0;        // last finish - first submit
  double gpu_utilization = 0;   // busy GPU-seconds / (GPUs * makespan)
  int64_t preemptions = 0;
  int64_t packs = 0;            // jobs packed onto another job's GPUs
  int64_t events = 0;
  double wall_s = 0;            // filled in by the caller who timed the run
  double events_per_s = 0;
  int64_t total_gpus = 0;
  // The same JCT/queue averages per VC.
  struct VcSummary {
    int64_t jobs = 0;
    double avg_jct_s = 0, avg_queue_s = 0;
  };
  std::map<std::string, VcSummary> per_vc;
};

SimSummary Summarize(const SimResult& result);

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_METRICS_H_

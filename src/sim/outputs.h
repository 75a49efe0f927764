// Files a simulation writes: the per-job CSV (Batsim-style columns people
// already analyse), the summary JSON, and the cluster time series.
#ifndef SCHEDMATE_SIM_OUTPUTS_H_
#define SCHEDMATE_SIM_OUTPUTS_H_

#include <ostream>
#include <string>

#include "core/json.h"
#include "core/status.h"
#include "sim/engine.h"
#include "sim/metrics.h"

namespace schedmate {

// job_id,submission_time,starting_time,finish_time,waiting_time,
// turnaround_time,stretch,gpus,vc,state,duration,preemptions,user,name
// (times in seconds of the trace clock; rejected jobs are listed with empty
// times and state REJECTED).
Status WriteJobsCsv(const SimResult& result, std::ostream& out);
Status WriteJobsCsvFile(const SimResult& result, const std::string& path);

// time,busy_gpus,total_gpus,gpu_utilization,running_jobs,pending_jobs,pending_gpus
Status WriteTimeSeriesCsvFile(const SimResult& result, const std::string& path);

// Fields: policy, jobs, rejected, avg_jct_s, median_jct_s, p99_jct_s,
// avg_queue_s, makespan_s, gpu_utilization, preemptions, events,
// events_per_s, wall_s, total_gpus, per_vc.
Json SummaryToJson(const SimSummary& s);

}  // namespace schedmate

#endif  // SCHEDMATE_SIM_OUTPUTS_H_

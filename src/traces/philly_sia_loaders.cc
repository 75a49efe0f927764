// Loaders for Philly's philly.csv (Pollux/Sia artifact) and the Sia/Pollux
// workload CSVs. Column mappings are in docs/trace-formats.md.
#include <algorithm>
#include <cmath>
#include <string>

#include "traces/trace_loader.h"

namespace schedmate::loaders {

// philly.csv: timestamp,duration,num_gpus,gpu_time,cluster — unsorted, no
// status, no user. Ids are "philly-<row>" (1-based data row).
Status Philly(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o) {
  ASSIGN_OR_RETURN(int c_time, t.Require("timestamp"));
  ASSIGN_OR_RETURN(int c_dur, t.Require("duration"));
  ASSIGN_OR_RETURN(int c_gpus, t.Require("num_gpus"));
  ASSIGN_OR_RETURN(int c_vc, t.Require("cluster"));
  while (true) {
    ASSIGN_OR_RETURN(bool more, t.Next());
    if (!more) break;
    ++r.rows;
    JobSpec j;
    j.id = "philly-" + std::to_string(r.rows);
    ASSIGN_OR_RETURN(j.submit_s, t.DateTime(c_time));
    ASSIGN_OR_RETURN(j.duration_s, t.NonNegativeInt(c_dur));
    ASSIGN_OR_RETURN(int64_t gpus, t.NonNegativeInt(c_gpus));
    if (gpus > 1'000'000) return t.ColumnError(c_gpus, "implausibly large");
    j.gpus = static_cast<int32_t>(gpus);
    j.vc = std::string(t.Field(c_vc));
    if (j.vc.empty()) return t.ColumnError(c_vc, "empty VC");
    j.state = EndState::kUnknown;
    if (o.gpu_jobs_only && j.gpus == 0) {
      ++r.skipped_cpu_jobs;
      continue;
    }
    out.jobs.push_back(std::move(j));
  }
  NormalizeTrace(out, /*absolute=*/true);
  return Status::Ok();
}

// Sia/Pollux workloads: name,time,application,num_replicas,batch_size.
// These jobs run "until convergence": the file has no duration, so
// duration_s is -1 (unknown) and the simulator asks for a duration model.
Status Sia(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o) {
  ASSIGN_OR_RETURN(int c_name, t.Require("name"));
  ASSIGN_OR_RETURN(int c_time, t.Require("time"));
  ASSIGN_OR_RETURN(int c_app, t.Require("application"));
  ASSIGN_OR_RETURN(int c_gpus, t.Require("num_replicas"));
  int c_bs = t.Find("batch_size");
  while (true) {
    ASSIGN_OR_RETURN(bool more, t.Next());
    if (!more) break;
    ++r.rows;
    JobSpec j;
    j.id = std::string(t.Field(c_name));
    if (j.id.empty()) return t.ColumnError(c_name, "empty job name");
    j.name = j.id;
    j.type = std::string(t.Field(c_app));
    // Sia's newer workloads give fractional seconds: rounded to the nearest second.
    ASSIGN_OR_RETURN(double submit, t.Number(c_time));
    if (submit < 0 || submit > 1e12) return t.ColumnError(c_time, "must be 0 to 1e12 seconds");
    j.submit_s = static_cast<int64_t>(std::llround(submit));
    ASSIGN_OR_RETURN(int64_t gpus, t.NonNegativeInt(c_gpus));
    if (gpus > 1'000'000) return t.ColumnError(c_gpus, "implausibly large");
    j.gpus = static_cast<int32_t>(gpus);
    if (c_bs >= 0) {
      ASSIGN_OR_RETURN(auto bs, t.OptNonNegativeInt(c_bs));
      j.batch_size = static_cast<int32_t>(std::min<int64_t>(bs.value_or(0), 1 << 30));
    }
    j.duration_s = -1;
    if (o.gpu_jobs_only && j.gpus == 0) {
      ++r.skipped_cpu_jobs;
      continue;
    }
    out.jobs.push_back(std::move(j));
  }
  NormalizeTrace(out, /*absolute=*/false);
  return Status::Ok();
}

}  // namespace schedmate::loaders

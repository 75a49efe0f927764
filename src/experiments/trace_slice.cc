#include "experiments/trace_slice.h"

#include <algorithm>
#include <climits>
#include <vector>

#include "core/time_format.h"
#include "experiments/world_setup.h"

namespace schedmate {
namespace {

// A calendar bound as epoch seconds.
Result<int64_t> Day(const std::string& d, const char* field) {
  auto v = ParseDateTime(d.size() == 10 ? d + " 00:00:00" : d);
  if (!v) return InvalidArgument(std::string("trace.") + field + ": '" + d + "' is not YYYY-MM-DD");
  return *v;
}

Status KeepWindow(const TraceSlice& s, Trace& t) {
  if (s.from.empty() && s.to.empty()) return Status::Ok();
  if (t.epoch_s == 0) return InvalidArgument("trace.from/to: the trace has no calendar times");
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if (!s.from.empty()) {
    ASSIGN_OR_RETURN(lo, Day(s.from, "from"));
  }
  if (!s.to.empty()) {
    ASSIGN_OR_RETURN(hi, Day(s.to, "to"));
  }
  std::erase_if(t.jobs, [&](const JobSpec& j) { return t.epoch_s + j.submit_s < lo || t.epoch_s + j.submit_s >= hi; });
  return Status::Ok();
}

}  // namespace

Status KeepSlice(const TraceSlice& s, Trace& t) {
  RETURN_IF_ERROR(KeepWindow(s, t));
  std::erase_if(t.jobs, [](const JobSpec& j) { return j.duration_s < 0 || j.gpus < 1; });
  if (s.max_jobs > 0) {  // exactly max_jobs, seeded, in submit order
    std::vector<JobSpec> kept;
    for (size_t i : SampleJobs(t.jobs.size(), s.max_jobs, s.seed)) kept.push_back(std::move(t.jobs[i]));
    t.jobs = std::move(kept);
  }
  if (t.jobs.empty()) return InvalidArgument("trace: no jobs left after the window and filters");
  return Status::Ok();
}

void RebaseOnOneVc(Trace& t, int32_t max_gpus) {
  if (t.jobs.empty()) return;
  const int64_t first = t.jobs.front().submit_s;
  t.epoch_s += first;
  for (JobSpec& j : t.jobs) {
    j.submit_s -= first;
    j.vc = "main";
    if (max_gpus > 0) j.gpus = std::min(j.gpus, max_gpus);
  }
}

}  // namespace schedmate

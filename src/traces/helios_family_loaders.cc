// Loaders for the Helios family of schemas: Helios cluster_log.csv, Lucid's
// simulator CSV, and Acme's trace_seren.csv / trace_kalos.csv. Column
// mappings are in docs/trace-formats.md.
#include <algorithm>
#include <optional>

#include "traces/trace_loader.h"

namespace schedmate::loaders {
namespace {

// Parses the `state` column. nullopt = an unfinished job to skip
// (RUNNING/SUSPENDED/PENDING) when options allow it.
Result<std::optional<EndState>> ReadState(const CsvTable& t, int col,
                                          const LoadOptions& o) {
  std::string_view v = t.Field(col);
  if (auto s = ParseEndState(v); s && *s != EndState::kUnknown) return s;
  if (o.skip_unfinished &&
      (v == "RUNNING" || v == "SUSPENDED" || v == "PENDING"))
    return std::optional<EndState>();
  return t.ColumnError(col, "unknown state '" + std::string(v.substr(0, 40)) +
                                "' (expected COMPLETED, CANCELLED, FAILED, "
                                "TIMEOUT or NODE_FAIL)");
}

struct Columns {
  int id = -1, user = -1, vc = -1, name = -1, gpus = -1, cpus = -1;
  int state = -1, submit = -1, start = -1, end = -1, duration = -1, type = -1;
};

// Run time from `duration`, else end - start. A job cancelled before it
// started may leave these empty: it ran 0 s.
Result<int64_t> ReadDuration(const CsvTable& t, const Columns& c,
                             EndState state) {
  bool empty_duration = c.duration < 0 || t.Field(c.duration).empty();
  if (!empty_duration) return t.NonNegativeInt(c.duration);
  if (c.start >= 0 && c.end >= 0 && !t.Field(c.start).empty() &&
      !t.Field(c.end).empty()) {
    ASSIGN_OR_RETURN(int64_t s, t.SecondsOrDateTime(c.start));
    ASSIGN_OR_RETURN(int64_t e, t.SecondsOrDateTime(c.end));
    if (e < s) return t.ColumnError(c.end, "end_time is before start_time");
    return e - s;
  }
  if (state == EndState::kCancelled) return 0;
  int col = c.duration >= 0 ? c.duration : c.end;
  return t.ColumnError(col >= 0 ? col : c.state,
                       "no run time: duration (or start_time and end_time) "
                       "is empty");
}

// Reads all rows with the given column mapping. Unmapped columns are kept
// in JobSpec::extra when `keep_extra`.
Status ReadRows(CsvTable& t, const Columns& c, bool keep_extra, Trace& out,
                LoadReport& r, const LoadOptions& o) {
  std::vector<int> extra_cols;
  if (keep_extra) {
    const int mapped[] = {c.id,    c.user,  c.vc,  c.name,     c.gpus, c.cpus,
                          c.state, c.submit, c.duration, c.type};
    for (int i = 0; i < static_cast<int>(t.header().size()); ++i)
      if (std::find(std::begin(mapped), std::end(mapped), i) ==
              std::end(mapped) &&
          !t.header()[i].empty())
        extra_cols.push_back(i);
  }
  bool absolute = false;
  while (true) {
    ASSIGN_OR_RETURN(bool more, t.Next());
    if (!more) break;
    ++r.rows;
    ASSIGN_OR_RETURN(auto state, ReadState(t, c.state, o));
    if (!state) {
      ++r.skipped_unfinished;
      continue;
    }
    JobSpec j;
    j.state = *state;
    j.id = std::string(t.Field(c.id));
    if (j.id.empty()) return t.ColumnError(c.id, "empty job id");
    ASSIGN_OR_RETURN(int64_t gpus, t.NonNegativeInt(c.gpus));
    if (gpus > 1'000'000) return t.ColumnError(c.gpus, "implausibly large");
    j.gpus = static_cast<int32_t>(gpus);
    if (o.gpu_jobs_only && j.gpus == 0) {
      ++r.skipped_cpu_jobs;
      continue;
    }
    if (c.cpus >= 0) {
      ASSIGN_OR_RETURN(auto cpus, t.OptNonNegativeInt(c.cpus));
      j.cpus = static_cast<int32_t>(std::min<int64_t>(cpus.value_or(0), 1 << 30));
    }
    if (c.user >= 0) j.user = std::string(t.Field(c.user));
    if (c.vc >= 0) j.vc = std::string(t.Field(c.vc));
    if (c.name >= 0) j.name = std::string(t.Field(c.name));
    if (c.type >= 0) j.type = std::string(t.Field(c.type));
    std::string_view submit = t.Field(c.submit);
    absolute = absolute || (submit.size() >= 10 && submit[4] == '-');
    ASSIGN_OR_RETURN(j.submit_s, t.SecondsOrDateTime(c.submit));
    ASSIGN_OR_RETURN(j.duration_s, ReadDuration(t, c, j.state));
    for (int col : extra_cols)
      j.extra.emplace_back(t.header()[col], std::string(t.Field(col)));
    out.jobs.push_back(std::move(j));
  }
  NormalizeTrace(out, absolute);
  return Status::Ok();
}

}  // namespace

// Helios cluster_log.csv:
// job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,
// end_time,duration,queue
Status Helios(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o) {
  Columns c;
  ASSIGN_OR_RETURN(c.id, t.Require("job_id"));
  ASSIGN_OR_RETURN(c.vc, t.Require("vc"));
  ASSIGN_OR_RETURN(c.gpus, t.Require("gpu_num"));
  ASSIGN_OR_RETURN(c.state, t.Require("state"));
  ASSIGN_OR_RETURN(c.submit, t.Require("submit_time"));
  c.user = t.Find("user");
  c.cpus = t.Find("cpu_num");
  c.start = t.Find("start_time");
  c.end = t.Find("end_time");
  c.duration = t.Find("duration");
  if (c.duration < 0 && (c.start < 0 || c.end < 0))
    RETURN_IF_ERROR(t.Require("duration").status());
  return ReadRows(t, c, /*keep_extra=*/false, out, r, o);
}

// Lucid/Helios simulator CSV:
// job_id,user,vc,jobname,gpu_num,cpu_num,state,submit_time,duration,+extra
Status Lucid(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o) {
  Columns c;
  ASSIGN_OR_RETURN(c.id, t.Require("job_id"));
  ASSIGN_OR_RETURN(c.name, t.Require("jobname"));
  ASSIGN_OR_RETURN(c.gpus, t.Require("gpu_num"));
  ASSIGN_OR_RETURN(c.state, t.Require("state"));
  ASSIGN_OR_RETURN(c.submit, t.Require("submit_time"));
  ASSIGN_OR_RETURN(c.duration, t.Require("duration"));
  c.user = t.Find("user");
  c.vc = t.Find("vc");
  c.cpus = t.Find("cpu_num");
  return ReadRows(t, c, /*keep_extra=*/true, out, r, o);
}

// Acme trace_seren.csv / trace_kalos.csv:
// job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,
// end_time,duration,queue,gpu_time[,mem_per_pod_GB,shared_mem_per_pod,
// fail_time,stop_time]. No VC column: the whole cluster is one pool.
Status Acme(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o) {
  Columns c;
  ASSIGN_OR_RETURN(c.id, t.Require("job_id"));
  ASSIGN_OR_RETURN(c.gpus, t.Require("gpu_num"));
  ASSIGN_OR_RETURN(c.type, t.Require("type"));
  ASSIGN_OR_RETURN(c.state, t.Require("state"));
  ASSIGN_OR_RETURN(c.submit, t.Require("submit_time"));
  c.user = t.Find("user");
  c.cpus = t.Find("cpu_num");
  c.start = t.Find("start_time");
  c.end = t.Find("end_time");
  c.duration = t.Find("duration");
  if (c.duration < 0 && (c.start < 0 || c.end < 0))
    RETURN_IF_ERROR(t.Require("duration").status());
  // Kalos' extra columns are kept; the derived ones are not.
  Status s = ReadRows(t, c, /*keep_extra=*/true, out, r, o);
  for (auto& j : out.jobs)
    std::erase_if(j.extra, [](const auto& kv) {
      return kv.first == "node_num" || kv.first == "start_time" ||
             kv.first == "end_time" || kv.first == "queue" ||
             kv.first == "gpu_time";
    });
  return s;
}

}  // namespace schedmate::loaders

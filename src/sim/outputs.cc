#include "sim/outputs.h"

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/csv_quote.h"

namespace schedmate {

Status WriteJobsCsv(const SimResult& r, std::ostream& out) {
  out << "job_id,submission_time,starting_time,finish_time,waiting_time,"
         "turnaround_time,stretch,gpus,vc,state,duration,preemptions,user,"
         "name\n";
  char buf[64];
  for (const SimJob& j : r.jobs) {
    const JobSpec& s = *j.spec;
    out << CsvQuote(s.id) << ',' << j.submit_s << ',';
    if (j.phase == JobPhase::kDone) {
      int64_t jct = j.finish_s - j.submit_s;
      double stretch = s.duration_s > 0
                           ? static_cast<double>(jct) / s.duration_s
                           : 1.0;
      std::snprintf(buf, sizeof(buf), "%.4f", stretch);
      out << j.first_start_s << ',' << j.finish_s << ',' << j.queued_s << ','
          << jct << ',' << buf << ',';
    } else {
      out << ",,,,,";
    }
    out << j.gpus << ','
        << CsvQuote(j.vc.valid() ? r.vc_names[j.vc.value] : s.vc) << ','
        << (j.phase == JobPhase::kRejected ? "REJECTED"
                                           : std::string(EndStateName(s.state)))
        << ',' << s.duration_s << ',' << j.preemptions << ',' << CsvQuote(s.user)
        << ',' << CsvQuote(s.name) << '\n';
  }
  if (!out) return Unavailable("write failed");
  return Status::Ok();
}

Status WriteJobsCsvFile(const SimResult& r, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return NotFound(path + ": cannot create");
  return WriteJobsCsv(r, out).WithContext(path);
}

Status WriteTimeSeriesCsvFile(const SimResult& r, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return NotFound(path + ": cannot create");
  out << "time,busy_gpus,total_gpus,gpu_utilization,running_jobs,"
         "pending_jobs,pending_gpus\n";
  char buf[64];
  for (const auto& s : r.series) {
    std::snprintf(buf, sizeof(buf), "%.4f",
                  r.total_gpus ? static_cast<double>(s.busy_gpus) / r.total_gpus : 0.0);
    out << s.t << ',' << s.busy_gpus << ',' << r.total_gpus << ',' << buf << ','
        << s.running_jobs << ',' << s.pending_jobs << ',' << s.pending_gpus
        << '\n';
  }
  if (!out) return Unavailable(path + ": write failed");
  return Status::Ok();
}

Json SummaryToJson(const SimSummary& s) {
  Json per_vc = Json::object();
  for (const auto& [name, vc] : s.per_vc)
    per_vc[name] = {{"jobs", vc.jobs},
                    {"avg_jct_s", vc.avg_jct_s},
                    {"avg_queue_s", vc.avg_queue_s}};
  return {{"policy", s.policy},
          {"jobs", s.jobs},
          {"rejected", s.rejected},
          {"avg_jct_s", s.avg_jct_s},
          {"median_jct_s", s.median_jct_s},
          {"p99_jct_s", s.p99_jct_s},
          {"avg_queue_s", s.avg_queue_s},
          {"makespan_s", s.makespan_s},
          {"gpu_utilization", s.gpu_utilization},
          {"preemptions", s.preemptions},
          {"events", s.events},
          {"events_per_s", s.events_per_s},
          {"wall_s", s.wall_s},
          {"total_gpus", s.total_gpus},
          {"per_vc", per_vc}};
}

}  // namespace schedmate

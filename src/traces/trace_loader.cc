#include "traces/trace_loader.h"

#include <algorithm>
#include <fstream>

namespace schedmate {
namespace {

bool HasAll(const std::vector<std::string>& h,
            std::initializer_list<std::string_view> names) {
  for (auto n : names)
    if (std::find(h.begin(), h.end(), n) == h.end()) return false;
  return true;
}

}  // namespace

std::string_view TraceFormatName(TraceFormat f) {
  switch (f) {
    case TraceFormat::kAuto: return "auto";
    case TraceFormat::kPhilly: return "philly";
    case TraceFormat::kHelios: return "helios";
    case TraceFormat::kAcme: return "acme";
    case TraceFormat::kSia: return "sia";
    case TraceFormat::kLucid: return "lucid";
    case TraceFormat::kNative: return "native";
  }
  return "auto";
}

Result<TraceFormat> ParseTraceFormat(std::string_view name) {
  for (auto f : {TraceFormat::kAuto, TraceFormat::kPhilly, TraceFormat::kHelios,
                 TraceFormat::kAcme, TraceFormat::kSia, TraceFormat::kLucid,
                 TraceFormat::kNative})
    if (TraceFormatName(f) == name) return f;
  if (name == "pollux") return TraceFormat::kSia;
  return InvalidArgument("unknown trace format '" + std::string(name) +
                         "' (auto, philly, helios, acme, sia, pollux, lucid, "
                         "native)");
}

TraceFormat DetectTraceFormat(const std::vector<std::string>& h,
                              const std::vector<std::string>& comments) {
  for (const auto& c : comments)
    if (c.rfind("# schedmate trace", 0) == 0) return TraceFormat::kNative;
  if (HasAll(h, {"timestamp", "duration", "num_gpus", "cluster"}))
    return TraceFormat::kPhilly;
  if (HasAll(h, {"name", "time", "application", "num_replicas"}))
    return TraceFormat::kSia;
  if (HasAll(h, {"job_id", "gpu_num", "type", "state", "submit_time"}))
    return TraceFormat::kAcme;
  if (HasAll(h, {"job_id", "jobname", "gpu_num", "state", "submit_time",
                 "duration"}))
    return TraceFormat::kLucid;
  if (HasAll(h, {"job_id", "vc", "gpu_num", "state", "submit_time"}))
    return TraceFormat::kHelios;
  return TraceFormat::kAuto;
}

void NormalizeTrace(Trace& trace, bool absolute) {
  auto& jobs = trace.jobs;
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const JobSpec& a, const JobSpec& b) {
                     return a.submit_s < b.submit_s;
                   });
  if (jobs.empty()) return;
  int64_t first = jobs.front().submit_s;
  if (absolute) trace.epoch_s += first;
  for (auto& j : jobs) j.submit_s -= first;
}

Result<Trace> LoadTrace(std::istream& in, std::string source,
                        TraceFormat format, const LoadOptions& options,
                        LoadReport* report) {
  CsvOptions csv;
  csv.comment_prefix = '#';
  ASSIGN_OR_RETURN(CsvTable table, CsvTable::Open(in, source, csv));
  if (format == TraceFormat::kAuto) {
    format = DetectTraceFormat(table.header(), table.comments());
    if (format == TraceFormat::kAuto)
      return InvalidArgument(source +
                             ":1: cannot tell the trace format from the "
                             "header; pass --format (philly, helios, acme, "
                             "sia, lucid, native)");
  }
  Trace trace;
  trace.source = source;
  trace.format = std::string(TraceFormatName(format));
  LoadReport local;
  LoadReport& r = report ? *report : local;
  Status s;
  switch (format) {
    case TraceFormat::kPhilly: s = loaders::Philly(table, trace, r, options); break;
    case TraceFormat::kHelios: s = loaders::Helios(table, trace, r, options); break;
    case TraceFormat::kLucid: s = loaders::Lucid(table, trace, r, options); break;
    case TraceFormat::kAcme: s = loaders::Acme(table, trace, r, options); break;
    case TraceFormat::kSia: s = loaders::Sia(table, trace, r, options); break;
    case TraceFormat::kNative: s = loaders::Native(table, trace, r, options); break;
    case TraceFormat::kAuto: return Internal("unreachable");
  }
  RETURN_IF_ERROR(s);
  return trace;
}

Result<Trace> LoadTraceFile(const std::string& path, TraceFormat format,
                            const LoadOptions& options, LoadReport* report) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound(path + ": cannot open trace file");
  return LoadTrace(in, path, format, options, report);
}

}  // namespace schedmate

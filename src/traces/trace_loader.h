// Loading cluster job traces. Each format's column mapping is documented in
// docs/trace-formats.md and beside its loader. All loaders:
//  - return jobs sorted by submit time (stable: ties keep file order),
//    with submit_s relative to the first job and Trace::epoch_s the calendar
//    time of that first job when the format has calendar times;
//  - fail with "file:line: column 'x': ..." on a bad row (missing field,
//    negative duration, unparsable time, unknown state, wrong field count).
#ifndef SCHEDMATE_TRACES_TRACE_LOADER_H_
#define SCHEDMATE_TRACES_TRACE_LOADER_H_

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "core/job_spec.h"
#include "core/status.h"
#include "traces/csv_table.h"

namespace schedmate {

enum class TraceFormat { kAuto, kPhilly, kHelios, kAcme, kSia, kLucid, kNative };

std::string_view TraceFormatName(TraceFormat f);
Result<TraceFormat> ParseTraceFormat(std::string_view name);
// Guesses the format from a header row; kAuto when nothing fits.
TraceFormat DetectTraceFormat(const std::vector<std::string>& header,
                              const std::vector<std::string>& comments);

struct LoadOptions {
  bool gpu_jobs_only = true;    // Drop CPU-only jobs (gpus == 0), as Helios does.
  bool skip_unfinished = true;  // Drop RUNNING/SUSPENDED/PENDING rows.
};

// What a load did besides returning jobs.
struct LoadReport {
  int64_t rows = 0;
  int64_t skipped_cpu_jobs = 0;
  int64_t skipped_unfinished = 0;
};

Result<Trace> LoadTrace(std::istream& in, std::string source,
                        TraceFormat format, const LoadOptions& options = {},
                        LoadReport* report = nullptr);
Result<Trace> LoadTraceFile(const std::string& path, TraceFormat format,
                            const LoadOptions& options = {},
                            LoadReport* report = nullptr);

// Per-format loaders over an opened table (used by LoadTrace).
namespace loaders {
Status Philly(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o);
Status Helios(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o);
Status Lucid(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o);
Status Acme(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o);
Status Sia(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o);
Status Native(CsvTable& t, Trace& out, LoadReport& r, const LoadOptions& o);
}  // namespace loaders

// Sorts by submit time (stable) and rebases submit times to the first job.
// `absolute` says submit_s holds calendar seconds (then epoch_s is set).
void NormalizeTrace(Trace& trace, bool absolute);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACES_TRACE_LOADER_H_

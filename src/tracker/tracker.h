// The Metric Tracker's entry points (DESIGN §1.2): the progress of a log
// file read from its end, and the slowdown check used after packing.
#ifndef SCHEDMATE_TRACKER_TRACKER_H_
#define SCHEDMATE_TRACKER_TRACKER_H_

#include <optional>
#include <string>
#include <vector>

#include "core/facts.h"
#include "core/status.h"
#include "tracker/llm_progress.h"
#include "tracker/progress_scan.h"
#include "tracker/reverse_line_reader.h"

namespace schedmate {

struct TrackOptions {
  ProgressScanOptions scan;
  ReverseLineReader::Options reader;
  // Turn the byte offsets of the lines used into 0-based line numbers
  // (counts the newlines before them: reads the file's head once).
  bool number_lines = true;
  BackendChoice backend;  // embedded by default
};

struct TrackResult {
  ProgressReport report;  // lines_used: line numbers, or byte offsets
  ProgressScanStats stats;
  int64_t file_bytes = 0, bytes_read = 0;
  bool lines_are_offsets = false;
};

// Scans `path` backwards from its end until N samples are found.
Result<TrackResult> TrackFile(const std::string& path, const TrackOptions& options = {});

// TP_after / TP_before of one job around a moment (e.g. a partner was
// packed onto its GPUs at line `split`). Throughput is the printed one when
// both sides print it in the same unit, else 1 / step time. Unknown (with
// the reason) when either side has fewer than `min_samples` training lines.
struct SlowdownResult {
  std::optional<double> ratio;
  std::string basis;   // "throughput tokens/s", "steps/s (1 / step time)" or the reason for unknown
  std::optional<double> before, after;  // in the basis's unit
};
SlowdownResult SlowdownCheck(const std::vector<std::string>& lines, size_t split,
                             int min_samples = 3, ProgressScanOptions options = {});

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_TRACKER_H_

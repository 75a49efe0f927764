#include "tracker/tracker.h"

#include <algorithm>
#include <map>

#include "tracker/line_cleaner.h"

namespace schedmate {
namespace {

// A file whose newest lines are more than a quarter binary (LooksLikeText)
// is a checkpoint, an executable or random bytes, not a log: it prints no
// one's progress. A log with a NUL-padded tail (a crashed node) or a stray
// binary line stays a log; a file of fewer lines is left to the line filter.
class BinaryFileCheck {
 public:
  static constexpr int64_t kLines = 64;
  // Raw lines newest first; true once the newest kLines non-empty ones are in
  // and too many of them are binary.
  bool Add(std::string_view raw) {
    if (raw.empty() || Settled()) return false;
    binary_ += !LooksLikeText(raw);
    return ++lines_ == kLines && binary_ * 4 > kLines;
  }
  bool Settled() const { return lines_ >= kLines; }

 private:
  int64_t lines_ = 0, binary_ = 0;
};

ProgressReport BinaryFileReport() {
  ProgressReport r;
  r.confidence = 0.9;
  return r;
}

}  // namespace

Result<TrackResult> TrackFile(const std::string& path, const TrackOptions& options) {
  ASSIGN_OR_RETURN(ReverseLineReader reader, ReverseLineReader::Open(path, options.reader));
  ProgressScan scan(options.scan);
  BinaryFileCheck binary_check;
  bool binary = false, scanning = true;
  std::string raw;
  int64_t offset = 0;
  // The binary check sees its kLines even when the scan has enough before.
  while (scanning || !binary_check.Settled()) {
    ASSIGN_OR_RETURN(bool more, reader.Next(&raw, &offset));
    if (!more) break;
    if ((binary = binary_check.Add(raw))) break;
    // The index of a line is its byte offset until numbering below.
    if (scanning) scanning = scan.Add(CleanLogLine(raw), offset);
  }
  TrackResult out;
  out.report = binary ? BinaryFileReport() : ChooseProgress(scan, options.backend);
  out.stats = scan.stats();
  out.file_bytes = reader.file_size();
  out.bytes_read = reader.bytes_read();
  std::vector<int64_t>& used = out.report.lines_used;
  if (!options.number_lines || used.empty()) {
    out.lines_are_offsets = !used.empty();
    return out;
  }
  std::sort(used.begin(), used.end());
  // One pass over the head: newline count before each used offset.
  int64_t counted_to = 0, count = 0;
  for (int64_t& o : used) {
    ASSIGN_OR_RETURN(int64_t n, CountNewlines(path, counted_to, o));
    count += n;
    counted_to = o;
    o = count;
  }
  return out;
}

SlowdownResult SlowdownCheck(const std::vector<std::string>& lines, size_t split, int min_samples,
                             ProgressScanOptions options) {
  SlowdownResult r;
  split = std::min(split, lines.size());
  std::vector<std::string> before(lines.begin(), lines.begin() + static_cast<long>(split));
  std::vector<std::string> after(lines.begin() + static_cast<long>(split), lines.end());
  options.samples = std::max(options.samples, min_samples);
  ProgressScanStats sb, sa;
  ProgressReport b = ScanProgress(before, options, &sb);
  ProgressReport a = ScanProgress(after, options, &sa);
  if (sb.training_lines < min_samples || sa.training_lines < min_samples) {
    r.basis = "unknown: fewer than " + std::to_string(min_samples) +
              " training progress lines on one side";
    return r;
  }
  if (b.steady_throughput && a.steady_throughput && b.throughput_unit == a.throughput_unit &&
      *b.steady_throughput > 0) {
    r.before = b.steady_throughput;
    r.after = a.steady_throughput;
    r.ratio = *a.steady_throughput / *b.steady_throughput;
    r.basis = "throughput " + b.throughput_unit.value_or("");
    return r;
  }
  if (b.steady_step_time_s && a.steady_step_time_s && *a.steady_step_time_s > 0) {
    r.before = 1.0 / *b.steady_step_time_s;
    r.after = 1.0 / *a.steady_step_time_s;
    r.ratio = *b.steady_step_time_s / *a.steady_step_time_s;
    r.basis = "steps/s (1 / step time)";
    return r;
  }
  r.basis = "unknown: the log prints neither a throughput nor a step time on both sides";
  return r;
}

}  // namespace schedmate

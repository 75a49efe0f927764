// Stage 2 on arbitrary bytes: the line grammar, the glued-record splitter and
// the whole scan over the input's lines (newest first), with stage 1 on.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tracker/evaluation.h"
#include "tracker/progress_line.h"
#include "tracker/progress_scan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  for (auto part : schedmate::SplitGluedRecords(text)) schedmate::InterpretLine(part);
  std::vector<std::string> lines = schedmate::SplitLogText(text);
  schedmate::ProgressScanOptions o;
  o.samples = 3;
  schedmate::ProgressReport r = schedmate::ScanProgress(lines, o);
  if (r.progress_fraction && (*r.progress_fraction < 0 || *r.progress_fraction > 1)) __builtin_trap();
  if (r.status == schedmate::ProgressReport::Status::kMissing && r.step) __builtin_trap();
  return 0;
}

// The generic grammar of stage 2 (DESIGN §1.2): turns one cleaned log line
// into the numbers it prints, each with the key in front of it and the unit
// behind it. One scanner covers `key: value`, `key=value`, `key value`,
// Python dict and JSON lines (quoted keys, quoted numbers), `a/b` and
// `a / b` counters, and progress bars (tqdm, rich, Keras, mmcv), so no
// framework needs its own regular expression. What the keys *mean* is
// decided later (progress_line.h).
//
// A leading timestamp is recognised and returned separately; clock
// durations (`11:25:45`), dates and numbers glued into words (`default7`,
// `s0.loss`) are not fields.
#ifndef SCHEDMATE_TRACKER_FIELD_SCANNER_H_
#define SCHEDMATE_TRACKER_FIELD_SCANNER_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

struct ScannedField {
  // Lower-case words of the key; '_', '-', '.' become spaces
  // ("global_step" → "global step"). A parenthesised unit in the key
  // ("elapsed time per iteration (ms)") is moved to `unit`.
  std::string key;
  double value = 0;        // NaN for a printed nan
  bool integer = false;    // printed without a fraction or exponent
  std::optional<double> total;  // `a/b` counters: b
  std::string unit;        // as printed: "ms", "s/it", "toks/s/device", "%"
  bool parenthesised = false;   // "(0.9249)" right after another value
  bool follows_bar = false;     // "…██████| 203/453", "1086it [01:06, …": the bar's own counter
  bool bracketed = false;       // "[12000]": alone in brackets
};

struct ScannedLine {
  std::vector<ScannedField> fields;
  std::optional<double> timestamp_s;  // leading timestamp, seconds
  double timestamp_resolution_s = 1;  // 0.001 for ",508"
  bool has_bar = false;     // a drawn progress bar: "%|██", "━━", "[==>", "[>>>"
  std::vector<std::string> words;     // lower-case standalone words (a-z only)
};

ScannedLine ScanLine(std::string_view line);

// Where a record starts after a leading timestamp and its level word
// ("2021-01-26 02:42:23 [INFO]:", "2024-05-01 10:00:00,123 - INFO -"); 0
// when the line has no leading timestamp.
size_t LoggerPrefixEnd(std::string_view line);

// Splits a physical line holding several records glued together (a tqdm bar
// without a newline followed by a logger line: "…3.33s/it][2021-11-26 …" or
// "…ETA: 0s2021-07-14 13:52:36,901 - …"). Oldest first.
std::vector<std::string_view> SplitGluedRecords(std::string_view line);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_FIELD_SCANNER_H_

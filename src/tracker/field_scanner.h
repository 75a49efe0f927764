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
  bool follows_bar = false;     // "…██████| 203/453": the bar's own counter
};

struct ScannedLine {
  std::vector<ScannedField> fields;
  std::optional<double> timestamp_s;  // leading timestamp, seconds
  double timestamp_resolution_s = 1;  // 0.001 for ",508"
  bool has_bar = false;     // a drawn progress bar: "%|██", "━━", "[==>", "[>>>"
  std::vector<std::string> words;     // lower-case standalone words (a-z only)
};

ScannedLine ScanLine(std::string_view line);

// A line that prints one named number and nothing else — a row of a metrics
// table ("|    loss    | 0.482 |"), one line of a multi-line record
// ("    train/CrossEntropyLoss=2.95"): "key: value" text to join with its
// neighbours into one record, or "" for any other line. Separator rows
// ("-----", "+====+") are not rows.
std::string TableRow(std::string_view line);

// How a table row is drawn (borders, indentation, separator): rows of one
// table share it.
std::string RowShape(std::string_view line);

// A table drawn as a header row of names over rows of values (CSV loggers,
// column-aligned tables): the cells of a line split at commas, tabs, '|' or
// runs of two or more blanks, and which separator split them.
struct TableCells {
  std::vector<std::string> cells;
  char separator = 0;  // ',', '\t', '|', or ' ' for aligned columns
};
TableCells SplitCells(std::string_view line);
bool IsHeaderRow(const TableCells& t);  // three or more cells, each a name
bool IsValueRow(const TableCells& t);   // three or more cells, at most one not a number
// "name: value, name: value, …" for a value row under its header ("" when they do not fit).
std::string JoinHeader(const TableCells& header, const TableCells& row);

// Lines oldest first → records: runs of three or more table rows of one
// shape with distinct keys joined into one ("key: v, key: v, …"), other lines as they
// are — the grouping ProgressScan makes as it reads newest first.
std::vector<std::string> JoinTableRows(const std::vector<std::string>& lines);

// Splits a physical line holding several records glued together (a tqdm bar
// without a newline followed by a logger line: "…3.33s/it][2021-11-26 …" or
// "…ETA: 0s2021-07-14 13:52:36,901 - …"). Oldest first.
std::vector<std::string_view> SplitGluedRecords(std::string_view line);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_FIELD_SCANNER_H_

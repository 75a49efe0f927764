// Tables in logs, read as records (stage 2, before the grammar): a metrics
// table or multi-line record whose rows each print one named number (SB3,
// key=value blocks), and a header row of names over rows of values (CSV
// loggers, column-aligned tables).
#ifndef SCHEDMATE_TRACKER_TABLE_ROWS_H_
#define SCHEDMATE_TRACKER_TABLE_ROWS_H_

#include <string>
#include <string_view>
#include <vector>

namespace schedmate {

// A line that prints one named number and nothing else — a row of a metrics
// table ("|    loss    | 0.482 |"), one line of a multi-line record
// ("    train/CrossEntropyLoss=2.95"): "key: value" text to join with its
// neighbours into one record, or "" for any other line. Separator rows
// ("-----", "+====+") are not rows.
std::string TableRow(std::string_view line);

// How a table row is drawn (borders, indentation, separator): rows of one
// table share it.
std::string RowShape(std::string_view line);

// A line inside a metrics block that is not a row and does not end it: a
// rule ("-----", "#####", "+====+"), a blank line, or a section name
// ("| time/ |   |", "train:").
bool IsBlockFiller(std::string_view line);

// Whether a line heads the indented rows after it ("[batch=1/10]:" or a
// logger line "… INFO [step=1010/15000,epoch=0]" over "    train/loss=2.95"
// rows): it is read with them as one record.
bool IsBlockHeader(std::string_view header, std::string_view first_row);

// Rows being gathered into one record, in reading order (oldest first for
// JoinTableRows, newest first for ProgressScan): a row joins unless its key is
// already there, it is drawn differently, or the run is full.
class RowRun {
 public:
  bool Accepts(std::string_view line, const std::string& key) const;
  void Add(std::string line, std::string key);
  void Clear();
  size_t size() const { return keys_.size(); }

 private:
  std::vector<std::string> keys_;
  std::string shape_;
};

// A table drawn as a header row of names over rows of values (CSV loggers,
// column-aligned tables): the cells of a line split at commas, tabs, '|' or
// runs of two or more blanks, and which separator split them.
struct TableCells {
  std::vector<std::string> cells;
  char separator = 0;  // ',', '\t', '|', or ' ' for aligned columns
  std::vector<size_t> starts, ends;  // aligned columns: where each cell is on the line
};
TableCells SplitCells(std::string_view line);
bool IsHeaderRow(const TableCells& t);  // three or more cells, each a name
bool IsValueRow(const TableCells& t);   // three or more cells, at most one not a number
// "name: value, name: value, …" for a value row under its header ("" when
// they do not fit). Aligned columns with empty cells (Chainer's PrintReport)
// are matched by where they stand on the line.
std::string JoinHeader(const TableCells& header, const TableCells& row);

// Lines oldest first → records: value rows under their header, and runs of
// three or more one-number rows of one shape with distinct keys, each joined
// into one ("key: v, key: v, …"); other lines as they are — the grouping
// ProgressScan makes as it reads newest first.
std::vector<std::string> JoinTableRows(const std::vector<std::string>& lines);

}  // namespace schedmate

#endif  // SCHEDMATE_TRACKER_TABLE_ROWS_H_

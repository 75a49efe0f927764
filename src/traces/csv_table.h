// A CSV file with a header row, read row by row with typed, checked field
// access. Every error names source, line and column:
//   "trace.csv:17: column 'duration': '-5' is negative".
#ifndef SCHEDMATE_TRACES_CSV_TABLE_H_
#define SCHEDMATE_TRACES_CSV_TABLE_H_

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "traces/csv_reader.h"

namespace schedmate {

class CsvTable {
 public:
  // Reads the header. Fails on an empty input or an empty/duplicate column.
  static Result<CsvTable> Open(std::istream& in, std::string source,
                               CsvOptions options = {});

  const std::vector<std::string>& header() const { return header_; }
  const std::vector<std::string>& comments() const {
    return reader_->comments();
  }
  const std::string& source() const { return reader_->source(); }
  int64_t line() const { return reader_->line(); }

  // Index of a column, or an error naming the missing column.
  Result<int> Require(std::string_view name) const;
  // -1 when absent.
  int Find(std::string_view name) const;
  bool Has(std::string_view name) const { return Find(name) >= 0; }

  // Next data row; false at end. Rows must have as many fields as the header.
  Result<bool> Next();

  std::string_view Field(int col) const { return fields_[col]; }
  // Typed access; empty fields are errors except for the Opt* variants.
  Result<int64_t> Int(int col) const;            // whole number (1 or 1.0)
  Result<int64_t> NonNegativeInt(int col) const;
  Result<double> Number(int col) const;
  Result<int64_t> DateTime(int col) const;       // see ParseDateTime
  // An integer number of seconds or a date-time string.
  Result<int64_t> SecondsOrDateTime(int col) const;
  Result<std::optional<int64_t>> OptNonNegativeInt(int col) const;

  // "source:line: column 'name': message".
  Status ColumnError(int col, std::string_view message) const;
  Status RowError(std::string_view message) const;

 private:
  CsvTable() = default;
  std::shared_ptr<CsvReader> reader_;
  std::vector<std::string> header_;
  std::vector<std::string_view> fields_;
};

}  // namespace schedmate

#endif  // SCHEDMATE_TRACES_CSV_TABLE_H_

#include "traces/csv_table.h"

#include <charconv>
#include <cmath>

#include "core/time_format.h"

namespace schedmate {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string Shown(std::string_view v) {
  constexpr size_t kMax = 40;
  std::string s(v.substr(0, kMax));
  if (v.size() > kMax) s += "...";
  return "'" + s + "'";
}

}  // namespace

Result<CsvTable> CsvTable::Open(std::istream& in, std::string source,
                                CsvOptions options) {
  CsvTable t;
  t.reader_ = std::make_shared<CsvReader>(in, std::move(source), options);
  std::vector<std::string_view> fields;
  ASSIGN_OR_RETURN(bool got, t.reader_->Next(&fields));
  if (!got)
    return InvalidArgument(t.reader_->source() +
                           ": empty file (no header row)");
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string name(Trim(fields[i]));
    // A UTF-8 byte-order mark on the first column is not part of its name.
    if (i == 0 && name.rfind("\xEF\xBB\xBF", 0) == 0) name.erase(0, 3);
    if (name.empty() && i != 0)  // pandas writes an unnamed index column 0
      return t.reader_->ErrorAt("header column " + std::to_string(i + 1) +
                                " has no name");
    if (t.Find(name) >= 0)
      return t.reader_->ErrorAt("header names column '" + name + "' twice");
    t.header_.push_back(std::move(name));
  }
  return t;
}

int CsvTable::Find(std::string_view name) const {
  for (size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return static_cast<int>(i);
  return -1;
}

Result<int> CsvTable::Require(std::string_view name) const {
  int i = Find(name);
  if (i < 0) {
    std::string have;
    for (const auto& h : header_) have += (have.empty() ? "" : ",") + h;
    return InvalidArgument(source() + ":1: missing column '" +
                           std::string(name) + "' (header is: " + have + ")");
  }
  return i;
}

Result<bool> CsvTable::Next() {
  ASSIGN_OR_RETURN(bool got, reader_->Next(&fields_));
  if (!got) return false;
  if (fields_.size() != header_.size())
    return RowError("expected " + std::to_string(header_.size()) +
                    " fields as in the header, found " +
                    std::to_string(fields_.size()));
  return true;
}

Status CsvTable::RowError(std::string_view message) const {
  return reader_->ErrorAt(message);
}

Status CsvTable::ColumnError(int col, std::string_view message) const {
  return reader_->ErrorAt("column '" + header_[col] + "': " +
                          std::string(message));
}

Result<int64_t> CsvTable::Int(int col) const {
  std::string_view v = Trim(fields_[col]);
  if (v.empty()) return ColumnError(col, "empty, expected a whole number");
  int64_t x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec == std::errc() && p == v.data() + v.size()) return x;
  ASSIGN_OR_RETURN(double d, Number(col));
  if (d != std::floor(d) || std::fabs(d) > 9.0e15)
    return ColumnError(col, Shown(v) + " is not a whole number");
  return static_cast<int64_t>(d);
}

Result<int64_t> CsvTable::NonNegativeInt(int col) const {
  ASSIGN_OR_RETURN(int64_t x, Int(col));
  if (x < 0) return ColumnError(col, Shown(fields_[col]) + " is negative");
  return x;
}

Result<std::optional<int64_t>> CsvTable::OptNonNegativeInt(int col) const {
  if (col < 0 || Trim(fields_[col]).empty()) return std::optional<int64_t>();
  ASSIGN_OR_RETURN(int64_t x, NonNegativeInt(col));
  return std::optional<int64_t>(x);
}

Result<double> CsvTable::Number(int col) const {
  std::string_view v = Trim(fields_[col]);
  if (v.empty()) return ColumnError(col, "empty, expected a number");
  double d = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(d))
    return ColumnError(col, Shown(v) + " is not a number");
  return d;
}

Result<int64_t> CsvTable::DateTime(int col) const {
  std::string_view v = Trim(fields_[col]);
  if (v.empty()) return ColumnError(col, "empty, expected a date-time");
  auto t = ParseDateTime(v);
  if (!t)
    return ColumnError(col, Shown(v) +
                                " is not a date-time (YYYY-MM-DD HH:MM:SS, "
                                "optionally with a zone like +08:00)");
  return *t;
}

Result<int64_t> CsvTable::SecondsOrDateTime(int col) const {
  std::string_view v = Trim(fields_[col]);
  if (v.size() >= 10 && v[4] == '-') return DateTime(col);
  return Int(col);
}

}  // namespace schedmate

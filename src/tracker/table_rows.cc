#include "tracker/table_rows.h"

#include <algorithm>

#include "tracker/field_scanner.h"

namespace schedmate {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAlnum(char c) { return IsDigit(c) || IsAlpha(c); }

}  // namespace

std::string RowShape(std::string_view line) {
  std::string shape;
  shape += line.find('|') != std::string_view::npos ? 'p' : '-';
  shape += !line.empty() && (line[0] == ' ' || line[0] == '\t') ? 'i' : '-';
  size_t sep = line.find_first_of(":=");
  shape += sep == std::string_view::npos ? ' ' : line[sep];
  return shape;
}

TableCells SplitCells(std::string_view line) {
  TableCells t;
  if (line.size() > 600) return t;
  // One pass first: most lines have neither two separators nor two gaps of blanks.
  int commas = 0, tabs = 0, pipes = 0, gaps = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    commas += c == ',';
    tabs += c == '\t';
    pipes += c == '|';
    gaps += c == ' ' && i + 1 < line.size() && line[i + 1] == ' ' && (i == 0 || line[i - 1] != ' ');
  }
  if (commas >= 2) t.separator = ',';
  else if (tabs >= 2) t.separator = '\t';
  else if (pipes >= 2) t.separator = '|';
  else if (gaps < 2) return t;
  auto trim = [](std::string_view x) {
    while (!x.empty() && (x.front() == ' ' || x.front() == '\t')) x.remove_prefix(1);
    while (!x.empty() && (x.back() == ' ' || x.back() == '\t' || x.back() == '\r')) x.remove_suffix(1);
    return std::string(x);
  };
  if (t.separator) {
    size_t start = 0;
    while (start <= line.size()) {
      size_t p = line.find(t.separator, start);
      t.cells.push_back(trim(line.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start)));
      if (p == std::string_view::npos) break;
      start = p + 1;
    }
    if (t.separator == '|') {  // "| a | b |": the borders make empty end cells
      if (!t.cells.empty() && t.cells.front().empty()) t.cells.erase(t.cells.begin());
      if (!t.cells.empty() && t.cells.back().empty()) t.cells.pop_back();
    }
    return t;
  }
  t.separator = ' ';
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    if (i >= line.size()) break;
    size_t j = i;
    while (j < line.size() && !(line[j] == ' ' && j + 1 < line.size() && line[j + 1] == ' ') &&
           !(line[j] == ' ' && j + 1 == line.size()))
      ++j;
    t.cells.push_back(trim(line.substr(i, j - i)));
    i = j;
  }
  return t;
}

bool IsHeaderRow(const TableCells& t) {
  if (t.cells.size() < 3 || t.cells.size() > 40) return false;
  for (const auto& c : t.cells) {
    if (c.empty() || c.size() > 40 || !IsAlpha(c[0])) return false;
    for (char ch : c)
      if (!(IsAlnum(ch) || ch == '_' || ch == '/' || ch == '.' || ch == '-' || ch == ' ' || ch == '(' || ch == ')'))
        return false;
    if (c.find(' ') != std::string::npos && t.separator == ' ') return false;
  }
  return true;
}

bool IsValueRow(const TableCells& t) {
  if (t.cells.size() < 3) return false;
  int other = 0, numbers = 0;
  for (const auto& c : t.cells) {
    if (c.empty()) continue;  // a CSV logger leaves the metrics of other steps empty
    bool number = IsDigit(c[0]) || ((c[0] == '-' || c[0] == '.') && c.size() > 1 && (IsDigit(c[1]) || c[1] == '.')) ||
                  c == "nan" || c == "inf";
    numbers += number;
    other += !number;
  }
  return numbers >= 2 && other <= 1;
}

std::string JoinHeader(const TableCells& header, const TableCells& row) {
  if (header.cells.size() != row.cells.size() || header.separator != row.separator) return "";
  std::string out;
  for (size_t k = 0; k < row.cells.size(); ++k) {
    if (row.cells[k].empty()) continue;
    out += (out.empty() ? "" : ", ") + header.cells[k] + ": " + row.cells[k];
  }
  return out;
}

std::vector<std::string> JoinTableRows(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  std::vector<std::pair<std::string, std::string>> run;  // (line, row)
  std::vector<std::string> keys;
  auto flush = [&] {
    if (run.size() >= 3) {
      std::string text;
      for (const auto& [line, row] : run) text += (text.empty() ? "" : ", ") + row;
      out.push_back(std::move(text));
    } else {
      for (const auto& [line, row] : run) out.push_back(line);
    }
    run.clear();
    keys.clear();
  };
  TableCells header;
  for (const auto& line : lines) {
    TableCells cells = SplitCells(line);
    if (IsHeaderRow(cells)) header = cells;
    if (!header.cells.empty() && IsValueRow(cells))
      if (std::string joined = JoinHeader(header, cells); !joined.empty()) {
        flush();
        out.push_back(joined);
        continue;
      }
    std::string row = TableRow(line);
    if (row.empty()) {
      flush();
      out.push_back(line);
      continue;
    }
    std::string key = ScanLine(row).fields[0].key;
    if (std::find(keys.begin(), keys.end(), key) != keys.end() || run.size() >= 64 ||
        (!run.empty() && RowShape(run.back().first) != RowShape(line)))
      flush();
    keys.push_back(key);
    run.emplace_back(line, std::move(row));
  }
  flush();
  return out;
}

std::string TableRow(std::string_view line) {
  if (line.size() > 160) return "";
  // Cheap first: a row holds one number (a run of digits, '.', 'e', '+', '-').
  int runs = 0;
  for (size_t i = 0; i < line.size(); ++i)
    if (IsDigit(line[i]) && (i == 0 || !(IsDigit(line[i - 1]) || line[i - 1] == '.' || line[i - 1] == 'e' ||
                                         line[i - 1] == 'E' || line[i - 1] == '-' || line[i - 1] == '+')))
      if (++runs > 2) return "";
  if (runs == 0 && line.find("nan") == std::string_view::npos) return "";
  // Table borders and cell separators become blanks, runs of blanks one.
  std::string t;
  for (char c : line) {
    char x = (c == '|' || c == '\t') ? ' ' : c;
    if (x == ' ' && (t.empty() || t.back() == ' ')) continue;
    t += x;
  }
  while (!t.empty() && t.back() == ' ') t.pop_back();
  if (t.empty()) return "";
  ScannedLine s = ScanLine(t);
  if (s.fields.size() != 1 || s.has_bar || s.fields[0].key.empty() || s.fields[0].total || s.timestamp_s) return "";
  const ScannedField& f = s.fields[0];
  // The key must be all the line holds before its value: "loss 0.48", not "Saving checkpoint 1000 to …".
  size_t words = 0;
  for (char c : f.key) words += c == ' ';
  if (words > 3 || t.size() > f.key.size() + f.unit.size() + 32) return "";
  return t;
}

}  // namespace schedmate

#include "tracker/table_rows.h"

#include <algorithm>
#include <cstdlib>

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

bool IsBlockFiller(std::string_view line) {
  if (line.size() > 160) return false;
  size_t letters = 0, marks = 0, end = line.size();
  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '|' || line[end - 1] == '\r' || line[end - 1] == '\t')) --end;
  for (size_t i = 0; i < end; ++i) {
    char c = line[i];
    if (IsDigit(c)) return false;
    if (IsAlpha(c) || c == '_') ++letters;
    else if (c == '-' || c == '=' || c == '#' || c == '*' || c == '+' || c == '~') ++marks;
    else if (c != ' ' && c != '|' && c != '\t' && c != '/' && c != ':') return false;
  }
  if (letters == 0) return marks == 0 || marks >= 3;  // a blank line or a rule
  // A section name: one word ending in '/' or ':'.
  std::string_view t = line.substr(0, end);
  while (!t.empty() && (t.front() == ' ' || t.front() == '|' || t.front() == '\t')) t.remove_prefix(1);
  return marks == 0 && !t.empty() && (t.back() == '/' || t.back() == ':') && t.find(' ') == std::string_view::npos;
}

bool IsBlockHeader(std::string_view header, std::string_view first_row) {
  auto indented = [](std::string_view l) { return !l.empty() && (l[0] == ' ' || l[0] == '\t'); };
  return header.size() <= 300 && !indented(header) && indented(first_row) &&
         std::any_of(header.begin(), header.end(), IsDigit);
}

bool RowRun::Accepts(std::string_view line, const std::string& key) const {
  if (keys_.empty()) return true;
  if (keys_.size() >= 64 || std::find(keys_.begin(), keys_.end(), key) != keys_.end()) return false;
  std::string shape = RowShape(line);
  // Borders and indentation must agree; a row without ':' or '=' ("Learning
  // iteration 66/300") may sit among "key: value" rows.
  return shape.substr(0, 2) == shape_.substr(0, 2) && (shape[2] == shape_[2] || shape[2] == ' ' || shape_[2] == ' ');
}

void RowRun::Add(std::string line, std::string key) {
  std::string shape = RowShape(line);
  if (shape_.empty() || shape_[2] == ' ') shape_ = shape;
  keys_.push_back(std::move(key));
}

void RowRun::Clear() {
  keys_.clear();
  shape_.clear();
}

TableCells SplitCells(std::string_view line) {
  TableCells t;
  if (line.size() > 600) return t;
  // A header written as a comment ("# step  rmse_val  rmse_trn"): the mark
  // is no cell; columns keep their positions.
  std::string uncommented;
  if (line.size() > 2 && line[0] == '#' && line[1] == ' ') {
    uncommented.assign(line);
    uncommented[0] = ' ';
    line = uncommented;
  }
  // A logger's stamp and level before the cells ("2021-01-26 02:42:23
  // [INFO]:    Epoch  Batch …") are no cells; columns keep their positions.
  std::string unprefixed;
  if (size_t prefix = LoggerPrefixEnd(line); prefix > 0 && prefix < line.size()) {
    unprefixed.assign(line);
    std::fill(unprefixed.begin(), unprefixed.begin() + static_cast<long>(prefix), ' ');
    line = unprefixed;
  }
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
    t.starts.push_back(i);
    t.ends.push_back(i + t.cells.back().size());
    i = j;
  }
  return t;
}

// Names of columns: words ("LOSS NER", up to three in an aligned table,
// where two blanks part the columns), or "#" — the count column.
bool IsHeaderRow(const TableCells& t) {
  if (t.cells.size() < 3 || t.cells.size() > 40) return false;
  for (const auto& c : t.cells) {
    if (c == "#") continue;
    if (c.empty() || c.size() > 40 || !IsAlpha(c[0])) return false;
    for (char ch : c)
      if (!(IsAlnum(ch) || ch == '_' || ch == '/' || ch == '.' || ch == '-' || ch == ' ' || ch == '(' || ch == ')'))
        return false;
    if (t.separator == ' ' && std::count(c.begin(), c.end(), ' ') > 2) return false;
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

namespace {

// The header column an aligned value stands under: the one it overlaps most,
// else the nearest; -1 when that column already has a value.
std::vector<int> AlignByPosition(const TableCells& header, const TableCells& row) {
  std::vector<int> column(row.cells.size(), -1);
  std::vector<bool> taken(header.cells.size(), false);
  for (size_t v = 0; v < row.cells.size(); ++v) {
    long best = -1, best_score = 0;
    for (size_t h = 0; h < header.cells.size(); ++h) {
      long overlap = static_cast<long>(std::min(row.ends[v], header.ends[h])) -
                     static_cast<long>(std::max(row.starts[v], header.starts[h]));
      long distance = std::labs(static_cast<long>(row.starts[v]) - static_cast<long>(header.starts[h]));
      long score = overlap > 0 ? 1000 + overlap : -distance;
      if (best < 0 || score > best_score) {
        best = static_cast<long>(h);
        best_score = score;
      }
    }
    if (best < 0 || taken[best] || best_score < -3) return {};
    taken[best] = true;
    column[v] = static_cast<int>(best);
  }
  return column;
}

}  // namespace

std::string JoinHeader(const TableCells& header, const TableCells& row) {
  if (header.separator != row.separator) return "";
  std::vector<int> column;
  if (header.cells.size() == row.cells.size()) {
    for (size_t k = 0; k < row.cells.size(); ++k) column.push_back(static_cast<int>(k));
  } else if (header.separator == ' ' && row.cells.size() < header.cells.size()) {
    column = AlignByPosition(header, row);
  }
  if (column.empty()) return "";
  // A column named only "total" beside the parts it sums ("x y w h conf cls
  // total", "box conf id total") is the whole loss when no column names one.
  bool loss_column = false;
  for (const auto& c : header.cells) {
    std::string l;
    for (char ch : c) l += static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    loss_column = loss_column || l.find("loss") != std::string::npos;
  }
  std::string out;
  for (size_t k = 0; k < row.cells.size(); ++k) {
    if (row.cells[k].empty()) continue;
    const std::string& name = header.cells[column[k]];
    bool total = !loss_column && (name == "total" || name == "Total") && row.cells[k].find('/') == std::string::npos;
    out += (out.empty() ? "" : ", ") + (total ? name + " loss" : name) + ": " + row.cells[k];
  }
  return out;
}

std::vector<std::string> JoinTableRows(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  std::vector<std::pair<std::string, std::string>> run;  // (line, row); "" rows are fillers
  RowRun rows;
  bool header_before = false;  // out.back() is the line just before the run
  auto flush = [&] {
    if (rows.size() >= 3) {
      std::string text;
      for (const auto& [line, row] : run)
        if (!row.empty()) text += (text.empty() ? "" : ", ") + row;
      if (header_before && IsBlockHeader(out.back(), run.front().first))
        out.back() += ", " + text;
      else
        out.push_back(std::move(text));
      header_before = false;
    } else {
      for (const auto& [line, row] : run) out.push_back(line);
      header_before = !run.empty() && !run.back().second.empty();
    }
    run.clear();
    rows.Clear();
  };
  TableCells header;
  for (const auto& line : lines) {
    TableCells cells = SplitCells(line);
    if (IsHeaderRow(cells)) header = cells;
    if (!header.cells.empty() && IsValueRow(cells))
      if (std::string joined = JoinHeader(header, cells); !joined.empty()) {
        flush();
        out.push_back(joined);
        header_before = false;
        continue;
      }
    std::string row = TableRow(line);
    if (row.empty()) {
      if (rows.size() > 0 && IsBlockFiller(line)) {
        run.emplace_back(line, "");
        continue;
      }
      flush();
      out.push_back(line);
      header_before = true;
      continue;
    }
    std::string key = ScanLine(row).fields[0].key;
    if (!rows.Accepts(line, key)) flush();
    rows.Add(line, key);
    run.emplace_back(line, std::move(row));
  }
  flush();
  return out;
}

std::string TableRow(std::string_view line) {
  if (line.size() > 160) return "";
  // Cheap first: a row holds one number (a run of digits, '.', and an
  // exponent: "1e-05" is one run, "-0.12" one).
  int runs = 0;
  auto continues = [&](size_t i) {  // line[i] is a digit
    if (i == 0) return false;
    char p = line[i - 1];
    if (IsDigit(p) || p == '.') return true;
    // Thousands: "2,118,123,520".
    if (p == ',' && i >= 2 && IsDigit(line[i - 2]) && i + 2 < line.size() && IsDigit(line[i + 1]) &&
        IsDigit(line[i + 2]) && (i + 3 == line.size() || !IsDigit(line[i + 3])))
      return true;
    if (p == 'e' || p == 'E') return i >= 2 && IsDigit(line[i - 2]);
    if (p == '-' || p == '+') return i >= 3 && (line[i - 2] == 'e' || line[i - 2] == 'E') && IsDigit(line[i - 3]);
    return false;
  };
  for (size_t i = 0; i < line.size(); ++i)
    if (IsDigit(line[i]) && !continues(i) && ++runs > 2) return "";
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
  if (s.fields.size() != 1 || s.has_bar || s.fields[0].key.empty() || s.timestamp_s) return "";
  const ScannedField& f = s.fields[0];
  // The key must be all the line holds before its value: "loss 0.48", not "Saving checkpoint 1000 to …".
  size_t words = 0;  // of the key's last part ("train trainer/device train microbatch size")
  for (size_t i = f.key.rfind('/') == std::string::npos ? 0 : f.key.rfind('/'); i < f.key.size(); ++i)
    words += f.key[i] == ' ';
  // A quoted key (a pretty-printed JSON record: '  "num_tasks_completed_since_last_log": 1600,') is
  // a key whatever its length.
  size_t lead = t.find_first_not_of(' ');
  bool quoted = lead != std::string::npos && t[lead] == '"' && t.find("\":", lead + 1) != std::string::npos;
  if ((words > 3 && !quoted) || t.size() > f.key.size() + f.unit.size() + 32) return "";
  return t;
}

}  // namespace schedmate

#include "experiments/research_report.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "core/str_format.h"
#include "experiments/json_location.h"
#include "experiments/sweep_merge.h"
#include "experiments/sweep_plan.h"
#include "plot/svg_chart.h"

namespace schedmate {
namespace fs = std::filesystem;
namespace {

// ---------------------------------------------------------------- parsing

class ResearchParser {
 public:
  ResearchParser(const std::string& text, std::string path) : text_(text), path_(std::move(path)) {}

  Status Error(JsonPath at, const std::string& message) const {
    at.insert(at.begin(), std::string("research"));
    const int line = JsonLineOf(text_, at);
    return InvalidArgument(path_ + (line > 0 ? ":" + std::to_string(line) : "") + ": field '" + JsonPathString(at) +
                           "': " + message);
  }

  Status Known(const Json& obj, const JsonPath& at, std::initializer_list<std::string_view> known) const {
    for (const auto& [key, value] : obj.items())
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string list;
        for (std::string_view k : known) list += " " + std::string(k);
        return Error(Child(at, key), "unknown field; known:" + list);
      }
    return Status::Ok();
  }

  Status Str(const Json& obj, const JsonPath& at, const char* key, std::string* out, bool required = false) const {
    if (!obj.contains(key)) return required ? Error(at, std::string("has no '") + key + "'") : Status::Ok();
    if (!obj[key].is_string()) return Error(Child(at, key), "must be a string");
    *out = obj[key].get<std::string>();
    return Status::Ok();
  }

  Status Strings(const Json& obj, const JsonPath& at, const char* key, std::vector<std::string>* out) const {
    if (!obj.contains(key)) return Status::Ok();
    const Json& v = obj[key];
    if (!v.is_array()) return Error(Child(at, key), "must be an array of strings");
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string()) return Error(Child(Child(at, key), i), "must be a string");
      out->push_back(v[i].get<std::string>());
    }
    return Status::Ok();
  }

  Status StringMap(const Json& obj, const JsonPath& at, const char* key,
                   std::map<std::string, std::string>* out) const {
    if (!obj.contains(key)) return Status::Ok();
    const Json& v = obj[key];
    if (v.is_string()) {
      (*out)["*"] = v.get<std::string>();
      return Status::Ok();
    }
    if (!v.is_object()) return Error(Child(at, key), "must be a string or an object of strings");
    for (const auto& [k, s] : v.items()) {
      if (!s.is_string()) return Error(Child(Child(at, key), k), "must be a string");
      (*out)[k] = s.get<std::string>();
    }
    return Status::Ok();
  }

  Result<ResearchColumn> Column(const Json& v, const JsonPath& at) const {
    if (!v.is_object()) return Error(at, "must be an object {\"name\", \"metric\", ...}");
    RETURN_IF_ERROR(Known(v, at, {"name", "op", "metric", "run", "base", "over", "unit", "digits", "research"}));
    ResearchColumn c;
    RETURN_IF_ERROR(Str(v, at, "name", &c.name, true));
    RETURN_IF_ERROR(Str(v, at, "metric", &c.metric, true));
    c.run = "{row}";
    RETURN_IF_ERROR(Str(v, at, "run", &c.run));
    RETURN_IF_ERROR(Str(v, at, "base", &c.base));
    RETURN_IF_ERROR(Str(v, at, "over", &c.over));
    RETURN_IF_ERROR(Str(v, at, "unit", &c.unit));
    std::string op = "value";
    RETURN_IF_ERROR(Str(v, at, "op", &op));
    if (op == "value") {
      c.op = ResearchColumn::Op::kValue;
    } else if (op == "ratio" || op == "change") {
      c.op = op == "ratio" ? ResearchColumn::Op::kRatio : ResearchColumn::Op::kChange;
      if (c.base.empty()) return Error(Child(at, "base"), "'" + op + "' needs the base run's label");
    } else if (op == "share") {
      c.op = ResearchColumn::Op::kShare;
      if (c.over.empty()) return Error(Child(at, "over"), "'share' needs the metric to divide by");
    } else {
      return Error(Child(at, "op"), "'" + op + "': known: value, ratio, change, share");
    }
    if (c.unit != "" && c.unit != "h" && c.unit != "%" && c.unit != "x")
      return Error(Child(at, "unit"), "'" + c.unit + "': known: h, %, x (or none)");
    if (v.contains("digits")) {
      if (!v["digits"].is_number_integer() || v["digits"].get<int>() < 0 || v["digits"].get<int>() > 6)
        return Error(Child(at, "digits"), "must be a whole number 0-6");
      c.digits = v["digits"].get<int>();
    }
    RETURN_IF_ERROR(StringMap(v, at, "research", &c.research));
    return c;
  }

  Result<ResearchTable> Table(const Json& r) const {
    RETURN_IF_ERROR(Known(r, {}, {"title", "source", "claim", "labels", "rows", "columns", "plots", "cdf", "notes"}));
    ResearchTable t;
    RETURN_IF_ERROR(Str(r, {}, "title", &t.title, true));
    RETURN_IF_ERROR(Str(r, {}, "source", &t.source, true));
    RETURN_IF_ERROR(Str(r, {}, "claim", &t.claim));
    RETURN_IF_ERROR(StringMap(r, {}, "labels", &t.labels));
    if (r.contains("rows") && r["rows"].is_string()) {
      if (r["rows"] != "runs") return Error({"rows"}, "must be \"runs\" (a row per run) or an array of row names");
      t.rows_are_runs = true;
    } else {
      RETURN_IF_ERROR(Strings(r, {}, "rows", &t.rows));
    }
    if (!r.contains("columns") || !r["columns"].is_array() || r["columns"].empty())
      return Error({"columns"}, "must be a non-empty array of columns");
    std::set<std::string> names;
    for (size_t i = 0; i < r["columns"].size(); ++i) {
      ASSIGN_OR_RETURN(ResearchColumn c, Column(r["columns"][i], {"columns", i}));
      if (!names.insert(c.name).second) return Error({"columns", i, "name"}, "'" + c.name + "' is used twice");
      t.columns.push_back(std::move(c));
    }
    if (r.contains("plots")) {
      const Json& p = r["plots"];
      if (!p.is_array()) return Error({"plots"}, "must be an array");
      for (size_t i = 0; i < p.size(); ++i) {
        const JsonPath at = {"plots", i};
        if (!p[i].is_object()) return Error(at, "must be an object");
        RETURN_IF_ERROR(Known(p[i], at, {"title", "column", "metric", "unit", "runs", "reference"}));
        ResearchPlot plot;
        RETURN_IF_ERROR(Str(p[i], at, "title", &plot.title));
        RETURN_IF_ERROR(Str(p[i], at, "column", &plot.column));
        RETURN_IF_ERROR(Str(p[i], at, "metric", &plot.metric));
        RETURN_IF_ERROR(Str(p[i], at, "unit", &plot.unit));
        RETURN_IF_ERROR(Strings(p[i], at, "runs", &plot.runs));
        if (p[i].contains("reference")) {
          if (!p[i]["reference"].is_number()) return Error(Child(at, "reference"), "must be a number");
          plot.reference = p[i]["reference"].get<double>();
        }
        if (plot.column.empty() == plot.metric.empty())
          return Error(at, "give either 'column' (a column's name) or 'metric' with 'runs'");
        if (!plot.column.empty() && !names.count(plot.column))
          return Error(Child(at, "column"), "'" + plot.column + "' is not a column");
        if (!plot.metric.empty() && plot.runs.empty()) return Error(Child(at, "runs"), "'metric' needs 'runs'");
        t.plots.push_back(std::move(plot));
      }
    } else {
      t.plots.push_back({t.columns[0].name, t.columns[0].name, "", "", {}, std::numeric_limits<double>::quiet_NaN()});
    }
    if (r.contains("cdf")) {
      const Json& c = r["cdf"];
      if (!c.is_array()) return Error({"cdf"}, "must be an array of {\"experiment\", \"setting\", \"seed\"}");
      for (size_t i = 0; i < c.size(); ++i) {
        const JsonPath at = {"cdf", i};
        if (!c[i].is_object()) return Error(at, "must be an object");
        RETURN_IF_ERROR(Known(c[i], at, {"experiment", "setting", "seed"}));
        ResearchCdf cdf;
        RETURN_IF_ERROR(Str(c[i], at, "experiment", &cdf.experiment, true));
        RETURN_IF_ERROR(Str(c[i], at, "setting", &cdf.setting));
        if (c[i].contains("seed")) {
          if (!c[i]["seed"].is_number_integer()) return Error(Child(at, "seed"), "must be a whole number");
          cdf.seed = c[i]["seed"].get<int64_t>();
        }
        t.cdfs.push_back(std::move(cdf));
      }
    }
    RETURN_IF_ERROR(Strings(r, {}, "notes", &t.notes));
    return t;
  }

  static JsonPath Child(JsonPath at, JsonPathStep step) {
    at.push_back(std::move(step));
    return at;
  }

 private:
  const std::string& text_;
  std::string path_;
};

ResearchTable DefaultTable(const SweepSpec& spec) {
  ResearchTable t;
  t.title = spec.name;
  t.source = "none: the sweep has no 'research' section";
  t.rows_are_runs = true;
  t.columns = {{"avg JCT h", ResearchColumn::Op::kValue, "avg_jct_s", "{row}", "", "", "h", 2, {}},
               {"p99 JCT h", ResearchColumn::Op::kValue, "p99_jct_s", "{row}", "", "", "h", 2, {}},
               {"queue h", ResearchColumn::Op::kValue, "avg_queue_s", "{row}", "", "", "h", 2, {}}};
  t.plots.push_back({"avg JCT h", "avg JCT h", "", "", {}, std::numeric_limits<double>::quiet_NaN()});
  return t;
}

// ---------------------------------------------------------------- data

// One task as the report reads it: the merge's status and runs (no timings),
// and its raw summary (setting, timings).
struct TaskView {
  std::vector<SummaryRun> timed;  // runs with wall-clock timings
  std::string setting_text;
};

struct Group {
  std::string experiment, setting;
  std::vector<size_t> tasks;  // indices into SweepData::tasks
};

struct SweepData {
  SweepSpec spec;
  ResearchTable table;
  std::string dir;
  bool ran = false;
  MergedSweep merged;
  std::vector<TaskView> tasks;
  std::vector<Group> groups;
};

bool Matches(const std::string& label, const std::string& pattern) {
  if (!pattern.empty() && pattern.back() == '*') return label.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
  return label == pattern;
}

std::string Substitute(std::string pattern, const std::string& row) {
  for (size_t at; (at = pattern.find("{row}")) != std::string::npos;) pattern.replace(at, 5, row);
  return pattern;
}

const SummaryRun* FindRun(const std::vector<SummaryRun>& runs, const std::string& pattern) {
  for (const SummaryRun& r : runs)
    if (Matches(r.label, pattern)) return &r;
  return nullptr;
}

std::optional<double> MetricOf(const SummaryRun* r, const std::string& key) {
  if (!r) return std::nullopt;
  auto it = r->metrics.find(key);
  if (it == r->metrics.end() || !std::isfinite(it->second)) return std::nullopt;
  return it->second;
}

double UnitScale(const std::string& unit) { return unit == "h" ? 1.0 / 3600 : unit == "%" ? 100 : 1; }

// One seed's value of a column (nullopt: a run or metric it needs is absent).
std::optional<double> CellOf(const ResearchColumn& c, const std::vector<SummaryRun>& runs, const std::string& row) {
  const SummaryRun* run = FindRun(runs, Substitute(c.run, row));
  const auto v = MetricOf(run, c.metric);
  if (!v) return std::nullopt;
  switch (c.op) {
    case ResearchColumn::Op::kValue:
      return *v * UnitScale(c.unit);
    case ResearchColumn::Op::kRatio: {
      const auto b = MetricOf(FindRun(runs, Substitute(c.base, row)), c.metric);
      if (!b || *v == 0) return std::nullopt;
      return *b / *v;
    }
    case ResearchColumn::Op::kChange: {
      const auto b = MetricOf(FindRun(runs, Substitute(c.base, row)), c.metric);
      if (!b || *b == 0) return std::nullopt;
      return (*v / *b - 1) * 100;
    }
    case ResearchColumn::Op::kShare: {
      const auto o = MetricOf(run, c.over);
      if (!o || *o == 0) return std::nullopt;
      return *v / *o * 100;
    }
  }
  return std::nullopt;
}

// Drops a trailing "; seed N" (the seed is listed with the setting anyway).
std::string WithoutSeed(std::string s) {
  const size_t at = s.rfind("; seed ");
  if (at != std::string::npos && at + 7 < s.size() &&
      std::all_of(s.begin() + static_cast<std::ptrdiff_t>(at) + 7, s.end(), [](char c) { return std::isdigit(c); }))
    s.resize(at);
  return s;
}

std::string SettingText(const Json& summary) {
  if (!summary.is_object()) return "";
  if (summary.contains("setting") && summary["setting"].is_string())
    return WithoutSeed(summary["setting"].get<std::string>());
  if (summary.contains("settings") && summary["settings"].is_array()) {
    std::string out;
    for (const Json& s : summary["settings"])
      if (s.is_string()) out += (out.empty() ? "" : "; ") + WithoutSeed(s.get<std::string>());
    return out;
  }
  return "";
}

Result<SweepData> LoadSweep(const SweepSpec& spec, const std::string& out) {
  SweepData d;
  d.spec = spec;
  d.dir = out + "/" + spec.name;
  if (spec.research.is_null()) {
    d.table = DefaultTable(spec);
  } else {
    ASSIGN_OR_RETURN(std::string text, ReadFileCapped(spec.file, 16u << 20));
    ASSIGN_OR_RETURN(d.table, ParseResearchTable(spec, text));
  }
  std::error_code ec;
  if (!fs::exists(d.dir + "/tasks.json", ec)) return d;
  ASSIGN_OR_RETURN(d.merged, MergeSweep(d.dir));
  d.ran = true;
  for (const MergedTask& t : d.merged.tasks) {
    TaskView v;
    if (t.status == TaskStatus::kOk) {
      auto summary = ReadJsonFile(TaskSummaryPath(d.dir, t.task.index));
      if (summary.ok()) {
        v.setting_text = SettingText(*summary);
        if (auto runs = SummaryRuns(*summary, true); runs.ok()) v.timed = std::move(*runs);
      }
    }
    d.tasks.push_back(std::move(v));
  }
  for (size_t i = 0; i < d.tasks.size(); ++i) {
    const SweepTask& t = d.merged.tasks[i].task;
    auto g = std::find_if(d.groups.begin(), d.groups.end(),
                          [&](const Group& x) { return x.experiment == t.experiment && x.setting == t.setting; });
    if (g == d.groups.end()) g = d.groups.insert(d.groups.end(), Group{t.experiment, t.setting, {}});
    g->tasks.push_back(i);
  }
  return d;
}

// ---------------------------------------------------------------- rendering

std::string Fmt(double v, int digits) { return StrFormat("%.*f", digits, v); }

std::string SpreadText(const Spread& s, int digits) {
  if (s.n == 0) return "—";
  if (s.n == 1) return Fmt(s.mean, digits) + " (1 seed)";
  return Fmt(s.mean, digits) + " ± " + Fmt(s.sd, digits);
}

std::string UnitHeader(const ResearchColumn& c) {
  if (c.op == ResearchColumn::Op::kChange || c.op == ResearchColumn::Op::kShare) return c.name + ", %";
  if (c.op == ResearchColumn::Op::kRatio) return c.name + ", ×";
  return c.unit.empty() ? c.name : c.name + ", " + (c.unit == "x" ? "×" : c.unit);
}

std::string Cell(std::string s) {
  for (size_t at = 0; (at = s.find('|', at)) != std::string::npos; at += 2) s.replace(at, 1, "\\|");
  return s;
}

std::string MdRow(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& c : cells) out += " " + Cell(c) + " |";
  return out + "\n";
}

std::string MdTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::string out = MdRow(header) + "|";
  for (size_t i = 0; i < header.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : rows) out += MdRow(r);
  return out;
}

struct Row {
  std::string label, row;
  const Group* group;
};

std::vector<std::string> RowNamesOf(const SweepData& d, const Group& g) {
  if (!d.table.rows_are_runs) return d.table.rows.empty() ? std::vector<std::string>{""} : d.table.rows;
  std::vector<std::string> names;
  for (size_t i : g.tasks)
    for (const SummaryRun& r : d.merged.tasks[i].runs)
      if (std::find(names.begin(), names.end(), r.label) == names.end()) names.push_back(r.label);
  return names;
}

std::vector<Row> RowsOf(const SweepData& d) {
  std::vector<Row> rows;
  for (const Group& g : d.groups) {
    const auto label = d.table.labels.find(g.experiment);
    std::string base = label != d.table.labels.end() ? label->second : g.experiment;
    if (g.setting != "" && g.setting != "default") base += " (" + g.setting + ")";
    for (const std::string& name : RowNamesOf(d, g)) {
      std::string text = name.empty() ? base : d.groups.size() == 1 ? name : base + ": " + name;
      rows.push_back({text, name, &g});
    }
  }
  return rows;
}

Spread ColumnSpread(const SweepData& d, const ResearchColumn& c, const Row& row) {
  std::vector<double> values;
  for (size_t i : row.group->tasks)
    if (d.merged.tasks[i].status == TaskStatus::kOk)
      if (auto v = CellOf(c, d.merged.tasks[i].runs, row.row)) values.push_back(*v);
  return SpreadOf(values);
}

std::string ResearchCell(const ResearchColumn& c, const Row& row) {
  for (const std::string& key : {row.group->experiment, row.row, std::string("*")})
    if (auto it = c.research.find(key); it != c.research.end()) return it->second;
  return "—";
}

size_t OkSeeds(const SweepData& d, const Group& g) {
  size_t n = 0;
  for (size_t i : g.tasks) n += d.merged.tasks[i].status == TaskStatus::kOk;
  return n;
}

std::string SeedList(const SweepData& d, const Group& g) {
  std::string out;
  for (size_t i : g.tasks) out += (out.empty() ? "" : ", ") + std::to_string(d.merged.tasks[i].task.seed);
  return out;
}

std::string SettingLines(const SweepData& d) {
  std::string out;
  for (const Group& g : d.groups) {
    const auto label = d.table.labels.find(g.experiment);
    std::string name = (label != d.table.labels.end() ? label->second : g.experiment) +
                       (g.setting != "" && g.setting != "default" ? " (" + g.setting + ")" : "");
    // Distinct setting texts, each with the seeds that share it.
    std::vector<std::pair<std::string, std::string>> texts;
    for (size_t i : g.tasks) {
      const std::string& text = d.tasks[i].setting_text;
      if (text.empty()) continue;
      const std::string seed = std::to_string(d.merged.tasks[i].task.seed);
      auto it = std::find_if(texts.begin(), texts.end(), [&](const auto& p) { return p.first == text; });
      if (it == texts.end())
        texts.push_back({text, seed});
      else
        it->second += ", " + seed;
    }
    out += "- **" + name + "** — seeds " + SeedList(d, g) + StrFormat(" (%zu/%zu ran)", OkSeeds(d, g), g.tasks.size());
    if (texts.size() == 1) {
      out += ": " + texts[0].first + "\n";
    } else {
      out += ":\n";
      for (const auto& [text, seeds] : texts) out += "  - seed " + seeds + ": " + text + "\n";
    }
  }
  return out;
}

std::string FileStem(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

// Bars per row, with error bars (sd over seeds); returns the file written.
Result<std::string> WritePlot(const SweepData& d, const ResearchPlot& p, const std::vector<Row>& rows,
                              const std::string& out, size_t k) {
  BarChart chart;
  chart.subtitle = d.table.title;
  chart.reference = p.reference;
  for (const Row& r : rows) chart.groups.push_back(r.label);
  if (!p.column.empty()) {
    const auto c = std::find_if(d.table.columns.begin(), d.table.columns.end(),
                                [&](const ResearchColumn& x) { return x.name == p.column; });
    chart.title = p.title.empty() ? UnitHeader(*c) : p.title;
    chart.y_label = UnitHeader(*c) + " (mean ± sd over seeds)";
    BarSeries s{"ours", {}, {}};
    for (const Row& r : rows) {
      const Spread sp = ColumnSpread(d, *c, r);
      s.values.push_back(sp.n ? sp.mean : NAN);
      s.errors.push_back(sp.n > 1 ? sp.sd : 0);
    }
    chart.series.push_back(std::move(s));
  } else {
    chart.title = p.title.empty() ? p.metric : p.title;
    chart.y_label = p.metric + (p.unit.empty() ? "" : " (" + p.unit + ")") + ", mean ± sd over seeds";
    for (const std::string& run : p.runs) {
      ResearchColumn c{run, ResearchColumn::Op::kValue, p.metric, run, "", "", p.unit, 2, {}};
      BarSeries s{Substitute(run, ""), {}, {}};
      if (!s.name.empty() && s.name.back() == '*') s.name.pop_back();
      for (const Row& r : rows) {
        const Spread sp = ColumnSpread(d, c, r);
        s.values.push_back(sp.n ? sp.mean : NAN);
        s.errors.push_back(sp.n > 1 ? sp.sd : 0);
      }
      chart.series.push_back(std::move(s));
    }
  }
  const std::string file = d.spec.name + "_bars" + (k ? "_" + std::to_string(k + 1) : "") + ".svg";
  RETURN_IF_ERROR(WriteBarSvgFile(chart, out + "/" + file));
  return file;
}

// JCT CDF of one task's per-job CSVs (keep_outputs): every <run>_jobs.csv.
Result<std::string> WriteCdf(const SweepData& d, const ResearchCdf& c, const std::string& out) {
  const MergedTask* task = nullptr;
  for (const MergedTask& t : d.merged.tasks)
    if (t.task.experiment == c.experiment && (c.setting.empty() || t.task.setting == c.setting) &&
        (c.seed < 0 || t.task.seed == c.seed) && t.status == TaskStatus::kOk) {
      task = &t;
      break;
    }
  if (!task) return NotFound("no successful task of '" + c.experiment + "' for its JCT CDF");
  const std::string dir = TaskDir(d.dir, task->task.index) + "/out";
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().size() > 9 && e.path().string().ends_with("_jobs.csv")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) return NotFound(dir + ": no <run>_jobs.csv (set keep_outputs on '" + c.experiment + "')");
  LineChart chart{"JCT CDF: " + c.experiment + ", seed " + std::to_string(task->task.seed),
                  d.tasks[task->task.index].setting_text,
                  "job completion time (h, log scale)",
                  "fraction of jobs",
                  true,
                  {}};
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header;
    std::stringstream hs(line);
    for (std::string cell; std::getline(hs, cell, ',');) header.push_back(cell);
    const size_t col = std::find(header.begin(), header.end(), "turnaround_time") - header.begin();
    if (col >= header.size()) continue;
    std::vector<double> jct;
    while (std::getline(in, line)) {
      std::stringstream ls(line);
      std::string cell;
      for (size_t i = 0; i <= col && std::getline(ls, cell, ','); ++i) {
      }
      if (!cell.empty()) jct.push_back(std::max(1.0, std::strtod(cell.c_str(), nullptr)) / 3600);
    }
    std::string name = f.filename().string();
    chart.series.push_back(CdfSeries(name.substr(0, name.size() - 9), std::move(jct)));
  }
  const std::string file = d.spec.name + "_cdf_" + FileStem(c.experiment) + ".svg";
  RETURN_IF_ERROR(WriteSvgFile(chart, out + "/" + file));
  return file;
}

// The semantic layer's own cost, per experiment × run that carries it.
std::string CostTable(const SweepData& d) {
  std::vector<std::vector<std::string>> rows;
  for (const Group& g : d.groups) {
    std::vector<std::string> labels;
    for (size_t i : g.tasks)
      for (const SummaryRun& r : d.tasks[i].timed)
        if (std::find(labels.begin(), labels.end(), r.label) == labels.end()) labels.push_back(r.label);
    for (const std::string& label : labels) {
      std::vector<double> advised, fallback, adv_ms, tracker_s, checks, llm_h, diagnosed, refused;
      for (size_t i : g.tasks) {
        const SummaryRun* r = FindRun(d.tasks[i].timed, label);
        if (!r) continue;
        auto m = [&](const char* k) { return MetricOf(r, k); };
        std::optional<double> n = m("schedmate.advised"), hits = m("schedmate.hits");
        if (!n && m("ordered_by.history")) {
          hits = m("ordered_by.history");
          n = *hits + m("ordered_by.fallback").value_or(0);
        }
        const auto ms = m("schedmate.advisor_ms_total") ? m("schedmate.advisor_ms_total") : m("advisor_ms_total");
        if (n && *n > 0) {
          advised.push_back(*n);
          if (hits) fallback.push_back((1 - *hits / *n) * 100);
          if (ms) adv_ms.push_back(*ms / *n);
        }
        if (auto t = m("schedmate.tracker_ms_total")) tracker_s.push_back(*t / 1000);
        if (auto c = m("schedmate.checks")) checks.push_back(*c);
        if (auto w = m("advice_wait_s"); w && *w > 0) llm_h.push_back(*w / 3600);
        if (auto h = m("handler.diagnosed")) diagnosed.push_back(*h);
        if (auto h = m("handler.refused")) refused.push_back(*h);
      }
      if (advised.empty() && diagnosed.empty()) continue;
      auto cell = [](const std::vector<double>& v, int digits) {
        return v.empty() ? std::string("—") : SpreadText(SpreadOf(v), digits);
      };
      const auto gl = d.table.labels.find(g.experiment);
      std::string name = gl != d.table.labels.end() ? gl->second : g.experiment;
      if (g.setting != "" && g.setting != "default") name += " (" + g.setting + ")";
      rows.push_back({name, label, cell(advised, 0), cell(fallback, 1), cell(adv_ms, 3), cell(tracker_s, 2),
                      cell(checks, 0), cell(llm_h, 2), cell(diagnosed, 0), cell(refused, 0)});
    }
  }
  if (rows.empty()) return "";
  return "Semantic layer's cost (mean ± sd over seeds; CPU times measured on this machine; the LLM's GPU-hours "
         "modelled: the variant's latency × jobs advised on the one GPU it holds; fallback: no history match):\n\n" +
         MdTable({"experiment", "run", "jobs advised", "fallback %", "Advisor CPU ms/job", "Tracker CPU s",
                  "pack checks", "modelled LLM GPU-h", "Handler diagnoses", "Handler refused"},
                 rows);
}

struct WallStats {
  size_t tasks = 0, ok = 0;
  double sum = 0, longest = 0;
};

WallStats WallOf(const SweepData& d) {
  WallStats w;
  for (const MergedTask& t : d.merged.tasks) {
    ++w.tasks;
    w.ok += t.status == TaskStatus::kOk;
    if (t.result) w.sum += t.result->wall_s, w.longest = std::max(w.longest, t.result->wall_s);
  }
  return w;
}

std::string WallAppendix(const SweepData& d) {
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < d.merged.tasks.size(); ++i) {
    const MergedTask& t = d.merged.tasks[i];
    std::string replays;
    for (const SummaryRun& r : d.tasks[i].timed)
      if (auto w = MetricOf(&r, "wall_s")) replays += (replays.empty() ? "" : ", ") + r.label + " " + Fmt(*w, 2);
    rows.push_back({std::to_string(t.task.index), t.task.experiment, t.task.setting, std::to_string(t.task.seed),
                    TaskStatusName(t.status), t.result ? Fmt(t.result->wall_s, 1) : "—",
                    replays.empty() ? "—" : replays});
  }
  return MdTable({"task", "experiment", "setting", "seed", "status", "wall s", "replays (wall s each)"}, rows);
}

std::string Duration(double s) {
  if (s < 120) return Fmt(s, 1) + " s";
  return StrFormat("%d min %02d s (%.0f s)", static_cast<int>(s) / 60, static_cast<int>(s) % 60, s);
}

Result<std::string> SweepSection(const SweepData& d, const std::string& out, const std::string& suite_dir) {
  const ResearchTable& t = d.table;
  std::string md = "## " + t.title + "\n\n";
  const std::string file = (fs::path(suite_dir) / fs::path(d.spec.file).filename()).string();
  md += "Sweep `" + d.spec.name + "` (`" + file + "`). Research: " + t.source +
        (t.claim.empty() ? "" : " — " + t.claim) + "\n\n";
  if (!d.ran) return md + "Not run (select it with `--only " + d.spec.name + "`, or run the whole suite).\n\n";
  md += "Settings:\n" + SettingLines(d) + "\n";
  const std::vector<Row> rows = RowsOf(d);
  std::vector<std::string> header = {"", "seeds"};
  for (const ResearchColumn& c : t.columns) {
    header.push_back(UnitHeader(c));
    if (!c.research.empty()) header.push_back("research");
  }
  std::vector<std::vector<std::string>> cells;
  for (const Row& r : rows) {
    std::vector<std::string> line = {r.label, StrFormat("%zu/%zu", OkSeeds(d, *r.group), r.group->tasks.size())};
    for (const ResearchColumn& c : t.columns) {
      line.push_back(SpreadText(ColumnSpread(d, c, r), c.digits));
      if (!c.research.empty()) line.push_back(ResearchCell(c, r));
    }
    cells.push_back(std::move(line));
  }
  md += "Ours: mean ± sample sd over the seeds that ran (seeds = ran / planned).\n\n" + MdTable(header, cells) + "\n";
  for (size_t k = 0; k < t.plots.size(); ++k) {
    ASSIGN_OR_RETURN(std::string file, WritePlot(d, t.plots[k], rows, out, k));
    md += "![" + (t.plots[k].title.empty() ? t.plots[k].column + t.plots[k].metric : t.plots[k].title) + "](" + file +
          ")\n";
  }
  for (const ResearchCdf& c : t.cdfs) {
    auto file = WriteCdf(d, c, out);
    md += file.ok() ? "![JCT CDF " + c.experiment + "](" + *file + ")\n"
                    : "(no JCT CDF: " + file.status().message() + ")\n";
  }
  md += "\n";
  if (std::string cost = CostTable(d); !cost.empty()) md += cost + "\n";
  if (!t.notes.empty()) {
    for (const std::string& n : t.notes) md += "- " + n + "\n";
    md += "\n";
  }
  const WallStats w = WallOf(d);
  md += StrFormat("Wall: %zu tasks (%zu ok), %s of task time, longest task %s.\n\n", w.tasks, w.ok,
                  Duration(w.sum).c_str(), Duration(w.longest).c_str());
  for (const MergedTask& mt : d.merged.tasks)
    if (mt.status != TaskStatus::kOk)
      md +=
          StrFormat("**%s**: task %zu (%s / %s / seed %lld): %s\n\n",
                    mt.status == TaskStatus::kFailed ? "FAILED" : "MISSING", mt.task.index, mt.task.experiment.c_str(),
                    mt.task.setting.c_str(), static_cast<long long>(mt.task.seed), mt.why.c_str());
  return md;
}

}  // namespace

Result<ResearchTable> ParseResearchTable(const SweepSpec& spec, const std::string& text) {
  if (spec.research.is_null()) return DefaultTable(spec);
  ResearchParser p(text, spec.file);
  ASSIGN_OR_RETURN(ResearchTable t, p.Table(spec.research));
  for (const ResearchCdf& c : t.cdfs) {
    const bool known = std::any_of(spec.experiments.begin(), spec.experiments.end(),
                                   [&](const SweepExperiment& e) { return e.name == c.experiment; });
    if (!known) return p.Error({"cdf"}, "'" + c.experiment + "' is not an experiment of this sweep");
  }
  return t;
}

Result<ResearchTable> ReadResearchTable(const std::string& sweep_file) {
  ASSIGN_OR_RETURN(std::string text, ReadFileCapped(sweep_file, 16u << 20));
  ASSIGN_OR_RETURN(SweepSpec spec, ParseSweep(text, sweep_file));
  return ParseResearchTable(spec, text);
}

Spread SpreadOf(const std::vector<double>& values) {
  Spread s;
  double sum = 0;
  for (double v : values)
    if (std::isfinite(v)) sum += v, ++s.n;
  if (s.n == 0) return s;
  s.mean = sum / static_cast<double>(s.n);
  if (s.n > 1) {
    double sq = 0;
    for (double v : values)
      if (std::isfinite(v)) sq += (v - s.mean) * (v - s.mean);
    s.sd = std::sqrt(sq / static_cast<double>(s.n - 1));
  }
  return s;
}

Result<std::vector<SweepSpec>> ReadSuite(const std::string& dir, const std::vector<std::string>& only) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  if (ec) return NotFound(dir + ": cannot read the suite directory: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<SweepSpec> all;
  std::set<std::string> names;
  for (const fs::path& f : files) {
    ASSIGN_OR_RETURN(SweepSpec spec, ReadSweepFile(f.string()));
    ASSIGN_OR_RETURN(std::string text, ReadFileCapped(f.string(), 16u << 20));
    RETURN_IF_ERROR(ParseResearchTable(spec, text).status());
    if (!names.insert(spec.name).second)
      return InvalidArgument(f.string() + ": sweep name '" + spec.name + "' is used by another file of " + dir);
    all.push_back(std::move(spec));
  }
  if (all.empty()) return InvalidArgument(dir + ": no sweep files (*.json)");
  if (only.empty()) return all;
  std::vector<SweepSpec> picked;
  for (const std::string& name : only) {
    auto it = std::find_if(all.begin(), all.end(), [&](const SweepSpec& s) { return s.name == name; });
    if (it == all.end()) {
      std::string known;
      for (const auto& s : all) known += " " + s.name;
      return InvalidArgument("--only " + name + ": no such sweep in " + dir + "; known:" + known);
    }
    if (std::none_of(picked.begin(), picked.end(), [&](const SweepSpec& s) { return s.name == name; }))
      picked.push_back(*it);
  }
  return picked;
}

Json SuiteRunToJson(const SuiteRun& r) {
  return {{"suite", r.suite_dir}, {"command", r.command}, {"host", r.host},         {"started", r.started},
          {"sweeps", r.sweeps},   {"wall_s", r.wall_s},   {"parallel", r.parallel}, {"cores", r.cores}};
}

Result<SuiteRun> ReadSuiteRun(const std::string& out) {
  ASSIGN_OR_RETURN(Json j, ReadJsonFile(out + "/suite.json"));
  SuiteRun r;
  try {
    r.suite_dir = j.at("suite").get<std::string>();
    r.command = j.value("command", "");
    r.host = j.value("host", "");
    r.started = j.value("started", "");
    r.sweeps = j.value("sweeps", std::vector<std::string>{});
    r.wall_s = j.value("wall_s", 0.0);
    r.parallel = j.value("parallel", 1);
    r.cores = j.value("cores", 0);
  } catch (const std::exception& e) {
    return InvalidArgument(out + "/suite.json: " + e.what());
  }
  return r;
}

Status WriteResearchReport(const std::string& suite_dir, const std::string& out, const SuiteRun& last) {
  ASSIGN_OR_RETURN(std::vector<SweepSpec> specs, ReadSuite(suite_dir, {}));
  std::vector<SweepData> sweeps;
  for (const SweepSpec& spec : specs) {
    ASSIGN_OR_RETURN(SweepData d, LoadSweep(spec, out));
    sweeps.push_back(std::move(d));
  }
  std::string md = "# schedmate against the research: every table from one command\n\n";
  md += "Written by `" + last.command + "`" + (last.host.empty() ? "" : " on " + last.host) +
        StrFormat(" (%d cores, -j %d)", last.cores, last.parallel) +
        (last.started.empty() ? "" : ", started " + last.started) + ". End to end: **" + Duration(last.wall_s) + "**";
  if (last.sweeps.size() != sweeps.size()) {
    std::string list;
    for (const auto& s : last.sweeps) list += (list.empty() ? "" : ", ") + s;
    md += " for the sweeps " + list;
  }
  md +=
      ".\nRe-render from the results without rerunning: `schedmate experiments report DIR`. Format and "
      "options: docs/experiments.md (\"Research suites\"). The research's numbers: ../shared/PAPER.md "
      "(the section is named with each table); ours are means ± sample sd over seeds, each table with its "
      "settings and seeds.\n\n";
  std::vector<std::vector<std::string>> contents;
  double total = 0;
  for (const SweepData& d : sweeps) {
    const WallStats w = d.ran ? WallOf(d) : WallStats{};
    total += w.sum;
    contents.push_back({d.table.title, "`" + d.spec.name + "`", d.ran ? StrFormat("%zu/%zu", w.ok, w.tasks) : "not run",
                        d.ran ? Duration(w.sum) : "—", d.ran ? Duration(w.longest) : "—"});
  }
  md += MdTable({"table", "sweep", "tasks ok", "task time", "longest task"}, contents);
  md += "\nTask time summed over every sweep: " + Duration(total) + " (on " + std::to_string(last.parallel) +
        " parallel slots).\n\n";
  for (const SweepData& d : sweeps) {
    ASSIGN_OR_RETURN(std::string section, SweepSection(d, out, suite_dir));
    md += section;
  }
  if (auto notes = ReadFileCapped(suite_dir + "/notes.md", 1u << 20); notes.ok()) md += *notes + "\n";
  md += "## Wall time of every task\n\n";
  for (const SweepData& d : sweeps)
    if (d.ran) md += "### " + d.spec.name + "\n\n" + WallAppendix(d) + "\n";
  return WriteFileAtomically(out + "/README.md", md);
}

}  // namespace schedmate

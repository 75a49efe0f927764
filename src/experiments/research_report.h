// A research suite: a directory of sweep files (configs/research/*.json),
// each reproducing one table of the research and saying so in its
// "research" section — the table's title, the PAPER.md section it comes
// from, the research's claim, and the columns: what to compute from each
// seed's runs (a metric, a ratio of two runs, a change in %, a share) and
// the research's number to print beside ours. `schedmate experiments run
// SUITE --out DIR` runs every sweep (one pool of -j slots) into DIR/<sweep>/
// and writes DIR/README.md: one markdown table per sweep (ours as mean ± sd
// over the seeds that succeeded, the research's number beside), the
// setting of every experiment and its seeds, bar charts with error bars and
// JCT CDFs (SVG), the semantic layer's cost, and the wall time of every
// task. docs/experiments.md, "Research suites", describes the format.
#ifndef SCHEDMATE_EXPERIMENTS_RESEARCH_REPORT_H_
#define SCHEDMATE_EXPERIMENTS_RESEARCH_REPORT_H_

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "core/status.h"
#include "experiments/sweep_spec.h"

namespace schedmate {

// One column: a number per seed, from that seed's runs.
struct ResearchColumn {
  enum class Op { kValue, kRatio, kChange, kShare };
  std::string name;
  Op op = Op::kValue;
  std::string metric;  // e.g. "avg_jct_s", "schedmate.hits"
  std::string run;     // the run's label; "{row}" is the row's name, a trailing '*' matches a prefix
  std::string base;    // kRatio: base / run; kChange: run / base - 1 (in %)
  std::string over;    // kShare: metric / over of the same run (in %)
  std::string unit;    // "h" (seconds shown in hours), "%" (fraction shown in %), "x", or ""
  int digits = 2;
  // The research's number: by experiment name, row name, or "*" (any).
  std::map<std::string, std::string> research;
};

struct ResearchPlot {
  std::string title;
  std::string column;             // bars of this column's ours (mean ± sd) per row
  std::string metric, unit;       // or: this metric of each of `runs`, per row
  std::vector<std::string> runs;  // run labels ("{row}" allowed)
  double reference = std::numeric_limits<double>::quiet_NaN();
};

struct ResearchCdf {
  std::string experiment, setting;  // setting "" = the experiment's first
  int64_t seed = -1;                // -1 = the first seed
};

struct ResearchTable {
  std::string title, source, claim;
  std::map<std::string, std::string> labels;  // experiment name → row label
  std::vector<std::string> rows;              // row names ({row}); empty: one row per experiment × setting
  bool rows_are_runs = false;                 // "rows": "runs": a row per run label
  std::vector<ResearchColumn> columns;
  std::vector<ResearchPlot> plots;
  std::vector<ResearchCdf> cdfs;
  std::vector<std::string> notes;
};

// The sweep's "research" section (a default table of JCT and queueing delay
// per run when it has none). Errors name file:line: field 'research.…'.
Result<ResearchTable> ParseResearchTable(const SweepSpec& spec, const std::string& text);
Result<ResearchTable> ReadResearchTable(const std::string& sweep_file);

// mean ± sample sd of the finite values; n = how many.
struct Spread {
  double mean = 0, sd = 0;
  size_t n = 0;
};
Spread SpreadOf(const std::vector<double>& values);

// The sweep files of a suite directory (its *.json, by name), parsed; with
// `only`, just those sweeps (by sweep name), an error naming the known ones
// when one is unknown.
Result<std::vector<SweepSpec>> ReadSuite(const std::string& dir, const std::vector<std::string>& only);

struct SuiteRun {
  std::string suite_dir, command, host, started;  // started: UTC, ISO 8601
  std::vector<std::string> sweeps;                // run this time
  double wall_s = 0;
  int parallel = 1, cores = 0;
};

// Writes OUT/README.md and OUT/<sweep>_*.svg from every sweep of the suite
// that has a directory OUT/<sweep>/ (a sweep not run is listed as such).
// `last` is the run that just ended (or the one recorded in OUT/suite.json).
// The suite directory's notes.md, if any, is appended ("Not in this suite").
Status WriteResearchReport(const std::string& suite_dir, const std::string& out, const SuiteRun& last);

Json SuiteRunToJson(const SuiteRun& r);
Result<SuiteRun> ReadSuiteRun(const std::string& out);  // OUT/suite.json

}  // namespace schedmate

#endif  // SCHEDMATE_EXPERIMENTS_RESEARCH_REPORT_H_

// `schedmate sia --config configs/sia/<workload>.json`: plain Sia and Sia +
// schedmate on every workload file of a Sia workload folder (or one file),
// printing avg / p99 JCT and makespan in hours per file and their mean ±
// std, with the history's hit rate and the profiling it saved; --json prints
// all of it as one JSON object instead. The runner is
// experiments/sia_experiment, the output experiments/sia_report; see docs/sia.md.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/data_paths.h"
#include "core/json.h"
#include "experiments/sia_report.h"

namespace schedmate {
namespace {

struct SiaArgs {
  std::string config, shared, workloads, bootstrap, runs, history;
  int max_files = 0;
  bool json = false;
};

Status ApplyFlags(const SiaArgs& a, SiaExperimentConfig& c) {
  c.shared = a.shared;
  if (!a.workloads.empty()) c.workloads = a.workloads;
  if (!a.bootstrap.empty()) {
    ASSIGN_OR_RETURN(c.options.bootstrap, ParseSiaBootstrap(a.bootstrap, "--bootstrap"));
  }
  if (!a.runs.empty()) {
    ASSIGN_OR_RETURN(c.runs, ParseSiaRuns(a.runs, "--runs"));
  }
  if (!a.history.empty()) c.history = a.history;
  return Status::Ok();
}

void RunSiaCommand(const SiaArgs& a) {
  auto c = ReadSiaExperimentConfig(a.config, FindSharedDir(a.shared));
  if (!c.ok()) CommandFailed(c.status());
  if (Status s = ApplyFlags(a, *c); !s.ok()) CommandFailed(s);
  if (a.json) {
    auto r = RunSiaComparison(*c, a.max_files);
    if (!r.ok()) CommandFailed(r.status());
    std::printf("%s\n", DumpJson(SiaComparisonToJson(*c, *r), 2).c_str());
    return;
  }
  std::fputs(FormatSiaHeader(*c).c_str(), stdout);
  auto r = RunSiaComparison(*c, a.max_files, [](const SiaFileResult& f) {
    std::fputs(FormatSiaFile(f).c_str(), stdout);
    std::fflush(stdout);
  });
  if (!r.ok()) CommandFailed(r.status());
  std::fputs(FormatSiaSummary(*r).c_str(), stdout);
}

}  // namespace

void AddSiaCommand(CLI::App& app) {
  auto a = std::make_shared<SiaArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sia", "Run Sia (SOSP'23) and Sia + schedmate on Sia's workload files; prints avg/p99 JCT, makespan");
  cmd->add_option("--config", a->config, "configs/sia/<workload>.json")->required();
  cmd->add_option("--shared", a->shared, "the shared data directory (default: found automatically)");
  cmd->add_option("--workloads", a->workloads, "a workload CSV or folder (overrides the config)");
  cmd->add_option("--bootstrap", a->bootstrap, "plain Sia's bootstrap: profile | as_you_go (overrides the config)");
  cmd->add_option("--runs", a->runs, "both | sia | schedmate (default: both, or the config's schedmate.runs)");
  cmd->add_option("--history", a->history, "sqlite | redis://host:port[/prefix] (default sqlite)");
  cmd->add_option("--max-files", a->max_files, "run only the first N workload files")->check(CLI::Range(0, 1000000));
  cmd->add_flag("--json", a->json, "Print the results (per file and the mean ± std) as one JSON object");
  cmd->callback([a] { RunSiaCommand(*a); });
}

}  // namespace schedmate

// `schedmate sia --config configs/sia/<workload>.json`: plain Sia and Sia +
// schedmate on every workload file of a Sia workload folder (or one file),
// printing avg / p99 JCT and makespan in hours per file and their mean ±
// std, with the history's hit rate and the profiling it saved; --json prints
// all of it as one JSON object instead (with a flat "runs" array, so that
// `experiments run` can sweep it over --seed). The runner is
// experiments/sia_experiment, the output experiments/sia_report; see docs/sia.md.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/progress.h"
#include "core/data_paths.h"
#include "core/json.h"
#include "experiments/sia_report.h"

namespace schedmate {
namespace {

struct SiaArgs {
  std::string config, shared, workloads, bootstrap, runs, history;
  std::string progress = "auto";
  int max_files = 0;
  int64_t seed = -1;  // -1: the config's schedmate.world_seed
  bool file_per_seed = false;
  bool prefer_current = false;
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
  if (a.seed >= 0) c.mapping.seed = static_cast<uint64_t>(a.seed);
  if (a.prefer_current) c.params.prefer_current = true;
  return Status::Ok();
}

Result<SiaFileSelection> SelectionOf(const SiaArgs& a, const SiaExperimentConfig& c) {
  if (!a.file_per_seed) return SiaFileSelection{a.max_files, 0};
  if (a.seed < 1) return InvalidArgument("--file-per-seed needs --seed N (N >= 1): seed N runs the N-th file");
  if (a.max_files > 1) return InvalidArgument("--file-per-seed runs one file; it cannot be combined with --max-files");
  return SiaFileSelection{1, static_cast<int>((a.seed - 1) % 1000000)};
}

// Per workload file on stderr, so --json's stdout stays one object.
void ShowProgress(bool on, size_t done, size_t total, const SiaFileResult& f) {
  if (!on) return;
  std::fprintf(stderr, "sia: %zu/%zu files done (%s)\n", done, total, f.file.c_str());
  std::fflush(stderr);
}

void RunSiaCommand(const SiaArgs& a) {
  auto c = ReadSiaExperimentConfig(a.config, FindSharedDir(a.shared));
  if (!c.ok()) CommandFailed(c.status());
  if (Status s = ApplyFlags(a, *c); !s.ok()) CommandFailed(s);
  auto selection = SelectionOf(a, *c);
  if (!selection.ok()) CommandFailed(selection.status());
  const bool progress = a.progress == "on" || (a.progress == "auto" && a.json && ConsoleProgress::Wanted("auto"));
  const size_t total = SiaWorkloadFiles(c->workloads, *selection).size();
  size_t done = 0;
  if (a.json) {
    auto r =
        RunSiaComparison(*c, *selection, [&](const SiaFileResult& f) { ShowProgress(progress, ++done, total, f); });
    if (!r.ok()) CommandFailed(r.status());
    std::printf("%s\n", DumpJson(SiaComparisonToJson(*c, *r), 2).c_str());
    return;
  }
  std::fputs(FormatSiaHeader(*c).c_str(), stdout);
  auto r = RunSiaComparison(*c, *selection, [](const SiaFileResult& f) {
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
  cmd->add_option("--seed", a->seed,
                  "the semantic world's seed: which repositories the jobs run, hence what history matches "
                  "(overrides schedmate.world_seed)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 62));
  cmd->add_flag("--file-per-seed", a->file_per_seed,
                "run only the seed's workload file (seed N: the N-th in natural order, wrapping), so a sweep's "
                "seeds spread over workload files as Sia's own tables do");
  cmd->add_option("--progress", a->progress, "per-file progress on stderr with --json: auto | on | off")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->capture_default_str();
  cmd->add_flag("--prefer-current", a->prefer_current,
                "Among allocations of equal rounded utility keep each job's current one (sia.prefer_current; "
                "off by default, see docs/sia.md)");
  cmd->add_flag("--json", a->json, "Print the results (per file and the mean ± std) as one JSON object");
  cmd->callback([a] { RunSiaCommand(*a); });
}

}  // namespace schedmate

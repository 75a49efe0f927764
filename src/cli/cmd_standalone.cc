// `schedmate standalone`: the standalone policy (SJF on the Advisor's
// durations) without and with the Failure Handler beside FIFO, QSSF,
// Tiresias and SJF-oracle on the same jobs, failures on. See
// src/policies/standalone/README.md and docs/standalone.md.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/progress.h"
#include "core/data_paths.h"
#include "core/json.h"
#include "experiments/standalone_experiment.h"
#include "sim/outputs.h"

namespace schedmate {
namespace {

struct StandaloneArgs {
  std::string config, shared, trace, format, synth, from, to, out;
  int64_t max_jobs = 0, seed = -1, synth_jobs = 0, checkpoint_interval_s = -1;
  double node_fault_rate = -1;
  std::vector<double> handler_error_rates;
  int32_t nodes = 0, max_gpus = 0;
  double load = 0;
  bool no_failures = false, no_handler = false, json = false;
  std::string progress = "auto";
};

StandaloneExperimentConfig FromConfigFile(const StandaloneArgs& a) {
  auto j = ReadJsonFile(a.config);
  if (!j.ok()) CommandFailed(j.status());
  auto c = StandaloneConfigFromJson(*j, a.config);
  if (!c.ok()) CommandFailed(c.status());
  // Paths in a config: ${SHARED}/… under the shared data, else relative to the config file.
  if (!c->shared.empty() && a.shared.empty()) {
    auto s = ResolveConfigPath(c->shared, a.config, "shared", SharedDir{});
    if (!s.ok()) CommandFailed(s.status());
    c->shared = *s;
  }
  auto trace = ResolveConfigPath(c->trace_path, a.config, "trace.path", FindSharedDir(a.shared.empty() ? c->shared : a.shared));
  if (!trace.ok()) CommandFailed(trace.status());
  c->trace_path = *trace;
  return std::move(c).value();
}

void ApplyFlags(const StandaloneArgs& a, StandaloneExperimentConfig& c) {
  if (!a.shared.empty()) c.shared = a.shared;
  if (!a.trace.empty()) c.trace_path = a.trace, c.synth.clear();
  if (!a.synth.empty()) c.synth = a.synth, c.trace_path.clear();
  if (a.synth_jobs > 0) c.synth_jobs = static_cast<int32_t>(a.synth_jobs);
  if (a.checkpoint_interval_s >= 0) c.failures.checkpoint_interval_s = a.checkpoint_interval_s;
  if (a.node_fault_rate >= 0) c.failures.node_fault_rate_per_node_hour = a.node_fault_rate;
  if (!a.handler_error_rates.empty()) c.handler_error_rates = a.handler_error_rates;
  if (!a.format.empty()) c.trace_format = a.format;
  if (!a.from.empty()) c.from = a.from;
  if (!a.to.empty()) c.to = a.to;
  if (a.max_jobs > 0) c.max_jobs = a.max_jobs;
  if (a.max_gpus > 0) c.max_gpus = a.max_gpus;
  if (a.nodes > 0) c.nodes = a.nodes;
  if (a.load > 0) c.target_load = a.load, c.nodes = a.nodes;
  if (a.seed >= 0) c.seed = static_cast<uint64_t>(a.seed), c.mapping.seed = static_cast<uint64_t>(a.seed);
  if (a.no_failures) c.failures_on = false;
  if (a.no_handler) c.handler_run = false;
}

void WriteOut(const StandaloneComparison& r, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream(dir + "/summary.json") << DumpJson(StandaloneComparisonToJson(r), 2) << "\n";
  std::ofstream(dir + "/table.txt") << FormatStandaloneTable(r);
  std::vector<PolicyRun> runs;
  for (const auto& run : r.runs) runs.push_back(run.run);
  if (Status s = WritePlots(runs, dir, r.setting); !s.ok()) CommandFailed(s);
  for (const auto& run : r.runs) {  // <run>_jobs.csv, as `lucid --out` writes them
    std::string file;
    for (char ch : run.label.substr(0, run.label.find(" ("))) file += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' ? ch : '_';
    if (Status s = WriteJobsCsvFile(run.run.result, dir + "/" + file + "_jobs.csv"); !s.ok()) CommandFailed(s);
  }
}

void RunStandalone(const StandaloneArgs& a) {
  StandaloneExperimentConfig c = a.config.empty() ? StandaloneExperimentConfig{} : FromConfigFile(a);
  ApplyFlags(a, c);
  if (c.trace_path.empty() && c.synth.empty())
    CommandFailed(InvalidArgument("give --config FILE, --trace FILE or --synth PROFILE"));
  if (Status s = c.failures.Validate(); !s.ok()) CommandFailed(s);
  ConsoleProgress progress(ConsoleProgress::Wanted(a.progress));
  auto r = RunStandaloneComparison(c, [&](const std::string& label, const SimProgress& p) { progress.Update(label, p); });
  progress.Finish();
  if (!r.ok()) CommandFailed(r.status());
  if (!r->catalog_notice.empty()) std::fprintf(stderr, "%s\n", r->catalog_notice.c_str());
  if (!a.out.empty()) WriteOut(*r, a.out);
  if (a.json) {
    std::printf("%s\n", DumpJson(StandaloneComparisonToJson(*r), 2).c_str());
    return;
  }
  std::printf("%s", FormatStandaloneTable(*r).c_str());
  if (!a.out.empty()) std::printf("\nwrote %s/summary.json, table.txt, plots and <run>_jobs.csv\n", a.out.c_str());
}

}  // namespace

void AddStandaloneCommand(CLI::App& app) {
  auto a = std::make_shared<StandaloneArgs>();
  CLI::App* cmd = app.add_subcommand(
      "standalone", "Standalone schedmate (SJF on the Advisor's durations) without and with the Failure Handler,\n"
                    "beside FIFO, QSSF, Tiresias and SJF-oracle on the same jobs, with simulated failures.");
  cmd->add_option("--config", a->config, "Experiment JSON (configs/standalone/*.json); flags override it. Its paths\n"
                                         "are relative to the file; ${SHARED}/… is under the shared data directory");
  cmd->add_option("--shared", a->shared, "Shared data directory (traces, the workload catalog's measurements)");
  cmd->add_option("--trace", a->trace, "Trace file");
  cmd->add_option("--format", a->format, "Trace format (auto)");
  cmd->add_option("--synth", a->synth, "Or a synthetic trace of this cluster profile (seren, kalos: Acme; venus, saturn, earth, uranus: Helios; see schedmate synth)");
  cmd->add_option("--jobs", a->synth_jobs, "Jobs in the synthetic trace (default 6000)")->check(CLI::Range(1, 10000000));
  cmd->add_option("--checkpoint-interval", a->checkpoint_interval_s, "Seconds of work between checkpoints (0 = none)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--node-fault-rate", a->node_fault_rate, "Node faults per node-hour (default 1.23e-4)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--handler-error-rate", a->handler_error_rates,
                  "One more run per rate: recovery decided from the truth, wrong at this rate (repeatable)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--from", a->from, "Keep jobs submitted from this day (YYYY-MM-DD)");
  cmd->add_option("--to", a->to, "… to this day (exclusive)");
  cmd->add_option("--max-jobs", a->max_jobs, "Keep at most this many jobs (seeded sample)");
  cmd->add_option("--max-gpus", a->max_gpus, "Cap each job's GPU request")->check(CLI::Range(1, 100000));
  cmd->add_option("--nodes", a->nodes, "Pool nodes (default: sized by --load)")->check(CLI::Range(1, 1000000));
  cmd->add_option("--load", a->load, "Size the pool for this offered load")->check(CLI::Range(0.01, 100.0));
  cmd->add_option("--seed", a->seed, "Seed of the sample, the world mapping and the failure draws");
  cmd->add_flag("--no-failures", a->no_failures, "Replay without failures (and without the Handler run)");
  cmd->add_flag("--no-handler", a->no_handler, "Skip the run with the Failure Handler");
  cmd->add_option("--out", a->out, "Write summary.json, table.txt and plots here");
  cmd->add_flag("--json", a->json, "Print the results as JSON");
  cmd->add_option("--progress", a->progress, "auto | on | off")->capture_default_str();
  cmd->callback([a] { RunStandalone(*a); });
}

}  // namespace schedmate

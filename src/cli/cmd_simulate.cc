// `schedmate simulate`: replay a trace under one or more policies.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "experiments/experiment.h"
#include "cli/progress.h"
#include "core/data_paths.h"
#include "sim/outputs.h"

namespace schedmate {
namespace {

struct SimulateArgs {
  std::string config_path, save_config;
  std::string trace, format = "auto", synthetic, duration_model;
  int32_t jobs = 2000;
  double load = 0.9, rate = 0;
  std::string vc_config;
  int32_t nodes = 0, gpus_per_node = 8;
  bool merge_vcs = false;
  std::string unknown_vc = "drop";
  std::string policies;
  std::string estimator, placement, restart_overhead;
  std::string backfill, backfill_estimate, backfill_overdue;
  int64_t seed = 1;
  bool json = false;
  std::string jobs_out, out_dir, progress = "auto";
};

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

Result<ExperimentConfig> BuildConfig(const SimulateArgs& a, const CLI::App& cmd) {
  ExperimentConfig c;
  if (!a.config_path.empty()) {
    ASSIGN_OR_RETURN(Json j, ReadJsonFile(a.config_path));
    ASSIGN_OR_RETURN(c, ExperimentFromJson(j, a.config_path));
    // Its paths: ${SHARED}/… under the shared data, else relative to the config file.
    SharedDir shared = FindSharedDir();
    ASSIGN_OR_RETURN(c.trace_path, ResolveConfigPath(c.trace_path, a.config_path, "trace.path", shared));
    ASSIGN_OR_RETURN(c.vc_config_path, ResolveConfigPath(c.vc_config_path, a.config_path, "cluster.vc_config", shared));
  }
  auto given = [&](const char* flag) { return cmd.count(flag) > 0; };
  if (given("--trace")) { c.trace_path = a.trace; c.synth_profile.clear(); }
  if (given("--format")) c.trace_format = a.format;
  if (given("--duration-model")) c.duration_model = a.duration_model;
  if (given("--synthetic")) c.synth_profile = a.synthetic;
  if (given("--jobs")) c.synth_jobs = a.jobs;
  if (given("--load")) c.synth_load = a.load;
  if (given("--rate")) c.synth_rate = a.rate;
  if (given("--vc-config")) c.vc_config_path = a.vc_config;
  if (given("--nodes")) c.nodes = a.nodes;
  if (given("--gpus-per-node")) c.gpus_per_node = a.gpus_per_node;
  if (given("--merge-vcs")) c.merge_vcs = a.merge_vcs;
  if (given("--unknown-vc")) c.unknown_vc_is_error = a.unknown_vc == "error";
  if (given("--seed")) c.seed = static_cast<uint64_t>(a.seed);
  if (given("--policy") || c.policies.empty()) {
    c.policies.clear();
    std::string list = a.policies.empty() ? "fifo" : a.policies;
    if (list == "all") list = "fifo,sjf,qssf,tiresias-original,tiresias-lucid,tiresias-pollux";
    for (const auto& name : SplitCommas(list)) c.policies.push_back({.name = name});
  }
  for (auto& p : c.policies) {
    p.seed = c.seed;
    if (given("--estimator")) p.estimator = a.estimator;
    if (given("--placement")) p.placement = a.placement;
    if (given("--restart-overhead")) p.restart_overhead = a.restart_overhead;
    const bool queue_policy = p.name.rfind("tiresias", 0) != 0;  // Tiresias preempts: no queue to backfill
    if (given("--backfill") && queue_policy) p.backfill = a.backfill;
    if (given("--backfill-estimate") && queue_policy) p.backfill_estimate = a.backfill_estimate;
    if (given("--backfill-overdue") && queue_policy) p.backfill_overdue = a.backfill_overdue;
  }
  return c;
}

void Run(const SimulateArgs& a, const CLI::App& cmd) {
  auto config = BuildConfig(a, cmd);
  if (!config.ok()) CommandFailed(config.status());
  if (!a.save_config.empty())
    if (Status s = WriteExperimentFile(*config, a.save_config); !s.ok()) CommandFailed(s);
  auto prepared = PrepareExperiment(*config);
  if (!prepared.ok()) CommandFailed(prepared.status());
  if (!a.json)
    for (const auto& n : prepared->notes) std::printf("note: %s\n", n.c_str());
  ConsoleProgress progress(ConsoleProgress::Wanted(a.progress));
  auto runs = RunPolicies(*prepared, *config,
                          [&](const std::string& name, const SimProgress& p) {
                            progress.Update(name, p);
                          });
  progress.Finish();
  if (!runs.ok()) CommandFailed(runs.status());
  if (!a.jobs_out.empty()) {
    for (const auto& r : *runs) {
      std::string path = a.jobs_out;
      if (runs->size() > 1) {
        std::filesystem::path p(a.jobs_out);
        path = (p.parent_path() / (p.stem().string() + "." + r.summary.policy +
                                   p.extension().string())).string();
      }
      Status s = WriteJobsCsvFile(r.result, path);
      if (!s.ok()) CommandFailed(s);
    }
  }
  if (!a.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.out_dir, ec);
    Status s = WriteExperimentFile(*config, (std::filesystem::path(a.out_dir) / "experiment.json").string());
    if (s.ok()) s = WriteRunFiles(*runs, a.out_dir);
    std::string source = config->synth_profile.empty() ? std::filesystem::path(config->trace_path).filename().string()
                                                      : "synthetic '" + config->synth_profile + "'";
    std::string setting = source + ", " + std::to_string(prepared->trace.jobs.size()) + " jobs, " +
                          std::to_string(prepared->cluster.TotalGpus()) + " GPUs";
    if (s.ok()) s = WritePlots(*runs, a.out_dir, setting);
    if (!s.ok()) CommandFailed(s);
  }
  if (a.json) {
    Json out = Json::array();
    for (const auto& r : *runs) out.push_back(SummaryToJson(r.summary));
    std::printf("%s\n", DumpJson(out.size() == 1 ? out[0] : out).c_str());
    return;
  }
  std::printf("%s", FormatComparisonTable(*runs).c_str());
  // Rejections depend on the cluster, not the policy: one note when every run rejected the same jobs.
  bool same = std::all_of(runs->begin(), runs->end(),
                          [&](const PolicyRun& r) { return r.summary.rejected == runs->front().summary.rejected; });
  if (same && runs->front().summary.rejected)
    std::printf("note: %lld jobs could not run here under any policy (too large or unknown VC; see the per-job CSV)\n",
                static_cast<long long>(runs->front().summary.rejected));
  for (const auto& r : *runs)
    if (!same && r.summary.rejected)
      std::printf("note: %s: %lld jobs could not run here (too large or unknown VC; see the per-job CSV)\n",
                  r.summary.policy.c_str(), static_cast<long long>(r.summary.rejected));
}

}  // namespace

void AddSimulateCommand(CLI::App& app) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "Replay a trace on a cluster under one or more policies and report JCT, "
      "queueing delay, makespan and GPU utilisation.");
  cmd->add_option("--config", args->config_path, "Experiment JSON (flags override it)");
  cmd->add_option("--save-config", args->save_config, "Write the effective experiment JSON here");
  cmd->add_option("--trace", args->trace, "Trace file (Philly, Helios, Acme, Sia/Pollux, Lucid or native CSV)");
  cmd->add_option("--format", args->format, "Trace format: auto, philly, helios, acme, sia, pollux, lucid, native");
  cmd->add_option("--duration-model", args->duration_model,
                  "For traces without durations (Sia/Pollux): sia-buckets");
  cmd->add_option("--synthetic", args->synthetic, "Use a synthetic trace of this cluster profile instead (see `schedmate synth --list`)");
  cmd->add_option("--jobs", args->jobs, "Synthetic: number of jobs")->check(CLI::Range(1, 50000000));
  cmd->add_option("--load", args->load, "Synthetic: offered load on the cluster")->check(CLI::Range(0.01, 100.0));
  cmd->add_option("--rate", args->rate, "Synthetic: jobs per hour (instead of --load)");
  cmd->add_option("--vc-config", args->vc_config, "VC capacities CSV (vc,node num)");
  cmd->add_option("--nodes", args->nodes, "One pool of this many nodes (no VCs)")->check(CLI::Range(1, 1000000));
  cmd->add_option("--gpus-per-node", args->gpus_per_node, "GPUs per node")->check(CLI::Range(1, 1024));
  cmd->add_flag("--merge-vcs", args->merge_vcs, "Merge all VCs into one pool of their summed nodes");
  cmd->add_option("--unknown-vc", args->unknown_vc, "Jobs whose VC the cluster lacks: drop (default) or error")
      ->check(CLI::IsMember({"drop", "error"}));
  cmd->add_option("--policy", args->policies, "Comma-separated policies, or 'all' (see `schedmate policies`)");
  cmd->add_option("--estimator", args->estimator, "SJF/QSSF/SRTF duration estimator: oracle, history, helios-error-model");
  cmd->add_option("--placement", args->placement, "Placement: consolidate or count");
  cmd->add_option("--restart-overhead", args->restart_overhead, "Tiresias/SRTF preemption cost: none, lucid, helios or seconds");
  cmd->add_option("--backfill", args->backfill,
                  "Queue discipline of fifo/sjf/qssf: strict (head-of-line blocking, default), easy, conservative")
      ->check(CLI::IsMember({"strict", "easy", "conservative"}));
  cmd->add_option("--backfill-estimate", args->backfill_estimate,
                  "Durations the backfill planner uses: oracle (default), user-limit, advisor (the policy's "
                  "estimator), advisor-spread (widened by the spread of the history runs it came from)")
      ->check(CLI::IsMember({"oracle", "user-limit", "advisor", "advisor-spread"}));
  cmd->add_option("--backfill-overdue", args->backfill_overdue,
                  "A running job past its planned end: slack (ends in 60 s, default) or age (runs as long again "
                  "as it has run)")
      ->check(CLI::IsMember({"slack", "age"}));
  cmd->add_option("--seed", args->seed, "Seed for synthetic traces and randomised estimators");
  cmd->add_flag("--json", args->json, "Print the summary as JSON (one object per policy)");
  cmd->add_option("--jobs-out", args->jobs_out, "Write the per-job CSV here (FILE.<policy>.csv for several policies)");
  cmd->add_option("--out", args->out_dir, "Write summary.json, per-job and time-series CSVs, SVG plots and experiment.json (replay it with --config) here");
  cmd->add_option("--progress", args->progress, "Progress on stderr: auto (when a terminal), on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  cmd->callback([args, cmd] { Run(*args, *cmd); });
}

}  // namespace schedmate

// `schedmate lucid`: Lucid vs Lucid + schedmate on one trace and cluster
// (and the ablations), each ratio from one run of both. See
// src/policies/lucid/README.md and docs/lucid.md.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>


#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/progress.h"
#include "sim/outputs.h"
#include "experiments/lucid_experiment.h"
#include "experiments/lucid_files.h"
#include "core/data_paths.h"
#include "core/json.h"
#include "core/str_format.h"

namespace schedmate {
namespace {

struct LucidArgs {
  std::string config, shared;
  std::string trace, format, from, to, synth;
  int32_t jobs = 0, nodes = 0, profiler_nodes = -1, prof_gpus = 0, max_gpus = 0;
  int64_t limit_s = 0, max_jobs = 0;
  int64_t seed = -1;
  double load = 0;
  bool ablations = false, json = false;
  std::string out;
  std::string progress = "auto";
};

void RunLucid(const LucidArgs& a) {
  LucidExperimentConfig c;
  if (!a.config.empty()) {
    auto parsed = ReadLucidConfigFile(a.config, a.shared);
    if (!parsed.ok()) CommandFailed(parsed.status());
    c = std::move(parsed).value();
  }
  if (!a.shared.empty()) c.shared = a.shared;
  if (!a.trace.empty()) c.trace_path = a.trace, c.synth.clear();
  if (!a.format.empty()) c.trace_format = a.format;
  if (!a.from.empty()) c.from = a.from;
  if (!a.to.empty()) c.to = a.to;
  if (!a.synth.empty()) c.synth = a.synth, c.trace_path.clear();
  if (a.jobs > 0) c.synth_jobs = a.jobs;
  if (a.nodes > 0) c.nodes = a.nodes;
  if (a.load > 0) c.target_load = a.load, c.nodes = a.nodes;  // with --nodes too: a synthetic trace paced for that load
  if (a.profiler_nodes >= 0) c.profiler_nodes = a.profiler_nodes;
  if (a.prof_gpus > 0) c.lucid.profile_gpu_limit = a.prof_gpus;
  if (a.limit_s > 0) c.lucid.profile_time_limit_s = a.limit_s;
  if (a.max_jobs > 0) c.max_jobs = a.max_jobs;
  if (a.max_gpus > 0) c.max_gpus = a.max_gpus;
  if (a.seed >= 0) c.seed = static_cast<uint64_t>(a.seed), c.mapping.seed = static_cast<uint64_t>(a.seed);
  if (a.ablations) c.variants = LucidAblations();
  if (c.trace_path.empty() && c.synth.empty()) CommandFailed(InvalidArgument("give --config FILE, --trace FILE or --synth PROFILE"));
  ConsoleProgress progress(ConsoleProgress::Wanted(a.progress));
  auto r = RunLucidComparison(c, [&](const std::string& label, const SimProgress& p) { progress.Update(label, p); });
  progress.Finish();
  if (!r.ok()) CommandFailed(r.status());
  if (!r->catalog_notice.empty()) std::fprintf(stderr, "%s\n", r->catalog_notice.c_str());
  if (!a.out.empty()) {
    if (Status s = WriteLucidOutputs(*r, a.out); !s.ok()) CommandFailed(s);
  }
  if (a.json) {
    std::printf("%s\n", DumpJson(LucidComparisonToJson(*r), 2).c_str());
    return;
  }
  std::printf("%s", FormatLucidTable(*r).c_str());
  if (!a.out.empty()) std::printf("\nwrote %s/summary.json, table.txt, jct_cdf.svg, queue_length.svg, <policy>_jobs.csv\n", a.out.c_str());
}

}  // namespace

void AddLucidCommand(CLI::App& app) {
  auto a = std::make_shared<LucidArgs>();
  CLI::App* cmd = app.add_subcommand(
      "lucid", "Lucid vs Lucid + schedmate (and ablations) on one trace and cluster, both replayed in one run,\n"
               "with the real Advisor and Tracker reading the semantic world's code and logs.");
  cmd->add_option("--config", a->config, "Experiment JSON (configs/lucid/*.json); flags override it. Its paths are\n"
                                         "relative to the file; ${SHARED}/… is under the shared data directory");
  cmd->add_option("--shared", a->shared, "Shared data directory: traces and the workload catalog's measurements\n"
                                         "(default: $SCHEDMATE_SHARED, else the shared/ beside the source tree, else ../shared)");
  cmd->add_option("--trace", a->trace, "Trace file");
  cmd->add_option("--format", a->format, "Trace format (auto)");
  cmd->add_option("--from", a->from, "Keep jobs submitted from this day (YYYY-MM-DD)");
  cmd->add_option("--to", a->to, "… to this day (exclusive)");
  cmd->add_option("--synth", a->synth, "A synthetic trace of this profile instead (venus, saturn, seren, kalos, …)");
  cmd->add_option("--jobs", a->jobs, "Synthetic: jobs")->check(CLI::Range(1, 10000000));
  cmd->add_option("--max-jobs", a->max_jobs, "Keep at most this many jobs (seeded sample)");
  cmd->add_option("--max-gpus", a->max_gpus, "Cap each job's GPU request")->check(CLI::Range(1, 100000));
  cmd->add_option("--nodes", a->nodes, "Main cluster nodes (default: sized by --load)")->check(CLI::Range(1, 1000000));
  cmd->add_option("--load", a->load, "Size the main cluster for this offered load")->check(CLI::Range(0.01, 100.0));
  cmd->add_option("--profiler-nodes", a->profiler_nodes, "Nodes of Lucid's profiling cluster (0 = no profiling)")
      ->check(CLI::Range(0, 10000));
  cmd->add_option("--profile-limit", a->limit_s, "Profiling time limit, seconds")->check(CLI::Range(1, 1000000));
  cmd->add_option("--profile-gpus", a->prof_gpus, "Largest job profiled (GPUs)")->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", a->seed, "Seed of the synthetic trace, the world mapping and the ablation draws");
  cmd->add_flag("--ablations", a->ablations, "Also run each consumption point alone and the threshold, detection-rate,\n"
                                             "hit-rate and LLM-latency sweeps");
  cmd->add_option("--out", a->out, "Write summary.json, table.txt and plots here");
  cmd->add_flag("--json", a->json, "Print the results as JSON");
  cmd->add_option("--progress", a->progress, "auto | on | off")->capture_default_str();
  cmd->callback([a] { RunLucid(*a); });
}

}  // namespace schedmate

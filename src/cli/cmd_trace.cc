// `schedmate trace stats|convert`, `schedmate synth`, `schedmate policies`.
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/json.h"
#include "policies/registry.h"
#include "traces/native_format.h"
#include "traces/synthesizer.h"
#include "traces/trace_loader.h"
#include "traces/trace_stats.h"

namespace schedmate {
namespace {

struct TraceArgs {
  std::string in, out, format = "auto";
  bool json = false;
  bool keep_cpu = false;
};

Trace LoadOrDie(const TraceArgs& a) {
  auto format = ParseTraceFormat(a.format);
  if (!format.ok()) CommandFailed(format.status());
  LoadOptions o;
  o.gpu_jobs_only = !a.keep_cpu;
  LoadReport r;
  auto trace = LoadTraceFile(a.in, *format, o, &r);
  if (!trace.ok()) CommandFailed(trace.status());
  if (r.skipped_cpu_jobs || r.skipped_unfinished)
    std::fprintf(stderr, "note: skipped %lld CPU-only and %lld unfinished jobs\n",
                 static_cast<long long>(r.skipped_cpu_jobs),
                 static_cast<long long>(r.skipped_unfinished));
  return std::move(trace).value();
}

void Stats(const TraceArgs& a) {
  Trace t = LoadOrDie(a);
  TraceStats s = ComputeTraceStats(t);
  Json vcs = Json::object();
  for (const auto& [vc, n] : s.jobs_per_vc) vcs[vc] = n;
  Json j = {{"source", t.source}, {"format", t.format}, {"synthetic", t.synthetic},
            {"jobs", s.jobs}, {"mean_duration_s", s.mean_duration_s},
            {"median_duration_s", s.median_duration_s}, {"max_duration_s", s.max_duration_s},
            {"mean_gpus", s.mean_gpus}, {"median_gpus", s.median_gpus},
            {"max_gpus", s.max_gpus}, {"gpu_hours", s.gpu_hours}, {"span_s", s.span_s},
            {"jobs_per_hour", s.jobs_per_hour}, {"complete_rate", s.complete_rate},
            {"fail_rate", s.fail_rate}, {"cancel_rate", s.cancel_rate},
            {"unknown_state_rate", s.unknown_rate}, {"jobs_per_vc", vcs}};
  std::printf("%s\n", DumpJson(j, a.json ? -1 : 2).c_str());
}

void Convert(const TraceArgs& a) {
  Trace t = LoadOrDie(a);
  Status s = WriteNativeTraceFile(t, a.out);
  if (!s.ok()) CommandFailed(s);
  std::printf("wrote %zu jobs to %s (schedmate native format)\n", t.jobs.size(), a.out.c_str());
}

struct SynthArgs {
  std::string profile = "philly", out;
  int32_t jobs = 1000;
  int64_t seed = 1;
  double load = 0, rate = 0;
  int32_t cluster_gpus = 0;
  bool list = false, json = false;
};

void Synth(const SynthArgs& a) {
  if (a.list) {
    for (const auto& p : BuiltinProfiles()) {
      if (a.json) {
        Json j = {{"name", p.name}, {"mean_duration_s", p.mean_duration_s}, {"median_duration_s", p.median_duration_s},
                  {"mean_gpus", p.mean_gpus}, {"jobs_per_hour", p.jobs_per_hour}, {"citation", p.citation}};
        std::printf("%s\n", DumpJson(j).c_str());
        continue;
      }
      std::printf("%-8s mean %.0f s, median %.0f s, mean GPUs %.2f, %.1f jobs/h — %s\n",
                  p.name.c_str(), p.mean_duration_s, p.median_duration_s,
                  p.mean_gpus, p.jobs_per_hour, p.citation.c_str());
    }
    return;
  }
  if (a.out.empty()) CommandFailed(InvalidArgument("--out FILE is required"));
  auto profile = FindProfile(a.profile);
  if (!profile.ok()) CommandFailed(profile.status());
  SynthOptions o;
  o.jobs = a.jobs;
  o.seed = static_cast<uint64_t>(a.seed);
  o.target_load = a.load;
  o.jobs_per_hour = a.rate;
  o.cluster_gpus = a.cluster_gpus;
  o.max_gpus_cap = a.cluster_gpus;
  CalibrationReport report;
  auto trace = SynthesizeTrace(*profile, o, &report);
  if (!trace.ok()) CommandFailed(trace.status());
  Status s = WriteNativeTraceFile(*trace, a.out);
  if (!s.ok()) CommandFailed(s);
  std::printf("synthetic trace '%s' (seed %lld): %d jobs -> %s\ncalibration against %s:\n%s",
              profile->name.c_str(), static_cast<long long>(a.seed), a.jobs,
              a.out.c_str(), profile->citation.c_str(), report.ToText().c_str());
}

}  // namespace

void AddTraceCommand(CLI::App& app) {
  auto args = std::make_shared<TraceArgs>();
  CLI::App* cmd = app.add_subcommand("trace", "Inspect or convert trace files.");
  cmd->require_subcommand(1);
  CLI::App* stats = cmd->add_subcommand("stats", "Print summary statistics of a trace.");
  stats->add_option("file", args->in, "Trace file")->required();
  stats->add_option("--format", args->format, "Trace format (default: auto-detect)");
  stats->add_flag("--json", args->json, "One-line JSON");
  stats->add_flag("--keep-cpu-jobs", args->keep_cpu, "Keep CPU-only jobs");
  stats->callback([args] { Stats(*args); });
  CLI::App* convert = cmd->add_subcommand("convert", "Convert a trace to schedmate's native format.");
  convert->add_option("in", args->in, "Input trace")->required();
  convert->add_option("out", args->out, "Output file")->required();
  convert->add_option("--format", args->format, "Input format (default: auto-detect)");
  convert->add_flag("--keep-cpu-jobs", args->keep_cpu, "Keep CPU-only jobs");
  convert->callback([args] { Convert(*args); });
}

void AddSynthCommand(CLI::App& app) {
  auto a = std::make_shared<SynthArgs>();
  CLI::App* cmd = app.add_subcommand(
      "synth", "Generate a synthetic trace calibrated to a cluster's published "
               "statistics; prints target vs generated statistics.");
  cmd->add_flag("--list", a->list, "List the built-in cluster profiles");
  cmd->add_flag("--json", a->json, "With --list: one JSON object per profile and line");
  cmd->add_option("--profile", a->profile, "Cluster profile")->capture_default_str();
  cmd->add_option("--jobs", a->jobs, "Number of jobs")->check(CLI::Range(1, 50000000))->capture_default_str();
  cmd->add_option("--seed", a->seed, "Seed")->capture_default_str();
  cmd->add_option("--load", a->load, "Target offered load (needs --cluster-gpus)");
  cmd->add_option("--cluster-gpus", a->cluster_gpus, "Cluster size in GPUs (also caps job size)");
  cmd->add_option("--rate", a->rate, "Jobs per hour (default: the profile's)");
  cmd->add_option("-o,--out", a->out, "Output trace file (native format)");
  cmd->callback([a] { Synth(*a); });
}

void AddPoliciesCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("policies", "List the scheduling policies and presets.");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "One JSON object per policy and line: name, summary");
  cmd->callback([json] {
    std::vector<PolicyInfo> all = ListPolicies();
    all.push_back({"tiresias", "tiresias-lucid with your overrides (config file)"});
    for (const auto& p : all) {
      if (*json)
        std::printf("%s\n", DumpJson(Json{{"name", p.name}, {"summary", p.summary}}).c_str());
      else
        std::printf("%-18s %s\n", p.name.c_str(), p.summary.c_str());
    }
  });
}

}  // namespace schedmate

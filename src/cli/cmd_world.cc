// `schedmate world …`: the semantic world's parts, for inspection —
// `catalog` prints each workload family's characteristics and where they
// come from; `map` maps a trace's jobs to workloads and prints the mapping;
// `materialize` writes generated repositories (per family and style, or for
// a mapped trace's jobs, with their logs and a jobs.jsonl of the truth).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/world_trace_options.h"
#include "core/json.h"
#include "experiments/world_export.h"
#include "world/repo_generator.h"
#include "world/workload_catalog.h"

namespace schedmate {
namespace {

struct WorldArgs {
  std::string shared;  // "" = found (core/data_paths.h)
  std::string out = "schedmate-world";
  std::string family;
  std::string style = "all";
  int count = 1;
  uint64_t seed = 1;
  int64_t sample = 200;
  bool metadata_only = false, json = false;
  WorldTraceArgs world;
};

void Catalog(const WorldArgs& a) {
  std::string source;
  WorkloadCatalog c = LoadCatalogForCommand(a.shared, &source);
  if (a.json) {
    Json families = Json::array();
    for (const auto& [name, e] : c.entries())
      families.push_back({{"family", name}, {"source", e.source}, {"ref_batch", e.ref_batch},
                          {"step_s_1gpu", c.StepTime(name, "dgx", 1, e.ref_batch)},
                          {"step_s_8gpu", c.StepTime(name, "dgx", 8, e.ref_batch)}, {"sm_util", e.sm_util},
                          {"gmem_util", e.gmem_util}, {"gmem_mib", e.gmem_mib}, {"sharing_label", e.sharing_label}});
    std::printf("%s\n", DumpJson(Json{{"catalog", source}, {"families", families}}, 2).c_str());
    return;
  }
  std::printf("%s\n\n", source.c_str());
  std::printf("%-17s %-26s %6s %12s %11s %8s %8s %9s %5s\n", "family", "source", "batch", "step s (1)",
              "step s (8)", "SM util", "mem util", "mem MiB", "label");
  for (const auto& [name, e] : c.entries())
    std::printf("%-17s %-26s %6d %12.4f %11.4f %8.2f %8.2f %9.0f %5d\n", name.c_str(), e.source.c_str(), e.ref_batch,
                c.StepTime(name, "dgx", 1, e.ref_batch), c.StepTime(name, "dgx", 8, e.ref_batch), e.sm_util,
                e.gmem_util, e.gmem_mib, e.sharing_label);
  std::printf("\nstep s (1 / 8 GPUs) at the reference batch: Sia's A100 (\"dgx\") profile where Sia measured the app,\n"
              "else the source's own reference (Lucid's measuring GPU, or an A100 under the FLOPs model).\n"
              "sources: lucid = Lucid's single_data.csv, sia = Sia's placements profiles, flops = the documented\n"
              "FLOPs model (src/world/workload_catalog.cc).\n");
}

void Materialize(const WorldArgs& a) {
  Result<int> written = WriteGeneratedRepos({a.out, a.family, a.style, a.count, a.seed});
  if (!written.ok()) CommandFailed(written.status());
  std::printf("wrote %d repositories under %s/ (each with COMMAND and TRUTH); try:\n"
              "  schedmate advise %s/<repo> --cmd \"$(cat %s/<repo>/COMMAND)\"\n",
              *written, a.out.c_str(), a.out.c_str(), a.out.c_str());
}

MappedTrace MapOrFail(const WorldTraceArgs& w) {
  WorkloadCatalog catalog = LoadCatalogForCommand(w.shared);
  auto m = LoadAndMap(w, catalog);
  if (!m.ok()) CommandFailed(m.status());
  return std::move(m).value();
}

void Map(const WorldArgs& a) {
  MappedTrace m = MapOrFail(a.world);
  if (!a.json) {
    std::printf("%s", DescribeMapping(m).c_str());
    return;
  }
  const MappingStats& s = m.world.stats;
  Json buckets = Json::array();
  static const char* const kBuckets[] = {"<1", "1-10", "10-100", ">=100"};
  for (int b = 0; b < 4; ++b)
    buckets.push_back({{"gpu_hours", kBuckets[b]}, {"jobs", s.bucket_jobs[b]},
                       {"new_projects_small_medium_large", s.bucket_class_projects[b]}});
  Json j = {{"trace", m.description}, {"jobs", s.jobs}, {"projects", s.projects}, {"resubmissions", s.resubmissions},
            {"renamed_copies", s.renamed_copies}, {"edited", s.edited}, {"swapped", s.swapped},
            {"failed", s.failed}, {"failed_infrastructure", s.failed_infrastructure},
            {"drawn_end_states", s.drawn_states}, {"buckets", buckets}};
  std::printf("%s\n", DumpJson(j, 2).c_str());
}

void MaterializeTrace(const WorldArgs& a) {
  MappedTrace m = MapOrFail(a.world);
  Result<WorldExport> e = ExportMappedTrace(m, {a.out, a.sample, a.world.params.seed, a.metadata_only});
  if (!e.ok()) CommandFailed(e.status());
  std::printf("%s", DescribeMapping(m).c_str());
  if (a.metadata_only) {
    std::printf("\nwrote the metadata of %zu jobs (%zu failed, %zu distinct repositories) to %s/jobs.jsonl\n", e->jobs,
                e->failed, e->repositories, a.out.c_str());
    return;
  }
  std::printf("\nwrote %zu jobs (%zu failed) to %s/: jobs.jsonl, logs/, and %zu distinct repositories in repos/\n"
              "check them with the real components:  schedmate world check %s\n",
              e->jobs, e->failed, a.out.c_str(), e->repositories, a.out.c_str());
}

}  // namespace

void AddWorldCommand(CLI::App& app) {
  auto a = std::make_shared<WorldArgs>();
  CLI::App* cmd = app.add_subcommand("world", "The semantic world of a simulation: workload catalog, trace mapping, generated repositories and\nlogs, and the real components checked and calibrated on them (docs/world.md).");
  cmd->require_subcommand(1);
  CLI::App* cat = cmd->add_subcommand("catalog", "The 15 workload families: step time, utilisation, memory, and their source.");
  cat->add_option("--shared", a->shared,
                  "Shared data directory holding traces/lucid and traces/sia (default: $SCHEDMATE_SHARED, else the\n"
                  "shared/ beside the source tree, else ../shared; the FLOPs model only, with a notice, when absent)");
  cat->add_flag("--json", a->json, "The catalog as JSON");
  cat->callback([a] { Catalog(*a); });
  CLI::App* mat = cmd->add_subcommand("materialize", "Write a mapped trace's jobs (repositories, logs, jobs.jsonl with the truth), or repositories per\nfamily and style (with COMMAND and TRUTH), for inspection.");
  mat->add_option("-o,--out", a->out, "Output directory")->capture_default_str();
  mat->add_option("--family", a->family, "One family (default: all 15)");
  mat->add_option("--style", a->style, "raw-loop | hf-trainer | lightning | hydra | deepspeed | all")->capture_default_str();
  mat->add_option("--count", a->count, "Repositories per family and style")->capture_default_str()->check(CLI::Range(1, 1000));
  mat->add_option("--sample", a->sample, "With --trace/--synth: jobs written, drawn at random (0 = all)")->capture_default_str();
  mat->add_flag("--metadata-only", a->metadata_only, "With --trace/--synth: only jobs.jsonl (truth, command, repository key), no files");
  AddWorldTraceOptions(mat, &a->world);
  mat->callback([a] {
    if (!a->world.trace.empty() || !a->world.synth.empty()) return MaterializeTrace(*a);
    a->seed = a->world.params.seed;
    Materialize(*a);
  });
  CLI::App* map = cmd->add_subcommand("map", "Map a trace's jobs to workloads and projects; print what the mapping made.");
  AddWorldTraceOptions(map, &a->world);
  map->add_flag("--json", a->json, "The mapping's statistics as JSON");
  map->callback([a] { Map(*a); });
  AddWorldCheckCommand(cmd);
  AddWorldCalibrateCommand(cmd);
}

}  // namespace schedmate

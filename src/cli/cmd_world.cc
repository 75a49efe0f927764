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
#include "world/job_artifacts.h"
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
  Rng rng(a.seed);
  std::vector<std::string> families = a.family.empty() ? WorkloadFamilies() : std::vector<std::string>{a.family};
  for (const auto& f : families)
    if (std::find(WorkloadFamilies().begin(), WorkloadFamilies().end(), f) == WorkloadFamilies().end())
      CommandFailed(InvalidArgument("--family " + f + ": not one of the 15 families (see `schedmate world catalog`)"));
  int written = 0;
  for (const auto& f : families)
    for (int s = 0; s < kNumCodeStyles; ++s) {
      auto style = static_cast<CodeStyle>(s);
      if (a.style != "all" && a.style != CodeStyleName(style)) continue;
      for (int i = 0; i < a.count; ++i) {
        WorkloadTruth w = DrawWorkload(f, rng);
        GeneratedRepo r = GenerateRepo(w, style, rng.NextU64());
        std::string dir = a.out + "/" + f + "-" + CodeStyleName(style) + "-" + std::to_string(i);
        for (const auto& [path, text] : r.files) {
          std::filesystem::create_directories(std::filesystem::path(dir + "/" + path).parent_path());
          std::ofstream(dir + "/" + path) << text;
        }
        std::ofstream(dir + "/COMMAND") << r.command << "\n";
        std::ofstream(dir + "/TRUTH") << "model_name " << w.model_name << "\nmodel_type " << w.model_type
                                      << "\ndataset " << w.dataset << "\ntraining_iterations " << w.iterations
                                      << "\niteration_type " << w.iteration_type << "\nbatch_size " << w.batch_size
                                      << "\nnum_gpus " << w.num_gpus << "\n";
        ++written;
      }
    }
  if (written == 0) CommandFailed(InvalidArgument("--style " + a.style + ": no such code style"));
  std::printf("wrote %d repositories under %s/ (each with COMMAND and TRUTH); try:\n"
              "  schedmate advise %s/<repo> --cmd \"$(cat %s/<repo>/COMMAND)\"\n",
              written, a.out.c_str(), a.out.c_str(), a.out.c_str());
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

Json JobLine(const JobSpec& j, const MappedJob& m, const std::string& repo, const std::string& log, const RenderedLog& r) {
  const WorkloadTruth& t = m.truth;
  Json line = {{"id", j.id}, {"submit_s", j.submit_s}, {"duration_s", j.duration_s}, {"gpus", j.gpus},
               {"project", m.project}, {"name", m.job_name}, {"family", t.family}, {"style", CodeStyleName(m.style)},
               {"repo", repo}, {"command", ""}, {"log", log},
               {"truth", {{"model_name", t.model_name}, {"model_type", t.model_type}, {"dataset", t.dataset},
                          {"training_iterations", t.iterations}, {"iteration_type", t.iteration_type},
                          {"batch_size", t.batch_size}, {"num_gpus", t.num_gpus}}},
               {"step_time_s", m.step_time_s}, {"total_steps", m.total_steps}, {"steps_run", m.steps_run},
               {"log_every", m.log_every}, {"progress_lines", r.progress_records},
               {"end_state", std::string(EndStateName(m.end_state))}, {"state_drawn", m.state_drawn}};
  if (m.failure) {
    line["failure_category"] = m.failure->category;
    line["failure_component"] = m.failure->component;
    line["root_line"] = r.root_line;
  }
  return line;
}

// A file name for a job id from the trace: ids are outside input.
std::string SafeFileName(size_t index, const std::string& id) {
  std::string s = std::to_string(index) + "-";
  for (char c : id.substr(0, 80)) s += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ? c : '_';
  return s;
}

void MaterializeTrace(const WorldArgs& a) {
  namespace fs = std::filesystem;
  MappedTrace m = MapOrFail(a.world);
  std::vector<size_t> picked = SampleJobs(m.trace.jobs.size(), a.sample, a.world.params.seed);
  std::error_code ec;
  fs::create_directories(a.out + "/logs", ec);
  std::ofstream jobs(a.out + "/jobs.jsonl");
  if (ec || !jobs) CommandFailed(InvalidArgument("-o " + a.out + ": cannot create the output directory"));
  RepoCache cache(4096);
  std::set<uint64_t> repos;
  size_t failed = 0;
  for (size_t i : picked) {
    const JobSpec& j = m.trace.jobs[i];
    const MappedJob& mj = m.world.jobs[i];
    std::string repo_rel = "repos/" + RepoKeyHex(mj.repo_key), log_rel;
    RenderedLog log;
    if (!a.metadata_only) {
      auto repo = cache.Materialize(mj, a.out + "/repos");
      if (!repo.ok()) CommandFailed(repo.status());
      log = JobLogAtEnd(mj, j.id, StableHash(j.id) ^ a.world.params.seed);
      log_rel = "logs/" + SafeFileName(i, j.id) + ".log";
      std::ofstream(a.out + "/" + log_rel, std::ios::binary) << log.text;
    }
    repos.insert(mj.repo_key);
    Json line = JobLine(j, mj, repo_rel, log_rel, log);
    line["command"] = cache.Get(mj).command;
    jobs << DumpJson(line) << "\n";
    failed += mj.failure.has_value();
  }
  if (!jobs.flush()) CommandFailed(Internal("cannot write " + a.out + "/jobs.jsonl"));
  std::printf("%s", DescribeMapping(m).c_str());
  if (a.metadata_only) {
    std::printf("\nwrote the metadata of %zu jobs (%zu failed, %zu distinct repositories) to %s/jobs.jsonl\n", picked.size(),
                failed, repos.size(), a.out.c_str());
    return;
  }
  std::printf("\nwrote %zu jobs (%zu failed) to %s/: jobs.jsonl, logs/, and %zu distinct repositories in repos/\n"
              "check them with the real components:  schedmate world check %s\n",
              picked.size(), failed, a.out.c_str(), repos.size(), a.out.c_str());
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

#include "experiments/world_export.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json.h"
#include "core/random.h"
#include "world/job_artifacts.h"
#include "world/repo_generator.h"

namespace schedmate {
namespace {

Json JobLine(const JobSpec& j, const MappedJob& m, const std::string& repo, const std::string& log,
             const RenderedLog& r) {
  const WorkloadTruth& t = m.truth;
  Json line = {{"id", j.id},
               {"submit_s", j.submit_s},
               {"duration_s", j.duration_s},
               {"gpus", j.gpus},
               {"project", m.project},
               {"name", m.job_name},
               {"family", t.family},
               {"style", CodeStyleName(m.style)},
               {"repo", repo},
               {"command", ""},
               {"log", log},
               {"truth",
                {{"model_name", t.model_name},
                 {"model_type", t.model_type},
                 {"dataset", t.dataset},
                 {"training_iterations", t.iterations},
                 {"iteration_type", t.iteration_type},
                 {"batch_size", t.batch_size},
                 {"num_gpus", t.num_gpus}}},
               {"step_time_s", m.step_time_s},
               {"total_steps", m.total_steps},
               {"steps_run", m.steps_run},
               {"log_every", m.log_every},
               {"progress_lines", r.progress_records},
               {"end_state", std::string(EndStateName(m.end_state))},
               {"state_drawn", m.state_drawn}};
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
  for (char c : id.substr(0, 80))
    s += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ? c : '_';
  return s;
}

}  // namespace

Result<int> WriteGeneratedRepos(const GeneratedReposOptions& a) {
  Rng rng(a.seed);
  std::vector<std::string> families = a.family.empty() ? WorkloadFamilies() : std::vector<std::string>{a.family};
  for (const auto& f : families)
    if (std::find(WorkloadFamilies().begin(), WorkloadFamilies().end(), f) == WorkloadFamilies().end())
      return InvalidArgument("--family " + f + ": not one of the 15 families (see `schedmate world catalog`)");
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
  if (written == 0) return InvalidArgument("--style " + a.style + ": no such code style");
  return written;
}

Result<WorldExport> ExportMappedTrace(const MappedTrace& m, const WorldExportOptions& a) {
  namespace fs = std::filesystem;
  std::vector<size_t> picked = SampleJobs(m.trace.jobs.size(), a.sample, a.seed);
  std::error_code ec;
  fs::create_directories(a.out + "/logs", ec);
  std::ofstream jobs(a.out + "/jobs.jsonl");
  if (ec || !jobs) return InvalidArgument("-o " + a.out + ": cannot create the output directory");
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
      if (!repo.ok()) return repo.status();
      log = JobLogAtEnd(mj, j.id, StableHash(j.id) ^ a.seed);
      log_rel = "logs/" + SafeFileName(i, j.id) + ".log";
      std::ofstream(a.out + "/" + log_rel, std::ios::binary) << log.text;
    }
    repos.insert(mj.repo_key);
    Json line = JobLine(j, mj, repo_rel, log_rel, log);
    line["command"] = cache.Get(mj).command;
    jobs << DumpJson(line) << "\n";
    failed += mj.failure.has_value();
  }
  if (!jobs.flush()) return Internal("cannot write " + a.out + "/jobs.jsonl");
  return WorldExport{picked.size(), failed, repos.size()};
}

}  // namespace schedmate

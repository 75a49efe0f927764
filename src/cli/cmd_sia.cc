// `schedmate sia --config configs/sia/<workload>.json`: plain Sia on every
// workload file of a Sia workload folder (or one file), printing avg / p99
// JCT and makespan in hours per file and their mean ± std. See
// src/policies/sia/README.md and docs/sia.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/data_paths.h"
#include "core/json.h"
#include "core/stats.h"
#include "experiments/sia_inputs.h"
#include "policies/sia/sia_simulator.h"
#include "solver/cbc_solver.h"
#include "traces/trace_loader.h"

namespace schedmate {
namespace {

struct SiaArgs {
  std::string config, shared, workloads, bootstrap;
  int max_files = 0;
};

struct SiaConfig {
  std::string workloads, profiles;
  sia::SiaCluster cluster = sia::DefaultSiaCluster();
  sia::SiaParams params;
  sia::SiaSimOptions options;
};

Result<sia::SiaCluster> ClusterFromJson(const Json& j, const std::string& where) {
  sia::SiaCluster c;
  if (j.contains("types")) {
    if (!j["types"].is_array()) return InvalidArgument(where + ": cluster.types must be a list");
    for (const Json& t : j["types"]) {
      ASSIGN_OR_RETURN(std::string name, GetString(t, "name", where + ": cluster.types"));
      ASSIGN_OR_RETURN(int64_t nodes, GetIntInRange(t, "nodes", where + ": cluster.types", 1, 100000));
      ASSIGN_OR_RETURN(int64_t per, GetIntInRange(t, "gpus_per_node", where + ": cluster.types", 1, 64));
      ASSIGN_OR_RETURN(auto max_nodes, GetOptIntInRange(t, "max_job_nodes", where + ": cluster.types", 1, 100000));
      int n = static_cast<int>(nodes);
      c.types.push_back({name, n, static_cast<int>(per),
                         static_cast<int>(max_nodes.value_or(sia::DefaultMaxJobNodes(name, n)))});
    }
  } else {
    c = sia::DefaultSiaCluster();
  }
  ASSIGN_OR_RETURN(auto scale, GetOptIntInRange(j, "scale", where + ": cluster", 1, 1024));
  return sia::ScaleCluster(std::move(c), static_cast<int>(scale.value_or(1)));
}

Result<sia::Bootstrap> ParseBootstrap(const std::string& s, const std::string& where) {
  if (s == "profile") return sia::Bootstrap::kProfile;
  if (s == "as_you_go") return sia::Bootstrap::kAsYouGo;
  return InvalidArgument(where + ": sia.bootstrap must be \"profile\" or \"as_you_go\", not \"" + s + "\"");
}

Status ReadSiaSection(const Json& s, const std::string& where, SiaConfig& c) {
  std::string w = where + ": sia";
  if (s.contains("p")) {
    ASSIGN_OR_RETURN(c.params.p, GetNumber(s, "p", w));
  }
  if (c.params.p == 0) return InvalidArgument(w + ".p must not be 0");
  if (s.contains("lambda_n")) {
    ASSIGN_OR_RETURN(c.params.lambda_n, GetNumber(s, "lambda_n", w));
  }
  if (s.contains("solver_time_limit_s")) {
    ASSIGN_OR_RETURN(c.params.milp.time_limit_s, GetNumber(s, "solver_time_limit_s", w));
  }
  ASSIGN_OR_RETURN(auto round, GetOptIntInRange(s, "round_s", w, 1, 86400));
  c.options.round_s = static_cast<int>(round.value_or(60));
  ASSIGN_OR_RETURN(auto prof, GetOptIntInRange(s, "profile_s_per_type", w, 0, 86400));
  c.options.profile_s_per_type = static_cast<int>(prof.value_or(20));
  if (s.contains("bootstrap")) {
    ASSIGN_OR_RETURN(std::string b, GetString(s, "bootstrap", w));
    ASSIGN_OR_RETURN(c.options.bootstrap, ParseBootstrap(b, where));
  }
  return Status::Ok();
}

Result<SiaConfig> ReadConfig(const std::string& path, const SharedDir& shared) {
  ASSIGN_OR_RETURN(Json j, ReadJsonFile(path));
  SiaConfig c;
  ASSIGN_OR_RETURN(std::string workloads, GetString(j, "workloads", path));
  ASSIGN_OR_RETURN(c.workloads, ResolveConfigPath(workloads, path, "workloads", shared));
  std::string profiles = j.value("profiles", std::string("${SHARED}/traces/sia/profiles"));
  ASSIGN_OR_RETURN(c.profiles, ResolveConfigPath(profiles, path, "profiles", shared));
  if (j.contains("cluster")) {
    ASSIGN_OR_RETURN(c.cluster, ClusterFromJson(j["cluster"], path));
  }
  if (j.contains("sia")) RETURN_IF_ERROR(ReadSiaSection(j["sia"], path, c));
  return c;
}

Result<std::vector<sia::SiaJobInput>> LoadJobs(const std::string& file) {
  ASSIGN_OR_RETURN(Trace trace, LoadTraceFile(file, TraceFormat::kSia));
  std::vector<sia::SiaJobInput> jobs;
  for (const auto& j : trace.jobs) jobs.push_back({j.id, j.type, j.submit_s, j.batch_size});
  return jobs;
}

std::vector<std::string> WorkloadFiles(const std::string& path, int max_files) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  if (!fs::is_directory(path)) return {path};
  for (const auto& f : fs::directory_iterator(path))
    if (f.path().extension() == ".csv") files.push_back(f.path().string());
  // workload-2 before workload-10.
  std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  if (max_files > 0 && static_cast<int>(files.size()) > max_files) files.resize(max_files);
  return files;
}

double Std(const std::vector<double>& v) {
  double m = 0, s = 0;
  for (double x : v) m += x / v.size();
  for (double x : v) s += (x - m) * (x - m) / v.size();
  return std::sqrt(s);
}

void PrintRun(const std::string& file, const sia::SiaRunResult& r) {
  std::vector<double> ms;
  for (const auto& s : r.rounds) ms.push_back(s.policy_ms);
  std::printf("%-28s jobs %4zu  avg %6.2f h  p99 %6.2f h  makespan %6.2f h  gpu-h %8.1f  profile gpu-h %5.2f  "
              "policy ms median %6.1f p95 %6.1f  failed rounds %d\n",
              std::filesystem::path(file).filename().c_str(), r.jobs.size(), r.avg_jct_s / 3600, r.p99_jct_s / 3600,
              r.makespan_s / 3600, r.gpu_hours, r.profile_gpu_hours, Median(ms), Percentile(ms, 95), r.failed_rounds);
  for (const auto& s : r.rounds)
    if (!s.solved) std::printf("  round t=%lld kept the previous allocation: %s\n", (long long)s.t, s.note.c_str());
}

void RunSiaCommand(const SiaArgs& a) {
  SharedDir shared = FindSharedDir(a.shared);
  auto c = ReadConfig(a.config, shared);
  if (!c.ok()) CommandFailed(c.status());
  if (!a.workloads.empty()) c->workloads = a.workloads;
  if (!a.bootstrap.empty()) {
    auto b = ParseBootstrap(a.bootstrap, "--bootstrap");
    if (!b.ok()) CommandFailed(b.status());
    c->options.bootstrap = *b;
  }
  auto profiles = LoadSiaAppProfiles(c->profiles);
  if (!profiles.ok()) CommandFailed(profiles.status());
  CbcSolver solver;
  std::vector<double> avg, p99, makespan;
  std::printf("sia: %d GPUs, p=%.2f, lambda_n=%.2f, round %d s, bootstrap %s\n", c->cluster.TotalGpus(), c->params.p,
              c->params.lambda_n, c->options.round_s,
              c->options.bootstrap == sia::Bootstrap::kProfile ? "profile" : "as_you_go");
  for (const std::string& file : WorkloadFiles(c->workloads, a.max_files)) {
    auto jobs = LoadJobs(file);
    if (!jobs.ok()) CommandFailed(jobs.status());
    auto r = sia::RunSia(c->cluster, *profiles, *jobs, c->params, c->options, &solver);
    if (!r.ok()) CommandFailed(r.status().WithContext(file));
    PrintRun(file, *r);
    avg.push_back(r->avg_jct_s / 3600), p99.push_back(r->p99_jct_s / 3600), makespan.push_back(r->makespan_s / 3600);
  }
  auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / v.size();
  };
  std::printf("mean over %zu files: avg JCT %.2f ± %.2f h  p99 JCT %.2f ± %.2f h  makespan %.2f ± %.2f h\n", avg.size(),
              mean(avg), Std(avg), mean(p99), Std(p99), mean(makespan), Std(makespan));
}

}  // namespace

void AddSiaCommand(CLI::App& app) {
  auto a = std::make_shared<SiaArgs>();
  CLI::App* cmd = app.add_subcommand("sia", "Run Sia (SOSP'23) on Sia's workload files; prints avg/p99 JCT, makespan");
  cmd->add_option("--config", a->config, "configs/sia/<workload>.json")->required();
  cmd->add_option("--shared", a->shared, "the shared data directory (default: found automatically)");
  cmd->add_option("--workloads", a->workloads, "a workload CSV or folder (overrides the config)");
  cmd->add_option("--bootstrap", a->bootstrap, "profile | as_you_go (overrides the config)");
  cmd->add_option("--max-files", a->max_files, "run only the first N workload files");
  cmd->callback([a] { RunSiaCommand(*a); });
}

}  // namespace schedmate

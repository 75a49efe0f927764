#include "experiments/sia_experiment.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "core/json.h"
#include "core/str_format.h"
#include "experiments/sia_inputs.h"
#include "experiments/world_setup.h"
#include "history/redis_store.h"
#include "history/sqlite_store.h"
#include "solver/cbc_solver.h"
#include "solver/isolated_solver.h"
#include "traces/trace_loader.h"
#include "world/sia_world.h"
#include "world/world_artefacts.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

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

Status ReadSiaSection(const Json& s, const std::string& where, SiaExperimentConfig& c) {
  std::string w = where + ": sia";
  if (s.contains("p")) {
    ASSIGN_OR_RETURN(c.params.p, GetNumber(s, "p", w));
  }
  if (c.params.p == 0) return InvalidArgument(w + ".p must not be 0");
  if (s.contains("lambda_n")) {
    ASSIGN_OR_RETURN(c.params.lambda_n, GetNumber(s, "lambda_n", w));
  }
  if (s.contains("prefer_current")) {
    if (!s["prefer_current"].is_boolean()) return InvalidArgument(w + ".prefer_current must be true or false");
    c.params.prefer_current = s["prefer_current"].get<bool>();
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
    ASSIGN_OR_RETURN(c.options.bootstrap, ParseSiaBootstrap(b, where));
  }
  return Status::Ok();
}

Status ReadSchedmateSection(const Json& s, const std::string& where, SiaExperimentConfig& c) {
  std::string w = where + ": schedmate";
  RETURN_IF_ERROR(OnlyKnownFields(s, {"runs", "history", "world_seed"}, w));
  ASSIGN_OR_RETURN(auto runs, GetOptString(s, "runs", w));
  if (runs) {
    ASSIGN_OR_RETURN(c.runs, ParseSiaRuns(*runs, w + ".runs"));
  }
  ASSIGN_OR_RETURN(auto history, GetOptString(s, "history", w));
  c.history = history.value_or(c.history);
  ASSIGN_OR_RETURN(auto seed, GetOptInt(s, "world_seed", w));
  if (seed) c.mapping.seed = static_cast<uint64_t>(*seed);
  return Status::Ok();
}

std::vector<sia::SiaJobInput> JobInputs(const Trace& trace) {
  std::vector<sia::SiaJobInput> jobs;
  for (const auto& j : trace.jobs) jobs.push_back({j.id, j.type, j.submit_s, j.batch_size});
  return jobs;
}

// A fresh, empty history for one workload file, removed when it goes.
class FileHistory {
 public:
  static Result<std::unique_ptr<FileHistory>> Open(const std::string& spec, size_t file_index) {
    auto h = std::unique_ptr<FileHistory>(new FileHistory());
    const std::string tag = StrFormat("%d_%zu", static_cast<int>(getpid()), file_index);
    if (spec.rfind("redis://", 0) == 0) {
      ASSIGN_OR_RETURN(RedisOptions ro, ParseRedisUrl(spec));
      ro.prefix += ":sia:" + tag;
      ASSIGN_OR_RETURN(h->store_, OpenRedisHistory(ro));
      return h;
    }
    if (spec != "sqlite") return InvalidArgument("schedmate.history: \"sqlite\" or redis://host:port, not \"" + spec + "\"");
    h->db_ = (fs::temp_directory_path() / ("schedmate_sia_" + tag + ".db")).string();
    fs::remove(h->db_);
    SqliteOptions so;
    so.group_commit = 64;  // thousands of records per file; durability per record is not needed here
    ASSIGN_OR_RETURN(h->store_, OpenSqliteHistory(h->db_, so));
    return h;
  }
  ~FileHistory() {
    store_.reset();
    if (db_.empty()) return;
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db_ + suffix, ec);
  }
  HistoryStore& store() { return *store_; }

 private:
  FileHistory() = default;
  std::unique_ptr<HistoryStore> store_;
  std::string db_;
};

struct SchedmateRun {
  sia::SiaRunResult result;
  SiaSchedmateStats stats;
};

Result<SchedmateRun> RunWithHistory(const SiaExperimentConfig& c, const std::map<std::string, sia::AppProfile>& profiles,
                                    const Trace& trace, const WorkloadCatalog& catalog, size_t file_index,
                                    MilpSolver* solver) {
  SiaWorld world = MapSiaTrace(trace, catalog, c.mapping);
  ASSIGN_OR_RETURN(auto history, FileHistory::Open(c.history, file_index));
  WorldArtefactSource artefacts(world.world, &catalog, c.mapping.seed, &world.by_job_id);
  SiaSchedmate schedmate(artefacts, c.cluster, history->store());
  sia::SiaSimOptions options = c.options;
  options.bootstrap = sia::Bootstrap::kProfile;  // what a history hit skips
  schedmate.Attach(options);
  ASSIGN_OR_RETURN(sia::SiaRunResult r, sia::RunSia(c.cluster, profiles, JobInputs(trace), c.params, options, solver));
  if (!schedmate.store_error().ok()) return schedmate.store_error().WithContext("history");
  return SchedmateRun{std::move(r), schedmate.stats()};
}

// A folder without workload CSVs, e.g. workloads/scale, whose rate_N folders hold them.
Status NoWorkloadFiles(const std::string& dir) {
  std::vector<std::string> sub;
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(dir, ec))
    if (f.is_directory()) sub.push_back(f.path().filename().string());
  std::sort(sub.begin(), sub.end());
  std::string msg = dir + ": no .csv workload files";
  if (!sub.empty()) {
    msg += " (its folders: ";
    for (size_t i = 0; i < sub.size(); ++i) msg += (i ? ", " : "") + sub[i];
    msg += "; pass one with --workloads)";
  }
  return InvalidArgument(msg);
}

}  // namespace

Result<sia::Bootstrap> ParseSiaBootstrap(const std::string& s, const std::string& where) {
  if (s == "profile") return sia::Bootstrap::kProfile;
  if (s == "as_you_go") return sia::Bootstrap::kAsYouGo;
  return InvalidArgument(where + ": sia.bootstrap must be \"profile\" or \"as_you_go\", not \"" + s + "\"");
}

Result<SiaRuns> ParseSiaRuns(const std::string& s, const std::string& where) {
  if (s == "both") return SiaRuns::kBoth;
  if (s == "sia") return SiaRuns::kSia;
  if (s == "schedmate") return SiaRuns::kSchedmate;
  return InvalidArgument(where + ": must be \"both\", \"sia\" or \"schedmate\", not \"" + s + "\"");
}

Result<SiaExperimentConfig> ReadSiaExperimentConfig(const std::string& path, const SharedDir& shared) {
  ASSIGN_OR_RETURN(Json j, ReadJsonFile(path));
  RETURN_IF_ERROR(OnlyKnownFields(j, {"name", "workloads", "profiles", "cluster", "sia", "schedmate"}, path));
  SiaExperimentConfig c;
  ASSIGN_OR_RETURN(std::string workloads, GetString(j, "workloads", path));
  ASSIGN_OR_RETURN(c.workloads, ResolveConfigPath(workloads, path, "workloads", shared));
  ASSIGN_OR_RETURN(auto profiles, GetOptString(j, "profiles", path));
  ASSIGN_OR_RETURN(c.profiles, ResolveConfigPath(profiles.value_or("${SHARED}/traces/sia/profiles"), path, "profiles",
                                                 shared));
  if (j.contains("cluster")) {
    ASSIGN_OR_RETURN(c.cluster, ClusterFromJson(j["cluster"], path));
  }
  if (j.contains("sia")) RETURN_IF_ERROR(ReadSiaSection(j["sia"], path, c));
  if (j.contains("schedmate")) RETURN_IF_ERROR(ReadSchedmateSection(j["schedmate"], path, c));
  return c;
}

std::vector<std::string> SiaWorkloadFiles(const std::string& path, SiaFileSelection selection) {
  std::vector<std::string> files;
  if (!fs::is_directory(path)) return {path};
  for (const auto& f : fs::directory_iterator(path))
    if (f.path().extension() == ".csv") files.push_back(f.path().string());
  std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  if (files.empty()) return files;
  const size_t first = static_cast<size_t>(std::max(0, selection.first)) % files.size();
  std::rotate(files.begin(), files.begin() + static_cast<std::ptrdiff_t>(first), files.end());
  if (selection.max > 0 && static_cast<int>(files.size()) > selection.max) files.resize(selection.max);
  return files;
}

Result<SiaComparison> RunSiaComparison(const SiaExperimentConfig& c, SiaFileSelection selection,
                                       const std::function<void(const SiaFileResult&)>& on_file) {
  ASSIGN_OR_RETURN(auto profiles, LoadSiaAppProfiles(c.profiles));
  const WorkloadCatalog catalog = LoadWorkloadCatalog(c.shared);
  CbcSolver cbc;
  IsolatedSolver solver(&cbc);  // a CBC assertion fails one round, not the whole run
  SiaComparison out;
  const std::vector<std::string> files = SiaWorkloadFiles(c.workloads, selection);
  if (files.empty()) return NoWorkloadFiles(c.workloads);
  for (size_t i = 0; i < files.size(); ++i) {
    ASSIGN_OR_RETURN(Trace trace, LoadTraceFile(files[i], TraceFormat::kSia));
    SiaFileResult f;
    f.file = files[i];
    if (c.runs != SiaRuns::kSchedmate) {
      auto r = sia::RunSia(c.cluster, profiles, JobInputs(trace), c.params, c.options, &solver);
      if (!r.ok()) return r.status().WithContext(files[i]);
      f.sia = std::move(r).value();
    }
    if (c.runs != SiaRuns::kSia) {
      auto r = RunWithHistory(c, profiles, trace, catalog, i, &solver);
      if (!r.ok()) return r.status().WithContext(files[i] + ": sia+schedmate");
      f.schedmate = std::move(r->result);
      f.stats = r->stats;
    }
    if (on_file) on_file(f);
    out.files.push_back(std::move(f));
  }
  return out;
}

}  // namespace schedmate

#include "experiments/sweep_plan.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/json.h"

namespace schedmate {
namespace fs = std::filesystem;

namespace {

constexpr int kPlanVersion = 1;

Json TaskToJson(const SweepTask& t) {
  return {{"index", t.index},     {"experiment", t.experiment},
          {"setting", t.setting}, {"command", t.command},
          {"seed", t.seed},       {"argv", t.argv}};
}

Result<SweepTask> TaskFromJson(const Json& j, const std::string& where) {
  SweepTask t;
  ASSIGN_OR_RETURN(int64_t index, GetInt(j, "index", where));
  t.index = static_cast<size_t>(index);
  ASSIGN_OR_RETURN(t.experiment, GetString(j, "experiment", where));
  ASSIGN_OR_RETURN(t.setting, GetString(j, "setting", where));
  ASSIGN_OR_RETURN(t.command, GetString(j, "command", where));
  ASSIGN_OR_RETURN(t.seed, GetInt(j, "seed", where));
  if (!j.contains("argv") || !j["argv"].is_array() || j["argv"].empty())
    return InvalidArgument(where + ": field 'argv' must be a non-empty array of strings");
  for (const Json& a : j["argv"]) {
    if (!a.is_string()) return InvalidArgument(where + ": field 'argv' must be a non-empty array of strings");
    t.argv.push_back(a.get<std::string>());
  }
  return t;
}

}  // namespace

SweepPlan ExpandSweep(const SweepSpec& spec, const std::string& binary, const std::string& out_dir) {
  SweepPlan plan{spec.name, spec.file, spec.cwd, binary, spec.sbatch_args, {}};
  for (const SweepExperiment& e : spec.experiments)
    for (const SweepSetting& s : e.settings)
      for (int64_t seed : e.seeds) {
        SweepTask t{plan.tasks.size(), e.name, s.name.empty() ? "default" : s.name,
                    e.command,         seed,   {binary, e.command}};
        if (!e.config.empty()) t.argv.insert(t.argv.end(), {"--config", e.config});
        t.argv.insert(t.argv.end(), e.args.begin(), e.args.end());
        t.argv.insert(t.argv.end(), s.args.begin(), s.args.end());
        t.argv.insert(t.argv.end(), {"--seed", std::to_string(seed), "--json", "--progress", "off"});
        if (e.keep_outputs) t.argv.insert(t.argv.end(), {"--out", TaskDir(out_dir, t.index) + "/out"});
        plan.tasks.push_back(std::move(t));
      }
  return plan;
}

std::string TaskDir(const std::string& dir, size_t index) {
  return (fs::path(dir) / ("task-" + std::to_string(index))).string();
}
std::string TaskSummaryPath(const std::string& dir, size_t i) { return TaskDir(dir, i) + "/summary.json"; }
std::string TaskStderrPath(const std::string& dir, size_t i) { return TaskDir(dir, i) + "/stderr.txt"; }
std::string TaskResultPath(const std::string& dir, size_t i) { return TaskDir(dir, i) + "/result.json"; }
std::string TaskSlurmOutPath(const std::string& dir, size_t i) { return TaskDir(dir, i) + "/slurm.out"; }

Status WriteFileAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Unavailable(tmp + ": " + std::strerror(errno));
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && fsync(fd) == 0;
  ok = close(fd) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    unlink(tmp.c_str());
    return Unavailable(path + ": cannot write: " + why);
  }
  return Status::Ok();
}

Status WriteSweepPlan(const SweepPlan& plan, const std::string& dir, bool replace) {
  std::error_code ec;
  const std::string path = (fs::path(dir) / "tasks.json").string();
  if (!replace && fs::exists(path, ec))
    return InvalidArgument(dir + " already holds a sweep (" + path +
                           "); choose another --out, or --force to start over");
  fs::create_directories(dir, ec);
  if (ec) return Unavailable(dir + ": cannot create: " + ec.message());
  Json tasks = Json::array();
  for (const SweepTask& t : plan.tasks) {
    fs::create_directories(TaskDir(dir, t.index), ec);
    if (ec) return Unavailable(TaskDir(dir, t.index) + ": cannot create: " + ec.message());
    fs::remove(TaskResultPath(dir, t.index), ec);  // --force: an old result must not pass for a new one
    tasks.push_back(TaskToJson(t));
  }
  Json j = {{"version", kPlanVersion}, {"name", plan.name},     {"sweep_file", plan.sweep_file},
            {"cwd", plan.cwd},         {"binary", plan.binary}, {"sbatch_args", plan.sbatch_args},
            {"tasks", tasks}};
  return WriteFileAtomically(path, DumpJson(j, 2) + "\n");
}

Result<SweepPlan> ReadSweepPlan(const std::string& dir) {
  const std::string path = (fs::path(dir) / "tasks.json").string();
  std::error_code ec;
  if (!fs::exists(path, ec)) return NotFound(dir + " holds no sweep (" + path + " is missing)");
  ASSIGN_OR_RETURN(Json j, ReadJsonFile(path));
  ASSIGN_OR_RETURN(int64_t version, GetInt(j, "version", path));
  if (version != kPlanVersion)
    return InvalidArgument(path + ": version " + std::to_string(version) + ", this schedmate reads version " +
                           std::to_string(kPlanVersion));
  SweepPlan plan;
  ASSIGN_OR_RETURN(plan.name, GetString(j, "name", path));
  ASSIGN_OR_RETURN(plan.sweep_file, GetString(j, "sweep_file", path));
  ASSIGN_OR_RETURN(plan.cwd, GetString(j, "cwd", path));
  ASSIGN_OR_RETURN(plan.binary, GetString(j, "binary", path));
  if (j.contains("sbatch_args") && j["sbatch_args"].is_array())
    for (const Json& a : j["sbatch_args"])
      if (a.is_string()) plan.sbatch_args.push_back(a.get<std::string>());
  if (!j.contains("tasks") || !j["tasks"].is_array()) return InvalidArgument(path + ": field 'tasks' must be an array");
  for (size_t i = 0; i < j["tasks"].size(); ++i) {
    ASSIGN_OR_RETURN(SweepTask t, TaskFromJson(j["tasks"][i], path + ": tasks[" + std::to_string(i) + "]"));
    if (t.index != i)
      return InvalidArgument(path + ": tasks[" + std::to_string(i) + "] has index " + std::to_string(t.index));
    plan.tasks.push_back(std::move(t));
  }
  return plan;
}

Status WriteTaskResult(const std::string& dir, size_t index, const TaskResult& r) {
  Json j = {{"exit_code", r.exit_code},
            {"signal", r.signal},
            {"wall_s", r.wall_s},
            {"host", r.host},
            {"started_at_ms", r.started_at_ms}};
  return WriteFileAtomically(TaskResultPath(dir, index), DumpJson(j) + "\n");
}

Result<std::optional<TaskResult>> ReadTaskResult(const std::string& dir, size_t index) {
  const std::string path = TaskResultPath(dir, index);
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::optional<TaskResult>();
  ASSIGN_OR_RETURN(Json j, ReadJsonFile(path));
  TaskResult r;
  ASSIGN_OR_RETURN(int64_t code, GetInt(j, "exit_code", path));
  ASSIGN_OR_RETURN(int64_t signal, GetInt(j, "signal", path));
  ASSIGN_OR_RETURN(r.wall_s, GetNumber(j, "wall_s", path));
  ASSIGN_OR_RETURN(r.host, GetString(j, "host", path));
  ASSIGN_OR_RETURN(r.started_at_ms, GetInt(j, "started_at_ms", path));
  r.exit_code = static_cast<int>(code);
  r.signal = static_cast<int>(signal);
  return std::optional<TaskResult>(r);
}

}  // namespace schedmate

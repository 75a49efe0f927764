#include "experiments/sweep_merge.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "experiments/sweep_slurm.h"

namespace schedmate {
namespace {

bool EndsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Measured on the machine that ran it, not a result of the experiment.
bool IsTiming(const std::string& key) {
  return key == "wall_s" || key == "events_per_s" || EndsWith(key, "_ms") || EndsWith(key, "_ms_total");
}

std::string RunLabel(const Json& run, size_t k) {
  auto str = [&](const char* key) {
    return run.contains(key) && run[key].is_string() ? run[key].get<std::string>() : "";
  };
  if (!str("label").empty()) return str("label");
  std::string label = str("policy");
  if (!label.empty() && !str("backfill").empty()) label += " " + str("backfill");
  if (!label.empty() && !str("estimate").empty()) label += "/" + str("estimate");
  return label.empty() ? "run-" + std::to_string(k) : label;
}

// Numbers of nested objects are kept as "outer.inner" (a Lucid run's
// "schedmate": {"hits": …} → "schedmate.hits").
void Flatten(const Json& obj, const std::string& prefix, bool with_timings, std::map<std::string, double>* out) {
  for (const auto& [key, value] : obj.items()) {
    if (value.is_number() && (with_timings || !IsTiming(key)))
      (*out)[prefix + key] = value.get<double>();
    else if (value.is_object())
      Flatten(value, prefix + key + ".", with_timings, out);
  }
}

SummaryRun RunOf(const Json& run, size_t k, bool with_timings) {
  SummaryRun r{RunLabel(run, k), {}};
  Flatten(run, "", with_timings, &r.metrics);
  return r;
}

std::string LastLine(const std::string& path) {
  auto text = ReadFileCapped(path, 1u << 20);
  if (!text.ok()) return "";
  std::string s = *text;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  const size_t nl = s.rfind('\n');
  s = nl == std::string::npos ? s : s.substr(nl + 1);
  return s.size() > 200 ? s.substr(0, 200) + "…" : s;
}

void ReadTask(const std::string& dir, const std::map<size_t, std::string>& slurm, MergedTask* t) {
  const size_t i = t->task.index;
  t->stderr_path = TaskStderrPath(dir, i);
  if (auto s = slurm.find(i); s != slurm.end()) t->slurm_state = s->second;
  auto result = ReadTaskResult(dir, i);
  if (!result.ok()) {
    t->status = TaskStatus::kFailed;
    t->why = "its result is unreadable: " + result.status().message();
    return;
  }
  t->result = *result;
  if (!t->result) {
    t->status = TaskStatus::kMissing;
    t->why = "no result.json: it never ran, or was killed before it ended";
    if (!t->slurm_state.empty()) t->why += " (SLURM: " + t->slurm_state + ")";
    std::error_code ec;
    const bool slurm_out = std::filesystem::exists(TaskSlurmOutPath(dir, i), ec);
    t->why += "; see " + (slurm_out ? TaskSlurmOutPath(dir, i) : t->stderr_path);
    return;
  }
  if (t->result->exit_code != 0) {
    t->status = TaskStatus::kFailed;
    t->why = t->result->signal ? "killed by signal " + std::to_string(t->result->signal)
                               : "exit " + std::to_string(t->result->exit_code);
    const std::string last = LastLine(t->stderr_path);
    t->why += "; stderr " + t->stderr_path + (last.empty() ? "" : ": " + last);
    return;
  }
  auto summary = ReadJsonFile(TaskSummaryPath(dir, i));
  auto runs = summary.ok() ? SummaryRuns(*summary) : Result<std::vector<SummaryRun>>(summary.status());
  if (!runs.ok()) {
    t->status = TaskStatus::kFailed;
    t->why = "exit 0 but no summary: " + runs.status().message() + "; stderr " + t->stderr_path;
    return;
  }
  t->status = TaskStatus::kOk;
  t->runs = std::move(*runs);
}

// Means over seeds, per experiment × setting × run label, in task order.
std::vector<MergedMean> Means(const std::vector<MergedTask>& tasks) {
  std::vector<MergedMean> means;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> slot;
  std::map<std::pair<std::string, std::string>, size_t> expected;
  std::map<size_t, std::map<std::string, size_t>> counts;
  for (const MergedTask& t : tasks) ++expected[{t.task.experiment, t.task.setting}];
  for (const MergedTask& t : tasks)
    for (const SummaryRun& r : t.runs) {
      auto [it, added] = slot.try_emplace({t.task.experiment, t.task.setting, r.label}, means.size());
      if (added)
        means.push_back(
            {t.task.experiment, t.task.setting, r.label, {}, expected[{t.task.experiment, t.task.setting}], {}});
      MergedMean& m = means[it->second];
      m.seeds.push_back(t.task.seed);
      for (const auto& [key, value] : r.metrics) {
        m.mean[key] += value;
        ++counts[it->second][key];
      }
    }
  for (size_t i = 0; i < means.size(); ++i)
    for (auto& [key, sum] : means[i].mean) sum /= static_cast<double>(counts[i][key]);
  return means;
}

}  // namespace

Result<std::vector<SummaryRun>> SummaryRuns(const Json& summary, bool with_timings) {
  const Json* list = &summary;
  if (summary.is_object() && summary.contains("runs"))
    list = &summary["runs"];
  else if (summary.is_object() && summary.contains("rows"))
    list = &summary["rows"];
  std::vector<SummaryRun> runs;
  if (list->is_object()) {
    runs.push_back(RunOf(*list, 0, with_timings));
  } else if (list->is_array()) {
    for (size_t k = 0; k < list->size(); ++k)
      if ((*list)[k].is_object()) runs.push_back(RunOf((*list)[k], k, with_timings));
  }
  if (runs.empty()) return InvalidArgument("the summary holds no run (an object, an array, or 'runs'/'rows')");
  return runs;
}

const char* TaskStatusName(TaskStatus s) {
  switch (s) {
    case TaskStatus::kOk:
      return "ok";
    case TaskStatus::kFailed:
      return "failed";
    case TaskStatus::kMissing:
      return "missing";
  }
  return "?";
}

Result<MergedSweep> MergeSweep(const std::string& dir) {
  ASSIGN_OR_RETURN(SweepPlan plan, ReadSweepPlan(dir));
  MergedSweep m{plan.name, dir, {}, {}, 0, 0, 0};
  const std::map<size_t, std::string> slurm = ReadSlurmStates(dir);
  for (const SweepTask& task : plan.tasks) {
    MergedTask t;
    t.task = task;
    ReadTask(dir, slurm, &t);
    (t.status == TaskStatus::kOk ? m.ok : t.status == TaskStatus::kFailed ? m.failed : m.missing) += 1;
    m.tasks.push_back(std::move(t));
  }
  m.means = Means(m.tasks);
  return m;
}

}  // namespace schedmate

// MergedSweep as JSON (DIR/summary.json, --json) and as text tables.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/str_format.h"
#include "experiments/sweep_merge.h"

namespace schedmate {
namespace {

using Table = std::vector<std::vector<std::string>>;

// Columns padded to their widest cell; the first row is the header.
std::string Render(const Table& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) line += row[c] + std::string(width[c] - row[c].size() + 2, ' ');
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string Metric(const std::map<std::string, double>& m, const char* key, double scale, const char* fmt) {
  auto it = m.find(key);
  return it == m.end() ? "-" : StrFormat(fmt, it->second * scale);
}

// The metrics every table shows: JCT and queue in hours, utilisation in %.
std::vector<std::string> KeyMetrics(const std::map<std::string, double>& m) {
  constexpr double kHour = 1.0 / 3600;
  return {Metric(m, "jobs", 1, "%.0f"),           Metric(m, "avg_jct_s", kHour, "%.3f"),
          Metric(m, "p99_jct_s", kHour, "%.3f"),  Metric(m, "avg_queue_s", kHour, "%.3f"),
          Metric(m, "makespan_s", kHour, "%.2f"), Metric(m, "gpu_utilization", 100, "%.1f")};
}

const std::vector<std::string> kMetricHeader = {"jobs", "avg JCT h", "p99 JCT h", "queue h", "makespan h", "util %"};

Json MetricsJson(const std::map<std::string, double>& m) {
  Json j = Json::object();
  for (const auto& [k, v] : m) j[k] = std::isfinite(v) ? Json(v) : Json();
  return j;
}

Json TaskJson(const MergedTask& t) {
  Json j = {{"index", t.task.index},  {"experiment", t.task.experiment},    {"setting", t.task.setting},
            {"seed", t.task.seed},    {"status", TaskStatusName(t.status)}, {"argv", t.task.argv},
            {"stderr", t.stderr_path}};
  if (!t.why.empty()) j["why"] = t.why;
  if (!t.slurm_state.empty()) j["slurm_state"] = t.slurm_state;
  if (t.result) {
    j["exit_code"] = t.result->exit_code;
    j["wall_s"] = t.result->wall_s;
    j["host"] = t.result->host;
  }
  Json runs = Json::array();
  for (const SummaryRun& r : t.runs) runs.push_back({{"label", r.label}, {"metrics", MetricsJson(r.metrics)}});
  j["runs"] = runs;
  return j;
}

std::string SettingSeed(const MergedTask& t) {
  return t.task.experiment + " / " + t.task.setting + " / seed " + std::to_string(t.task.seed);
}

}  // namespace

Json MergedSweepToJson(const MergedSweep& m) {
  Json tasks = Json::array(), means = Json::array(), problems = Json::array();
  for (const MergedTask& t : m.tasks) {
    tasks.push_back(TaskJson(t));
    if (t.status != TaskStatus::kOk)
      problems.push_back(
          {{"index", t.task.index}, {"status", TaskStatusName(t.status)}, {"why", t.why}, {"stderr", t.stderr_path}});
  }
  for (const MergedMean& mean : m.means)
    means.push_back({{"experiment", mean.experiment},
                     {"setting", mean.setting},
                     {"label", mean.label},
                     {"seeds", mean.seeds},
                     {"tasks", mean.expected},
                     {"mean", MetricsJson(mean.mean)}});
  return {{"sweep", m.name},      {"dir", m.dir},       {"tasks", m.tasks.size()},
          {"ok", m.ok},           {"failed", m.failed}, {"missing", m.missing},
          {"problems", problems}, {"means", means},     {"results", tasks}};
}

std::string FormatMergedSweep(const MergedSweep& m) {
  Table per_task = {{"task", "experiment", "setting", "seed", "run"}};
  per_task[0].insert(per_task[0].end(), kMetricHeader.begin(), kMetricHeader.end());
  for (const MergedTask& t : m.tasks) {
    std::vector<std::string> head = {std::to_string(t.task.index), t.task.experiment, t.task.setting,
                                     std::to_string(t.task.seed)};
    if (t.status != TaskStatus::kOk) {
      head.push_back(std::string("(") + TaskStatusName(t.status) + ")");
      per_task.push_back(head);
    }
    for (const SummaryRun& r : t.runs) {
      std::vector<std::string> row = head;
      row.push_back(r.label);
      for (auto& cell : KeyMetrics(r.metrics)) row.push_back(cell);
      per_task.push_back(std::move(row));
    }
  }
  Table means = {{"experiment", "setting", "run", "seeds"}};
  means[0].insert(means[0].end(), kMetricHeader.begin(), kMetricHeader.end());
  for (const MergedMean& mean : m.means) {
    std::vector<std::string> row = {mean.experiment, mean.setting, mean.label,
                                    StrFormat("%zu/%zu", mean.seeds.size(), mean.expected)};
    for (auto& cell : KeyMetrics(mean.mean)) row.push_back(cell);
    means.push_back(std::move(row));
  }
  std::string out = StrFormat("sweep %s: %zu tasks, %zu ok, %zu failed, %zu missing (%s)\n\n", m.name.c_str(),
                              m.tasks.size(), m.ok, m.failed, m.missing, m.dir.c_str());
  out +=
      Render(per_task) + "\nMean over seeds (seeds = tasks that succeeded / tasks of the setting):\n" + Render(means);
  if (!m.complete()) out += "\n";
  for (const MergedTask& t : m.tasks)
    if (t.status != TaskStatus::kOk)
      out += StrFormat("%s: task %zu (%s) %s\n", t.status == TaskStatus::kFailed ? "FAILED" : "MISSING", t.task.index,
                       SettingSeed(t).c_str(), t.why.c_str());
  return out;
}

}  // namespace schedmate

#include "experiments/sia_report.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/stats.h"
#include "core/str_format.h"

namespace schedmate {
namespace {

namespace fs = std::filesystem;

// One run's numbers, as both outputs print them.
struct RunMetrics {
  size_t jobs = 0;
  int hits = 0;  // jobs started from a history's model
  double avg_jct_h = 0, p99_jct_h = 0, makespan_h = 0, gpu_h = 0, gpu_h_per_job = 0, profile_gpu_h = 0;
  double policy_ms_median = 0, policy_ms_p95 = 0;
  int failed_rounds = 0;
};

RunMetrics MetricsOf(const sia::SiaRunResult& r) {
  std::vector<double> ms;
  for (const auto& s : r.rounds) ms.push_back(s.policy_ms);
  RunMetrics m;
  m.jobs = r.jobs.size();
  m.hits = static_cast<int>(std::count_if(r.jobs.begin(), r.jobs.end(), [](const auto& j) { return j.seeded; }));
  m.avg_jct_h = r.avg_jct_s / 3600, m.p99_jct_h = r.p99_jct_s / 3600, m.makespan_h = r.makespan_s / 3600;
  m.gpu_h = r.gpu_hours, m.profile_gpu_h = r.profile_gpu_hours;
  m.gpu_h_per_job = m.jobs ? r.gpu_hours / static_cast<double>(m.jobs) : 0;
  m.policy_ms_median = Median(ms), m.policy_ms_p95 = Percentile(ms, 95);
  m.failed_rounds = r.failed_rounds;
  return m;
}

// The metrics a summary averages, in output order.
struct MetricField {
  const char* key;
  double (*get)(const RunMetrics&);
};
constexpr MetricField kMetricFields[] = {
    {"avg_jct_h", [](const RunMetrics& m) { return m.avg_jct_h; }},
    {"p99_jct_h", [](const RunMetrics& m) { return m.p99_jct_h; }},
    {"makespan_h", [](const RunMetrics& m) { return m.makespan_h; }},
    {"gpu_h", [](const RunMetrics& m) { return m.gpu_h; }},
    {"gpu_h_per_job", [](const RunMetrics& m) { return m.gpu_h_per_job; }},
    {"profile_gpu_h", [](const RunMetrics& m) { return m.profile_gpu_h; }},
    {"policy_ms_median", [](const RunMetrics& m) { return m.policy_ms_median; }},
    {"policy_ms_p95", [](const RunMetrics& m) { return m.policy_ms_p95; }},
    {"failed_rounds", [](const RunMetrics& m) { return static_cast<double>(m.failed_rounds); }},
};

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

// Over files, population (as the text has always printed it).
double Std(const std::vector<double>& v) {
  const double m = Mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return v.empty() ? 0 : std::sqrt(s / static_cast<double>(v.size()));
}

double ChangePct(const sia::SiaRunResult& plain, const sia::SiaRunResult& with) {
  return plain.avg_jct_s > 0 ? 100 * (with.avg_jct_s / plain.avg_jct_s - 1) : 0;
}

std::string RunLine(const std::string& label, const sia::SiaRunResult& r) {
  const RunMetrics m = MetricsOf(r);
  std::string line = StrFormat("  %-15s jobs %4zu  avg %6.2f h  p99 %6.2f h  makespan %6.2f h  gpu-h %8.1f  "
                               "profile gpu-h %5.2f  policy ms median %6.1f p95 %6.1f  failed rounds %d\n",
                               label.c_str(), m.jobs, m.avg_jct_h, m.p99_jct_h, m.makespan_h, m.gpu_h,
                               m.profile_gpu_h, m.policy_ms_median, m.policy_ms_p95, m.failed_rounds);
  for (const auto& s : r.rounds)
    if (!s.solved) line += StrFormat("    round t=%lld kept the previous allocation: %s\n", (long long)s.t, s.note.c_str());
  return line;
}

std::string MeanLine(const std::string& label, const std::vector<const sia::SiaRunResult*>& runs) {
  std::vector<double> avg, p99, makespan;
  for (const auto* r : runs)
    avg.push_back(r->avg_jct_s / 3600), p99.push_back(r->p99_jct_s / 3600), makespan.push_back(r->makespan_s / 3600);
  return StrFormat("  %-15s avg JCT %.2f ± %.2f h  p99 JCT %.2f ± %.2f h  makespan %.2f ± %.2f h\n", label.c_str(),
                   Mean(avg), Std(avg), Mean(p99), Std(p99), Mean(makespan), Std(makespan));
}

Json RunJson(const sia::SiaRunResult& r) {
  const RunMetrics m = MetricsOf(r);
  Json j = {{"jobs", m.jobs}};
  for (const MetricField& f : kMetricFields) j[f.key] = f.get(m);
  j["failed_rounds"] = m.failed_rounds;
  Json notes = Json::array();
  for (const auto& s : r.rounds)
    if (!s.solved) notes.push_back({{"t_s", s.t}, {"note", s.note}});
  j["failed_round_notes"] = notes;
  // Per application: where a change in the averages comes from.
  std::map<std::string, std::vector<const sia::SiaJobResult*>> by_app;
  for (const auto& job : r.jobs) by_app[job.app].push_back(&job);
  Json apps = Json::object();
  for (const auto& [app, jobs] : by_app) {
    double jct = 0, gpu = 0, restarts = 0;
    for (const auto* job : jobs)
      jct += double(job->completion_s - job->submit_s), gpu += job->gpu_s + job->profile_gpu_s, restarts += job->restarts;
    const double n = static_cast<double>(jobs.size());
    apps[app] = {{"jobs", jobs.size()}, {"avg_jct_h", jct / n / 3600}, {"gpu_h", gpu / 3600},
                 {"restarts_per_job", restarts / n}};
  }
  j["by_app"] = apps;
  return j;
}

Json SchedmateJson(const SiaFileResult& f) {
  const SiaSchedmateStats& st = *f.stats;
  const RunMetrics m = MetricsOf(*f.schedmate);
  Json j = {{"hits", m.hits},
            {"jobs", m.jobs},
            {"hit_rate_pct", m.jobs ? 100.0 * m.hits / static_cast<double>(m.jobs) : 0.0},
            {"misses", {{"no_match", st.no_match}, {"match_without_throughputs", st.no_throughputs},
                        {"no_code", st.no_code}, {"extraction_failed", st.extraction_failures}}},
            {"written_back", st.written_back},
            {"advisor_ms_per_job", st.advised ? st.advisor_ms / static_cast<double>(st.advised) : 0.0}};
  if (f.sia) {
    j["profile_gpu_h_saved"] = f.sia->profile_gpu_hours - f.schedmate->profile_gpu_hours;
    j["avg_jct_change_pct"] = ChangePct(*f.sia, *f.schedmate);
  }
  return j;
}

Json MeanStd(const std::vector<double>& v) { return {{"mean", Mean(v)}, {"std", Std(v)}}; }

// Each metric's value per run, in kMetricFields order (MetricsOf once per run).
std::vector<std::vector<double>> MetricValues(const std::vector<const sia::SiaRunResult*>& runs) {
  std::vector<std::vector<double>> values(std::size(kMetricFields));
  for (const auto* r : runs) {
    const RunMetrics m = MetricsOf(*r);
    for (size_t k = 0; k < std::size(kMetricFields); ++k) values[k].push_back(kMetricFields[k].get(m));
  }
  return values;
}

Json SummaryOf(const std::vector<const sia::SiaRunResult*>& runs) {
  Json j = Json::object();
  const auto values = MetricValues(runs);
  for (size_t k = 0; k < std::size(kMetricFields); ++k) j[kMetricFields[k].key] = MeanStd(values[k]);
  return j;
}

// One run's per-file means as flat numbers, labelled.
Json MeanRow(const char* label, const std::vector<const sia::SiaRunResult*>& runs) {
  Json j = {{"label", label}, {"files", runs.size()}};
  double jobs = 0;
  for (const auto* r : runs) jobs += static_cast<double>(r->jobs.size());
  j["jobs"] = runs.empty() ? 0.0 : jobs / static_cast<double>(runs.size());
  const auto values = MetricValues(runs);
  for (size_t k = 0; k < std::size(kMetricFields); ++k) j[kMetricFields[k].key] = Mean(values[k]);
  return j;
}

const char* BootstrapName(sia::Bootstrap b) { return b == sia::Bootstrap::kProfile ? "profile" : "as_you_go"; }

const char* RunsName(SiaRuns r) {
  return r == SiaRuns::kBoth ? "both" : r == SiaRuns::kSia ? "sia" : "schedmate";
}

}  // namespace

std::string FormatSiaHeader(const SiaExperimentConfig& c) {
  return StrFormat("sia: %d GPUs, p=%.2f, lambda_n=%.2f, round %d s, bootstrap %s; sia+schedmate: history %s, "
                   "world seed %llu\n",
                   c.cluster.TotalGpus(), c.params.p, c.params.lambda_n, c.options.round_s,
                   BootstrapName(c.options.bootstrap), c.history.c_str(), (unsigned long long)c.mapping.seed);
}

std::string FormatSiaFile(const SiaFileResult& r) {
  std::string s = fs::path(r.file).filename().string() + "\n";
  if (r.sia) s += RunLine("sia", *r.sia);
  if (r.schedmate) {
    s += RunLine("sia+schedmate", *r.schedmate);
    const SiaSchedmateStats& st = *r.stats;
    const RunMetrics m = MetricsOf(*r.schedmate);
    const double saved = r.sia ? r.sia->profile_gpu_hours - r.schedmate->profile_gpu_hours : 0;
    s += StrFormat("  %-15s hits %d of %zu jobs (%.1f %%; misses: no match %lld, match without throughputs %lld, "
                   "no code %lld, extraction failed %lld)%s; written back %lld; advisor %.2f ms/job\n",
                   "", m.hits, m.jobs, 100.0 * m.hits / static_cast<double>(std::max<size_t>(1, m.jobs)),
                   (long long)st.no_match, (long long)st.no_throughputs, (long long)st.no_code,
                   (long long)st.extraction_failures,
                   r.sia ? StrFormat("; profiling GPU-h saved %.2f", saved).c_str() : "", (long long)st.written_back,
                   st.advised ? st.advisor_ms / static_cast<double>(st.advised) : 0.0);
  }
  return s;
}

std::string FormatSiaSummary(const SiaComparison& c) {
  std::vector<const sia::SiaRunResult*> plain, with;
  double hits = 0, jobs = 0, saved = 0;
  for (const auto& f : c.files) {
    if (f.sia) plain.push_back(&*f.sia);
    if (!f.schedmate) continue;
    with.push_back(&*f.schedmate);
    hits += MetricsOf(*f.schedmate).hits, jobs += static_cast<double>(f.schedmate->jobs.size());
    if (f.sia) saved += f.sia->profile_gpu_hours - f.schedmate->profile_gpu_hours;
  }
  std::string s = StrFormat("mean over %zu files:\n", c.files.size());
  if (!plain.empty()) s += MeanLine("sia", plain);
  if (!with.empty()) s += MeanLine("sia+schedmate", with);
  if (!with.empty())
    s += StrFormat("  hit rate %.1f %% (jobs that skipped profiling)%s\n", jobs > 0 ? 100 * hits / jobs : 0.0,
                   plain.empty() ? "" : StrFormat("; profiling GPU-h saved %.2f in all", saved).c_str());
  return s;
}

Json SiaComparisonToJson(const SiaExperimentConfig& config, const SiaComparison& c) {
  Json types = Json::array();
  for (const auto& t : config.cluster.types)
    types.push_back({{"name", t.name}, {"nodes", t.nodes}, {"gpus_per_node", t.gpus_per_node},
                     {"max_job_nodes", t.max_job_nodes}});
  Json cfg = {{"workloads", config.workloads},
              {"gpus", config.cluster.TotalGpus()},
              {"cluster", types},
              {"p", config.params.p},
              {"lambda_n", config.params.lambda_n},
              {"round_s", config.options.round_s},
              {"bootstrap", BootstrapName(config.options.bootstrap)},
              {"profile_s_per_type", config.options.profile_s_per_type},
              {"solver_time_limit_s", config.params.milp.time_limit_s},
              {"prefer_current", config.params.prefer_current},
              {"runs", RunsName(config.runs)},
              {"history", config.history},
              {"world_seed", config.mapping.seed}};
  Json files = Json::array();
  std::vector<const sia::SiaRunResult*> plain, with;
  std::vector<double> change;
  double hits = 0, jobs = 0, saved = 0;
  for (const auto& f : c.files) {
    Json runs = Json::object();
    if (f.sia) runs["sia"] = RunJson(*f.sia), plain.push_back(&*f.sia);
    Json file = {{"file", fs::path(f.file).filename().string()}, {"path", f.file}};
    if (f.schedmate) {
      runs["sia_schedmate"] = RunJson(*f.schedmate), with.push_back(&*f.schedmate);
      file["schedmate"] = SchedmateJson(f);
      hits += MetricsOf(*f.schedmate).hits, jobs += static_cast<double>(f.schedmate->jobs.size());
      if (f.sia) {
        saved += f.sia->profile_gpu_hours - f.schedmate->profile_gpu_hours;
        change.push_back(ChangePct(*f.sia, *f.schedmate));
      }
    }
    file["runs"] = runs;
    files.push_back(file);
  }
  Json runs = Json::object();
  if (!plain.empty()) runs["sia"] = SummaryOf(plain);
  if (!with.empty()) runs["sia_schedmate"] = SummaryOf(with);
  Json summary = {{"files", c.files.size()}, {"runs", runs}};
  // The same means as flat rows, one per run, as `experiments merge` reads them.
  Json rows = Json::array();
  if (!plain.empty()) rows.push_back(MeanRow("sia", plain));
  if (!with.empty()) {
    Json row = MeanRow("sia+schedmate", with);
    row["hit_rate_pct"] = jobs > 0 ? 100 * hits / jobs : 0.0;
    if (!change.empty()) row["avg_jct_change_pct"] = Mean(change), row["profile_gpu_h_saved"] = saved;
    double advised = 0, advisor_ms = 0;  // the semantic layer's cost, as the research report reads it
    for (const auto& f : c.files)
      if (f.stats) advised += static_cast<double>(f.stats->advised), advisor_ms += f.stats->advisor_ms;
    row["schedmate"] = {{"advised", advised}, {"hits", hits}, {"advisor_ms_total", advisor_ms}};
    rows.push_back(row);
  }
  if (!with.empty()) summary["hit_rate_pct"] = jobs > 0 ? 100 * hits / jobs : 0.0;
  if (!change.empty()) {
    summary["avg_jct_change_pct"] = MeanStd(change);
    summary["profile_gpu_h_saved_total"] = saved;
  }
  return {{"config", cfg}, {"files", files}, {"summary", summary}, {"runs", rows}};
}

}  // namespace schedmate

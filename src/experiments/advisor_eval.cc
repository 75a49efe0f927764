#include "experiments/advisor_eval.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "advisor/advisor.h"
#include "advisor/advisor_history.h"
#include "advisor/metadata_extractor.h"
#include "core/facts_json.h"
#include "core/json.h"
#include "core/random.h"
#include "core/stats.h"
#include "core/str_format.h"
#include "experiments/field_score.h"
#include "history/sqlite_store.h"
#include "repo/snapshot.h"
#include "world/repo_generator.h"

namespace schedmate {

Result<std::string> RunAdvisorEval(const AdvisorEvalOptions& a, std::FILE* log) {
  std::string out;
  Rng rng(a.seed);
  std::string db =
      std::filesystem::temp_directory_path() / ("schedmate_eval_advisor_" + std::to_string(getpid()) + ".db");
  std::filesystem::remove(db);
  auto store = OpenSqliteHistory(db);
  if (!store.ok()) return store.status();
  AdvisorHistory history(**store);
  FieldTally fields;
  std::vector<double> history_durations, latency_ms;
  struct Query {
    const char* kind;
    WorkloadTruth truth;
    GeneratedRepo repo;
    std::string original;
    double true_duration;
  };
  std::vector<Query> queries;
  std::map<std::string, WorkloadTruth> truth_of;  // history job → its true workload
  std::map<std::string, std::string> rendering_of;
  int extraction_failures = 0;
  const auto& families = WorkloadFamilies();
  for (int p = 0; p < a.projects; ++p) {
    WorkloadTruth w = DrawWorkload(families[static_cast<size_t>(p) % families.size()], rng);
    auto style = static_cast<CodeStyle>(rng.Below(kNumCodeStyles));
    uint64_t layout = rng.NextU64();
    GeneratedRepo orig = GenerateRepo(w, style, layout);
    auto snap = MemorySnapshot(orig.files, "orig");
    auto md = ExtractMetadata(*snap, orig.command);
    if (!md.ok()) {
      ++extraction_failures;
      if (a.verbose && log)
        std::fprintf(log, "extract failed (%s): %s\n", CodeStyleName(style), md.status().message().c_str());
      continue;
    }
    fields.Score(*md, w);
    HistoryRecord r;
    r.job_id = "p" + std::to_string(p);
    r.duration_s = static_cast<int64_t>(SampleDurationS(w, rng));
    r.completed_at_s = 1000 + p;
    r.end_reason = EndReason::kCompleted;
    r.sm_util = std::clamp(w.sm_util + 0.03 * rng.Normal(), 0.0, 1.0);
    history_durations.push_back(static_cast<double>(r.duration_s));
    truth_of[r.job_id] = w;
    rendering_of[r.job_id] = CanonicalRendering(*md);
    if (Status s = history.Record(r, *md); !s.ok()) return s;
    queries.push_back({"renamed copy", w, GenerateRepo(w, style, rng.NextU64()), r.job_id, SampleDurationS(w, rng)});
    WorkloadTruth other = SwapModel(w, rng);
    queries.push_back(
        {"other model", other, GenerateRepo(other, style, layout), r.job_id, SampleDurationS(other, rng)});
    WorkloadTruth data = SwapDataset(w, rng);
    if (data.dataset != w.dataset)
      queries.push_back(
          {"other dataset", data, GenerateRepo(data, style, layout), r.job_id, SampleDurationS(data, rng)});
  }
  double median_history = Percentile(history_durations, 50);
  int copies = 0, hits = 0, negatives = 0, false_matches = 0, fallbacks = 0, within = 0, estimates = 0,
      baseline_within = 0;
  double util_err = 0;
  int util_n = 0;
  for (const auto& q : queries) {
    auto t0 = std::chrono::steady_clock::now();
    auto snap = MemorySnapshot(q.repo.files, "query");
    auto md = ExtractMetadata(*snap, q.repo.command);
    DurationEstimate e;
    if (md.ok()) {
      fields.Score(*md, q.truth);
      EstimateOptions eo;
      eo.min_score = a.min_score;
      e = history.Estimate(*md, 1 << 30, eo);
    } else {
      ++extraction_failures;
    }
    latency_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    bool matched = e.method == DurationEstimate::Method::kHistory;
    fallbacks += !matched;
    bool copy = std::string(q.kind) == "renamed copy";
    // A match is false when its true workload has another model or dataset.
    bool wrong = false;
    for (const auto& m : e.matches) {
      const WorkloadTruth& t = truth_of[m.job_id];
      wrong = wrong || t.model_name != q.truth.model_name || t.dataset != q.truth.dataset;
    }
    if (copy) {
      ++copies;
      bool hit = matched && !e.matches.empty() && e.matches[0].job_id == q.original;
      hits += hit;
      baseline_within += std::fabs(median_history - q.true_duration) / q.true_duration <= 1.0;
      if (matched) {
        ++estimates;
        within += std::fabs(*e.duration_s - q.true_duration) / q.true_duration <= 1.0;
        if (e.sm_util) {
          util_err += std::fabs(*e.sm_util - q.truth.sm_util);
          ++util_n;
        }
      }
      if (!hit && a.verbose && log) {
        std::fprintf(log, "MISS copy of %s (%s, %s): %s%s\n", q.original.c_str(), q.truth.family.c_str(),
                     CodeStyleName(q.repo.style), matched ? "top match " : e.fallback_reason.c_str(),
                     matched ? e.matches[0].job_id.c_str() : "");
        if (md.ok())
          std::fprintf(log, "  query    %s\n  original %s\n", CanonicalRendering(*md).c_str(),
                       rendering_of[q.original].c_str());
        for (const auto& m : e.matches)
          std::fprintf(log, "  match    %s %.4f %s\n", m.job_id.c_str(), m.score, rendering_of[m.job_id].c_str());
      }
    } else {
      ++negatives;
      false_matches += matched && wrong;
      if (matched && wrong && a.verbose && log)
        std::fprintf(log, "FALSE MATCH %s for %s: %s\n", q.kind, q.original.c_str(), e.matches[0].job_id.c_str());
    }
  }
  std::filesystem::remove(db);
  std::filesystem::remove(db + "-wal");
  std::filesystem::remove(db + "-shm");
  Json per_field = Json::object();
  for (const auto& [k, v] : fields.ok) per_field[k] = fields.total ? double(v) / fields.total : 0;
  double field_mean = fields.Mean();
  auto ratio = [](int x, int n) { return n ? double(x) / n : 0.0; };
  if (a.json) {
    Json j = {{"projects", a.projects},
              {"seed", a.seed},
              {"queries", queries.size()},
              {"field_accuracy", per_field},
              {"field_accuracy_mean", field_mean},
              {"hit_rate", ratio(hits, copies)},
              {"false_match_rate", ratio(false_matches, negatives)},
              {"duration_within_100pct", ratio(within, estimates)},
              {"duration_within_100pct_all_copies", ratio(within, copies)},
              {"baseline_median_within_100pct", ratio(baseline_within, copies)},
              {"sm_util_mae", util_n ? util_err / util_n : 0},
              {"fallback_ratio", ratio(fallbacks, static_cast<int>(queries.size()))},
              {"latency_ms", {{"p50", Percentile(latency_ms, 50)}, {"p99", Percentile(latency_ms, 99)}}},
              {"extraction_failures", extraction_failures}};
    out += StrFormat("%s\n", DumpJson(j, 2).c_str());
    return out;
  }
  out += StrFormat(
      "Scheduling Advisor on a generated corpus: %d projects (15 families x 5 code styles), seed %llu, "
      "%zu queries, embedded backend\n\n",
      a.projects, (unsigned long long)a.seed, queries.size());
  out += StrFormat("field accuracy      ");
  for (const auto& [k, v] : fields.ok)
    out += StrFormat("%s %.1f %%  ", k.c_str(), 100.0 * v / std::max(1, fields.total));
  out += StrFormat("\n                    mean %.1f %% over %d extractions (%d failed)\n", 100 * field_mean,
                   fields.total, extraction_failures);
  out += StrFormat("hit rate            %.1f %% of %d renamed copies matched their original\n",
                   100 * ratio(hits, copies), copies);
  out += StrFormat("false matches       %.1f %% of %d other-model / other-dataset submissions\n",
                   100 * ratio(false_matches, negatives), negatives);
  out += StrFormat(
      "duration            %.1f %% of estimates within 100 %% relative error (%.1f %% of all copies); "
      "baseline (history median): %.1f %%\n",
      100 * ratio(within, estimates), 100 * ratio(within, copies), 100 * ratio(baseline_within, copies));
  out += StrFormat("SM utilisation      mean absolute error %.3f\n", util_n ? util_err / util_n : 0.0);
  out += StrFormat("fallback ratio      %.1f %%\n", 100 * ratio(fallbacks, static_cast<int>(queries.size())));
  out += StrFormat("latency             p50 %.2f ms, p99 %.2f ms per query (extract + retrieve + estimate)\n",
                   Percentile(latency_ms, 50), Percentile(latency_ms, 99));
  out += StrFormat(
      "\n(paper: 85.7 %% of estimates within 100 %% error, Lucid's estimator 27.7 %%; 9 s per job with an LLM)\n");
  return out;
}

}  // namespace schedmate
